/// calendar_dates.txt: dates added to (1) or removed from (2) a service.
enum CalendarDatesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("service_id")
        let date = t.column("date")
        let type = t.column("exception_type")
        var seen = Set<Int>()
        while try t.next() {
            guard let key = t.requiredID(id, "service_id") else { continue }
            let serviceID = String(decoding: key, as: UTF8.self)
            guard let day = FieldParser.date(t.bytes(date)) else {
                t.warn(.badDate, column: date, entity: serviceID, message: "date is not a YYYYMMDD date; row dropped")
                continue
            }
            guard let exception = FieldParser.integer(t.bytes(type)), exception == 1 || exception == 2 else {
                t.warn(.badValue, column: type, entity: serviceID, message: "exception_type must be 1 or 2; row dropped")
                continue
            }
            let service = feed.serviceIDs.intern(key).id
            guard seen.insert(Int(service) << 32 | day).inserted else {
                t.warn(.duplicateID, column: date, entity: serviceID, message: "service_id and date given twice; the first wins")
                continue
            }
            feed.calendarDates.append(.init(service: service, date: day, exceptionType: exception))
        }
    }
}
