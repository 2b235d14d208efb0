import BundleFormat

/// Finds trips of one feed that a rider cannot tell apart: same route, same stops at the
/// same times (one pattern and one start time), same headsign, and running on a common
/// date. They are reported, not removed: the data is the agency's.
enum DuplicateTripFinder {
    private struct Key: Hashable {
        var rid: Int
        var pid: Int
        var start: Int
        var hid: Int?
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
        // Positions in `locals` grouped by what a rider sees; most groups have one trip.
        var groups: [Key: [Int]] = [:]
        for (position, trip) in zip(locals.indices, trips) where !trip.frequency {
            groups[Key(rid: trip.rid, pid: trip.pid, start: trip.startTimeSecs, hid: trip.hid), default: []].append(position)
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
        for group in groups.values.filter({ $0.count > 1 }).sorted(by: { $0[0] < $1[0] }) {
            for (index, later) in group.enumerated().dropFirst() {
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
