import BundleFormat

/// Finds trips of one feed that a rider cannot tell apart: same route, same stops at the
/// same times (one pattern and one start time), same headsign, and running on a common
/// date. They are reported, not removed: the data is the agency's.
enum DuplicateTripFinder {
    /// What a rider sees of a trip (hid -1: none), ordered field by field.
    private struct Key: Equatable, Comparable {
        var rid: Int
        var pid: Int
        var start: Int
        var hid: Int

        static func < (a: Key, b: Key) -> Bool { (a.rid, a.pid, a.start, a.hid) < (b.rid, b.pid, b.start, b.hid) }
    }

    private struct Pair: Hashable {
        let a: Int32, b: Int32
        init(_ x: Int32, _ y: Int32) {
            a = min(x, y)
            b = max(x, y)
        }
    }

    /// Reports every trip that duplicates an earlier one (in trip id order), with both ids
    /// and the first date both run. `locals[i]` is the local id in `feed` of `trips[i]`.
    static func report(
        _ trips: ArraySlice<BundleModel.Trip>, locals: [Int32], feed: FeedData, days: ServiceDays, log: DiagnosticLog
    ) {
        // Positions in `locals` sorted by what a rider sees, so that equal trips are adjacent
        // (a sort of 8-byte positions: a dictionary of groups cost ~100 bytes a trip).
        func key(_ position: Int) -> Key {
            let t = trips[trips.startIndex + position]
            return Key(rid: t.rid, pid: t.pid, start: t.startTimeSecs, hid: t.hid ?? -1)
        }
        let sorted = locals.indices.filter { !trips[trips.startIndex + $0].frequency }.sorted { (key($0), $0) < (key($1), $1) }
        var groups: [ArraySlice<Int>] = []
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && key(sorted[end]) == key(sorted[start]) { end += 1 }
            if end - start > 1 { groups.append(sorted[start..<end]) }
            start = end
        }
        // The first common day of two services, asked once per pair (nil: they never meet).
        var memo: [Pair: CivilDate?] = [:]
        func commonDay(_ a: Int32, _ b: Int32) -> CivilDate? {
            if let known = memo[Pair(a, b)] { return known }
            let day = days.firstCommonDay(a, b)
            memo[Pair(a, b)] = .some(day)
            return day
        }
        // In trip id order, so the report reads the same on every run.
        for group in groups.sorted(by: { $0.first! < $1.first! }) {
            for (index, later) in zip(group.indices, group).dropFirst() {
                let b = feed.trips[Int(locals[later])].service
                for earlier in group[..<index] {
                    let a = feed.trips[Int(locals[earlier])].service
                    guard let day = commonDay(a, b) else { continue }
                    let laterID = feed.tripIDs.string(locals[later])
                    let earlierID = feed.tripIDs.string(locals[earlier])
                    log.add(
                        Diagnostic(
                            .duplicateTrip, feed: feed.name, file: "trips.txt", line: feed.trips[Int(locals[later])].line,
                            field: "trip_id", entityID: laterID, value: laterID,
                            message: "runs exactly like trip \"\(earlierID)\" (route, stops, times, headsign) on \(day.iso); both kept"))
                    break
                }
            }
        }
    }
}
