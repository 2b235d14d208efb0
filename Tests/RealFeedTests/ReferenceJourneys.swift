import Foundation
import TestKit

/// A plain, slow reading of journey-semantics.md over a `ReferenceTimetable`, sharing no
/// code with the planner: every trip instance of the days around the query becomes
/// connections (one per pair of consecutive stops), and a round-based connection scan
/// finds, for each number of rides k, the earliest arrival with at most k rides. Transfers
/// follow the document: transfers.txt (the most specific of stop/station rows), else the
/// change time at a stop and walk + change time within the transfer distance.
final class ReferenceJourneys {
    struct Connection {
        var departure: Int
        var arrival: Int
        var from: Int
        var to: Int
        var instance: Int
        var boards: Bool
        var alights: Bool
        /// Its place in its trip instance (0 for the first hop).
        var position: Int
    }

    let timetable: ReferenceTimetable
    let changeTime = 120
    let walkingSpeed = 1.2
    let transferDistance = 400.0
    let accessDistance = 800.0

    /// Stops as integers (served stops only), their places, and the transfers from each.
    private(set) var index: [String: Int] = [:]
    private(set) var names: [String] = []
    private var places: [(lat: Double, lon: Double)?] = []
    private var transfers: [[(to: Int, seconds: Int)]] = []
    private var connections: [Connection] = []
    private var instanceCount = 0
    /// By trip instance: its trip_id, and its connections (indexes) in trip order.
    private var instanceTrip: [String] = []
    private var instanceHops: [[Int]] = []

    /// `days`: the service days (y, m, d) whose trips may be ridden.
    init(timetable: ReferenceTimetable, zip: String, days: [(Int, Int, Int)]) throws {
        self.timetable = timetable
        for stop in timetable.byStop.keys.sorted() {
            index[stop] = names.count
            names.append(stop)
            // The bundle keeps coordinates to 1e-7 degree: walks are measured on those.
            let s = timetable.stops[stop]
            if let lat = s?.lat, let lon = s?.lon {
                places.append(((lat * 1e7).rounded() / 1e7, (lon * 1e7).rounded() / 1e7))
            } else {
                places.append(nil)
            }
        }
        try readTransfers(zip)
        for (y, m, d) in days { addConnections(y, m, d) }
        connections.sort { ($0.departure, $0.instance, $0.position) < ($1.departure, $1.instance, $1.position) }
        instanceHops = [[Int]](repeating: [], count: instanceCount)
        for (i, c) in connections.enumerated() { instanceHops[c.instance].append(i) }
        for i in instanceHops.indices { instanceHops[i].sort { connections[$0].position < connections[$1].position } }
    }

    func metres(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        PlainDistance.metres(a.lat, a.lon, b.lat, b.lon)
    }

    func walk(_ metres: Double) -> Int { Int((metres / walkingSpeed).rounded(.up)) }

    /// journey-semantics.md, "Transfers", read afresh (not from the planner): each
    /// transfers.txt row is spread over every (stop, stop) pair it covers, with how specific
    /// it is there; a pair keeps its most specific row, the first in the file among equals.
    /// τ then follows the document's cases for the rider's own stop, the stops within the
    /// transfer distance and the stops a row names.
    private func readTransfers(_ zip: String) throws {
        var platforms: [String: [String]] = [:]
        for (id, stop) in timetable.stops { if let station = stop.parent { platforms[station, default: []].append(id) } }
        /// The stops a row's stop_id covers: the stop itself (specificity 0) and, for a
        /// station, each of its platforms (specificity 1).
        func covered(_ id: String) -> [(stop: String, station: Int)] {
            [(id, 0)] + (platforms[id] ?? []).map { ($0, 1) }
        }
        struct Row {
            var type: Int
            var minimum: Int?
            var rank: Int
            var line: Int
        }
        var chosen: [String: [String: Row]] = [:]
        for (line, row) in try ReferenceTimetable.table("transfers.txt", in: zip).enumerated() {
            let names = ["from_route_id", "to_route_id", "from_trip_id", "to_trip_id"]
            guard names.allSatisfy({ (row[$0] ?? "").isEmpty }), let from = row["from_stop_id"], let to = row["to_stop_id"],
                !from.isEmpty, !to.isEmpty
            else { continue }
            let written = Int(row["transfer_type"] ?? "")
            let type = written.map { [0, 1, 2, 3, 4, 5].contains($0) ? $0 : 0 } ?? 0
            if type == 4 { continue }
            var minimum = Int(row["min_transfer_time"] ?? "")
            if let m = minimum, m < 0 || m > 86_400 { minimum = nil }
            for a in covered(from) {
                for b in covered(to) {
                    // (A, B) 0, (A, B's station) 1, (A's station, B) 2, both stations 3.
                    let candidate = Row(type: type, minimum: minimum, rank: 2 * a.station + b.station, line: line)
                    if let kept = chosen[a.stop]?[b.stop], (kept.rank, kept.line) < (candidate.rank, candidate.line) { continue }
                    chosen[a.stop, default: [:]][b.stop] = candidate
                }
            }
        }
        // Served stops near each other, found by a sweep over latitude (500 m is about 0.0045°).
        let byLatitude = names.indices.filter { places[$0] != nil }.sorted { places[$0]!.lat < places[$1]!.lat }
        var near = [[Int]](repeating: [], count: names.count)
        var low = 0
        for (k, a) in byLatitude.enumerated() {
            while places[byLatitude[low]]!.lat < places[a]!.lat - 0.0045 { low += 1 }
            for b in byLatitude[low..<k] where metres(places[a]!, places[b]!) <= transferDistance {
                near[a].append(b)
                near[b].append(a)
            }
        }
        transfers = names.indices.map { a in
            var candidates = Set([a] + near[a])
            for stop in (chosen[names[a]] ?? [:]).keys { if let b = index[stop] { candidates.insert(b) } }
            var result: [(to: Int, seconds: Int)] = []
            for b in candidates.sorted() {
                let distance = places[a].flatMap { pa in places[b].map { metres(pa, $0) } }
                let row = chosen[names[a]]?[names[b]]
                if row?.type == 3 || row?.type == 5 { continue }
                if row?.type == 2 {
                    result.append((b, row?.minimum ?? 0))
                } else if row?.type == 1 {
                    result.append((b, a == b ? 0 : distance.map(walk) ?? 0))
                } else if a == b {
                    result.append((b, changeTime))
                } else if let distance, distance <= transferDistance {
                    result.append((b, walk(distance) + changeTime))
                }
            }
            return result
        }
    }

