/// timeframes.txt (GTFS fares v2): times of day on the days of a service, named by a group
/// that fare leg rules refer to. Times are local wall-clock times from 00:00:00 to
/// 24:00:00 (empty: the whole day), the start included and the end excluded.
enum TimeframesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["timeframe_group_id", "service_id"]) else { return }
        let group = t.column("timeframe_group_id")
        let start = t.column("start_time")
        let end = t.column("end_time")
        let service = t.column("service_id")
        while try t.next() {
            guard let groupKey = t.requiredID(group, "timeframe_group_id"), let serviceKey = t.requiredID(service, "service_id")
            else { continue }
            let groupID = String(decoding: groupKey, as: UTF8.self)
            guard let sv = feed.serviceIDs.find(serviceKey) else {
                t.unknownReference(
                    column: service, to: ["calendar.txt", "calendar_dates.txt"], entity: groupID,
                    message: "service_id names no service; row dropped")
                continue
            }
            guard t.isEmpty(start) == t.isEmpty(end) else {
                t.warn(
                    .badTime, column: t.isEmpty(start) ? start : end, entity: groupID,
                    message: "start_time and end_time are given together or not at all; row dropped")
                continue
            }
            var from = 0
            var to = 86_400
            if !t.isEmpty(start) {
                guard let a = FieldParser.time(t.bytes(start)), a <= 86_400 else {
                    t.warn(.badTime, column: start, entity: groupID, message: "start_time is not a time up to 24:00:00; row dropped")
                    continue
                }
                guard let b = FieldParser.time(t.bytes(end)), b <= 86_400, b > a else {
                    t.warn(
                        .badTime, column: end, entity: groupID,
                        message: "end_time is not a time after start_time and up to 24:00:00; row dropped")
                    continue
                }
                from = Int(a)
                to = Int(b)
            }
            feed.fareProducts.timeframeGroups.insert(groupID)
            feed.fareProducts.timeframes.append(.init(group: groupID, start: from, end: to, service: sv))
        }
    }
}
