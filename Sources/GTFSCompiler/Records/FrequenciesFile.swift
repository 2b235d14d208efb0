/// frequencies.txt: trips that repeat every `headway_secs` within a window.
enum FrequenciesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("trip_id")
        let start = t.column("start_time")
        let end = t.column("end_time")
        let headway = t.column("headway_secs")
        let exact = t.column("exact_times")
        while try t.next() {
            let tripID = t.text(id) ?? ""
            guard let trip = feed.tripIDs.find(t.bytes(id)) else {
                t.unknownReference(column: id, to: FeedReader.tripSources, entity: tripID, message: "trip_id names no trip; row dropped")
                continue
            }
            guard let startTime = FieldParser.time(t.bytes(start)) else {
                t.warn(.badFrequency, column: start, entity: tripID, message: "start_time is empty or not H:MM:SS; window dropped")
                continue
            }
            guard let endTime = FieldParser.time(t.bytes(end)) else {
                t.warn(.badFrequency, column: end, entity: tripID, message: "end_time is empty or not H:MM:SS; window dropped")
                continue
            }
            guard endTime <= GTFSTime.limit else {
                t.warn(.timeLimit, column: end, entity: tripID, message: "end_time is past 168:00:00, the 7-day limit; window dropped")
                continue
            }
            guard endTime > startTime else {
                t.warn(.badFrequency, column: end, entity: tripID, message: "end_time is not after start_time; window dropped")
                continue
            }
            guard let seconds = FieldParser.integer(t.bytes(headway)), seconds > 0, seconds <= 86_400 else {
                t.warn(
                    .badFrequency, column: headway, entity: tripID,
                    message: "headway_secs must be a positive number of seconds; window dropped")
                continue
            }
            feed.frequencies.append(
                .init(
                    trip: trip, start: startTime, end: endTime, headway: Int32(seconds),
                    exactTimes: t.integer(exact, in: 0...1, default: 0, entity: tripID), line: t.line))
        }
    }
}
