/// transfers.txt: the stop-to-stop rows (transfer types 0-3 and 5). Rows that name routes
/// or trips, and in-seat transfers (type 4), are counted in one note; a row naming an
/// unknown stop is dropped with a warning.
enum TransfersFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let from = t.column("from_stop_id")
        let to = t.column("to_stop_id")
        let type = t.column("transfer_type")
        let minTime = t.column("min_transfer_time")
        let narrower = ["from_route_id", "to_route_id", "from_trip_id", "to_trip_id"].map { t.column($0) }
        var unused = 0
        var firstUnused = 0
        while try t.next() {
            let kind = t.integer(type, in: 0...5, default: 0)
            if kind == 4 || narrower.contains(where: { !t.isEmpty($0) }) {
                if unused == 0 { firstUnused = t.line }
                unused += 1
                continue
            }
            guard let fromKey = t.requiredID(from, "from_stop_id"), let toKey = t.requiredID(to, "to_stop_id") else { continue }
            guard let fromStop = feed.stopIDs.find(fromKey) else {
                t.unknownReference(column: from, to: ["stops.txt"], message: "from_stop_id names no stop; row dropped")
                continue
            }
            guard let toStop = feed.stopIDs.find(toKey) else {
                t.unknownReference(column: to, to: ["stops.txt"], message: "to_stop_id names no stop; row dropped")
                continue
            }
            feed.transfers.append(
                .init(
                    from: fromStop, to: toStop, type: kind, minTime: t.optionalInteger(minTime, in: 0...86_400), line: t.line))
        }
        if unused > 0 {
            t.log.add(
                Diagnostic(
                    .unusedTransfers, feed: t.feed, file: "transfers.txt", line: firstUnused,
                    message: "\(unused) row(s) between routes or trips, or in-seat, are not used (stop-to-stop transfers are)"))
        }
    }
}
