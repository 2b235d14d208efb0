/// calendar.txt: weekly services between two dates.
enum CalendarFile {
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("service_id")
        let start = t.column("start_date")
        let end = t.column("end_date")
        let dayColumns = weekdays.map { t.column($0) }
        while try t.next() {
            guard let key = t.requiredID(id, "service_id") else { continue }
            let serviceID = String(decoding: key, as: UTF8.self)
            guard let startDate = FieldParser.date(t.bytes(start)) else {
                t.warn(.badDate, column: start, entity: serviceID, message: "start_date is not a YYYYMMDD date; row dropped")
                continue
            }
            guard let endDate = FieldParser.date(t.bytes(end)) else {
                t.warn(.badDate, column: end, entity: serviceID, message: "end_date is not a YYYYMMDD date; row dropped")
                continue
            }
            var days = 0
            for (bit, column) in dayColumns.enumerated() where t.integer(column, in: 0...1, default: 0, entity: serviceID) == 1 {
                days |= 1 << bit
            }
            let service = feed.serviceIDs.intern(key).id
            guard feed.calendar[service] == nil else {
                t.warn(.duplicateID, column: id, entity: serviceID, message: "service_id defined twice in calendar.txt; the first wins")
                continue
            }
            if endDate < startDate {
                t.warn(
                    .badDate, column: end, entity: serviceID,
                    message: "end_date is before start_date; the service never runs by its weekdays")
            }
            feed.calendar[service] = .init(days: days, startDate: startDate, endDate: endDate)
        }
    }
}
