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
    /// and the first date both run. `trips` pairs each kept trip with its local id in `feed`.
    static func report(_ trips: [(local: Int32, trip: BundleModel.Trip)], feed: FeedData, days: ServiceDays, log: DiagnosticLog) {
        var groups: [Key: [(local: Int32, trip: BundleModel.Trip)]] = [:]
        for entry in trips where !entry.trip.frequency {
            let t = entry.trip
            groups[Key(rid: t.rid, pid: t.pid, start: t.startTimeSecs, hid: t.hid), default: []].append(entry)
        }
        var common: [Pair: CivilDate?] = [:]
        for group in groups.values where group.count > 1 {
            for (index, later) in group.enumerated().dropFirst() {
                let b = feed.trips[Int(later.local)].service
                for earlier in group[..<index] {
                    let a = feed.trips[Int(earlier.local)].service
                    let pair = Pair(a, b)
                    if common[pair] == nil { common[pair] = .some(days.firstCommonDay(a, b)) }
                    guard let day = common[pair] ?? nil else { continue }
                    log.add(
                        Diagnostic(
                            .duplicateTrip, feed: feed.name, file: "trips.txt", line: feed.trips[Int(later.local)].line,
                            field: "trip_id", entityID: later.trip.tripID, value: later.trip.tripID,
                            message:
                                "runs exactly like trip \"\(earlier.trip.tripID)\" (route, stops, times, headsign) on \(day.iso); both kept"
                        ))
                    break
                }
            }
        }
    }
}