    private func addConnections(_ y: Int, _ m: Int, _ d: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timetable.timeZone
        let date = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: 12))!
        let weekday = (calendar.component(.weekday, from: date) + 5) % 7
        let text = String(format: "%04d%02d%02d", y, m, d)
        let base = timetable.dayStart(y, m, d)
        for (id, trip) in timetable.trips where timetable.runs(trip.service, on: text, weekday: weekday) {
            let first = trip.stopTimes[0].departure
            var starts = [first]
            if let windows = timetable.frequencies[id] {
                starts = Array(Set(windows.flatMap { w in stride(from: w.start, to: w.end, by: w.headway).map { $0 } }))
            }
            for start in starts {
                let instance = instanceCount
                instanceCount += 1
                instanceTrip.append(id)
                for (position, (a, b)) in zip(trip.stopTimes, trip.stopTimes.dropFirst()).enumerated() {
                    connections.append(
                        Connection(
                            departure: base + start + a.departure - first, arrival: base + start + b.arrival - first,
                            from: index[a.stop]!, to: index[b.stop]!, instance: instance, boards: a.pickup != 1, alights: b.dropOff != 1,
                            position: position))
                }
            }
        }
    }

    /// The stops a stop_id stands for: itself, and a station's platforms.
    func stops(for stop: String) -> [Int] {
        var ids = [stop]
        if timetable.stops[stop]?.type == 1 { ids += timetable.stops.filter { $0.value.parent == stop }.map(\.key) }
        return ids.compactMap { index[$0] }
    }

    /// The earliest arrival at `targets` with at most k rides, for k = 0...maxRides (nil:
    /// none before `horizonEnd`). `origins`: stop -> instant the rider can board there;
    /// `walkOnly`: the arrival on foot alone, if any; `targets`: stop -> egress seconds;
    /// `leavingBefore`: the first ride boards at an origin before this instant (a range
    /// query's window end: the journey leaves in the window).
    func earliestArrivals(
        origins: [Int: Int], targets: [Int: Int], walkOnly: Int?, horizonEnd: Int, maxRides: Int, leavingBefore: Int = .max
    ) -> [Int?] {
        // Where the rider can be at the origin (before any ride) and after rides, apart: only
        // the first ride is bounded by `leavingBefore`.
        var atOrigin = [Int](repeating: .max, count: names.count)
        for (stop, t) in origins { atOrigin[stop] = min(atOrigin[stop], t) }
        var ready = [Int](repeating: .max, count: names.count)
        var best = walkOnly.map { min($0, horizonEnd) }
        var result: [Int?] = [walkOnly]
        var boarded = [Bool](repeating: false, count: instanceCount)
        for _ in 1...maxRides {
            var arrival = [Int](repeating: .max, count: names.count)
            for i in boarded.indices { boarded[i] = false }
            for c in connections where c.departure >= (origins.values.min() ?? 0) {
                let canBoard = ready[c.from] <= c.departure || (atOrigin[c.from] <= c.departure && c.departure < leavingBefore)
                if !boarded[c.instance] && c.boards && canBoard { boarded[c.instance] = true }
                if boarded[c.instance] && c.alights && c.arrival < arrival[c.to] { arrival[c.to] = c.arrival }
            }
            var next = ready
            for a in arrival.indices where arrival[a] != .max {
                for (b, seconds) in transfers[a] where arrival[a] + seconds < next[b] { next[b] = arrival[a] + seconds }
            }
            ready = next
            for (stop, egress) in targets where arrival[stop] != .max && arrival[stop] + egress <= horizonEnd {
                if best == nil || arrival[stop] + egress < best! { best = arrival[stop] + egress }
            }
            result.append(best)
        }
        return result
    }

    /// The instants a trip leaves one of `stops` (boarding allowed) in `[from, to)`, latest first.
    func boardingInstants(at stops: Set<Int>, from: Int, to: Int) -> [Int] {
        Set(connections.filter { $0.boards && stops.contains($0.from) && $0.departure >= from && $0.departure < to }.map(\.departure))
            .sorted(by: >)
    }

    /// τ(a, b) by the document, nil when the rider cannot transfer from a to b.
    func transferTime(_ a: String, _ b: String) -> Int? {
        guard let ia = index[a], let ib = index[b] else { return nil }
        return transfers[ia].first { $0.to == ib }?.seconds
    }

    /// A journey as the order of ties reads it: its trip ids and its stops (boarding,
    /// alighting, ride by ride).
    struct TieKey: Equatable, CustomStringConvertible {
        var trips: [String]
        var stops: [String]

        /// journey-semantics.md: trip ids ride by ride, then stops, as byte strings.
        func precedes(_ other: TieKey) -> Bool {
            func bytes(_ list: [String]) -> [[UInt8]] { list.map { Array($0.utf8) } }
            let (a, b) = (bytes(trips), bytes(other.trips))
            if a != b { return a.lexicographicallyPrecedes(b) { $0.lexicographicallyPrecedes($1) } }
            return bytes(stops).lexicographicallyPrecedes(bytes(other.stops)) { $0.lexicographicallyPrecedes($1) }
        }

        var description: String { "trips \(trips) stops \(stops)" }
    }

    /// Every journey leaving one of `origins` at exactly `departure` (boarding there then)
    /// and reaching one of `targets` by `arrival` with exactly `rides` rides, by brute force:
    /// depth first over the rides, pruned by the latest instants that still arrive in time
    /// (a reverse connection scan). Nil when there are more than `limit`.
    func journeys(origins: [Int], targets: [Int], departure: Int, arrival: Int, rides: Int, limit: Int) -> [TieKey]? {
        // latestAlight[r][s]: the latest arrival at s from which r more rides (at most)
        // reach a target by `arrival`; latestReady[r][s]: the latest boarding at s that does.
        let never = Int.min / 4
        let window = connections.indices.filter { connections[$0].departure >= departure && connections[$0].departure <= arrival }
        var latestAlight = [[Int]](repeating: [Int](repeating: never, count: names.count), count: rides + 1)
        var latestReady = latestAlight
        for t in targets { latestAlight[0][t] = arrival }
        for r in 1...max(1, rides) {
            latestReady[r] = latestReady[r - 1]
            var onBoard = Set<Int>()
            for i in window.reversed() {
                let c = connections[i]
                if onBoard.contains(c.instance) || (c.alights && c.arrival <= latestAlight[r - 1][c.to]) {
                    onBoard.insert(c.instance)
                    if c.boards { latestReady[r][c.from] = max(latestReady[r][c.from], c.departure) }
                }
            }
            latestAlight[r] = latestAlight[r - 1]
            for a in names.indices {
                for (b, seconds) in transfers[a] where latestReady[r][b] != never {
                    latestAlight[r][a] = max(latestAlight[r][a], latestReady[r][b] - seconds)
                }
            }
        }
        var leaving: [Int: [Int]] = [:]
        for i in window where connections[i].boards { leaving[connections[i].from, default: []].append(i) }
        var found: [TieKey] = []
        var overflow = false
        let targetSet = Set(targets)
        func ride(from stop: Int, ready: Int, exactly: Bool, left r: Int, so far: TieKey) {
            guard !overflow else { return }
            for i in leaving[stop] ?? [] {
                let c = connections[i]
                guard exactly ? c.departure == ready : c.departure >= ready,
                    c.departure <= latestReady[r][stop]
                else { continue }
                for j in instanceHops[c.instance] where connections[j].position >= c.position {
                    let off = connections[j]
                    guard off.alights, off.arrival <= latestAlight[r - 1][off.to] else { continue }
                    var key = far
                    key.trips.append(instanceTrip[c.instance])
                    key.stops += [names[stop], names[off.to]]
                    if r == 1 {
                        guard targetSet.contains(off.to), off.arrival == arrival else { continue }
                        found.append(key)
                        if found.count > limit { overflow = true }
                        continue
                    }
                    for (b, seconds) in transfers[off.to] where off.arrival + seconds <= latestReady[r - 1][b] {
                        ride(from: b, ready: off.arrival + seconds, exactly: false, left: r - 1, so: key)
                    }
                }
            }
        }
        for origin in Set(origins).sorted() {
            ride(from: origin, ready: departure, exactly: true, left: rides, so: TieKey(trips: [], stops: []))
        }
        return overflow ? nil : found
    }
}
