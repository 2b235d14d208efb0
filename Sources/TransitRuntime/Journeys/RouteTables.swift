import BundleFormat

/// The timetable as RAPTOR's routes, in flat arrays: a route is a stop sequence (with the
/// same boarding and alighting at each stop) and a service, whose trips never overtake one
/// another (how trips are grouped into routes: `RoutePlan`). A trip keeps its pattern's
/// offsets: its time at a stop is its start + its pattern's offset there. A route holds
/// one service's trips, so a search skips the routes that do not run on its days and, on a
/// route that runs, takes the first trip after a time without stepping over the trips of
/// other services.
///
/// Filled from the bundle's planned routes (`RouteTables+Bundle.swift`), or from a
/// `RoutePlan` worked out from the patterns when the bundle has none.
struct RouteTables: Sendable {
    struct Route: Sendable {
        // Stored as 32-bit integers: a round reads the headers of thousands of routes, and
        // at 32 bytes two share a cache line.
        private let fid32: Int32
        private let sv32: Int32
        private let firstStop32: Int32
        fileprivate let stopCount32: Int32
        private let firstTrip32: Int32
        private let tripCount32: Int32
        private let templates32: (Int32, Int32)

        var fid: FeedNumber { FeedNumber(raw: fid32) }
        /// Its feed's index in a search's days by feed (fid - 1).
        var feedIndex: Int { Int(fid32) - 1 }
        /// The service (sv) of all its trips and frequency templates.
        var sv: ServiceNumber { ServiceNumber(raw: sv32) }
        /// Where the route's first stop is in the `stop*` arrays: its stop `idx` is at
        /// `stop(idx, of:)` (in the mirror its last stop, the arrays read backwards).
        var firstStop: Int { Int(firstStop32) }
        var stopCount: Int { Int(stopCount32) }
        /// Its regular trips, in order at every stop: `firstTrip..<firstTrip + tripCount`.
        var firstTrip: Int { Int(firstTrip32) }
        var tripCount: Int { Int(tripCount32) }
        /// Its frequency templates, indexes into `templates`.
        var templateRange: Range<Int> { Int(templates32.0)..<Int(templates32.1) }

        var trips: Range<Int> { firstTrip..<(firstTrip + tripCount) }

        /// The mirror of this route's header, `step` the tables' (`RouteTables.step`): its
        /// stops counted from the other end.
        func mirrored(step: Int) -> Route {
            Route(
                fid: fid, sv: sv, firstStop: firstStop + step * (stopCount - 1), stopCount: stopCount, firstTrip: firstTrip,
                tripCount: tripCount, templateRange: templateRange)
        }

        init(fid: FeedNumber, sv: ServiceNumber, firstStop: Int, stopCount: Int, firstTrip: Int, tripCount: Int, templateRange: Range<Int>)
        {
            fid32 = fid.raw
            sv32 = sv.raw
            firstStop32 = Int32(firstStop)
            stopCount32 = Int32(stopCount)
            firstTrip32 = Int32(firstTrip)
            tripCount32 = Int32(tripCount)
            templates32 = (Int32(templateRange.lowerBound), Int32(templateRange.upperBound))
        }
    }

    /// A frequencies.txt trip: its windows on any day it runs.
    struct Template: Sendable {
        let tid: TripNumber
        let sv: ServiceNumber
        let accessible: Bool
        /// Where its offsets begin (`departureOffset(_:_:)`).
        let offsets: Int
        let pattern: Int
        /// (start, end, headway, exact_times) in GTFS seconds, end excluded, by start.
        let windows: [(start: Int, end: Int, headway: Int, exact: Bool)]
    }

    var routes: [Route] = []
    /// By route stop (`stop(_:of:)`): its sid, whether riders board and alight there. The
    /// mirror holds the same arrays, boarding and alighting swapped, read backwards.
    private(set) var stopSid: [Int32] = []
    private(set) var stopBoards: [Bool] = []
    private(set) var stopAlights: [Bool] = []
    /// Per pattern: its pid, and the first of its stops in the offset arrays (one more at
    /// the end: pattern p's stops are `patternFirst[p]..<patternFirst[p + 1]`); per pattern
    /// stop: seconds from the trip's start.
    var patternPid: [PatternNumber] = []
    var patternFirst: [Int32] = [0]
    /// Read through `departureOffset(_:_:)` and `arrivalOffset(_:_:)`: the mirror holds the
    /// same arrays (arrivals as its departures and departures as its arrivals) and reads
    /// them backwards with their values negated, so the two directions share their largest
    /// arrays.
    private(set) var offsetDeparture: [Int32] = []
    private(set) var offsetArrival: [Int32] = []
    /// 1 forwards; -1 in the mirror, which reads the stop, offset and place arrays it
    /// shares with the forward tables backwards (a route's `firstStop` and a trip's
    /// `offsets` are then their last).
    private(set) var step = 1
    var tripStart: [Int32] = []
    var tripTid: [TripNumber] = []
    var tripAccessible: [Bool] = []
    /// Where the trip's offsets begin (`departureOffset(_:_:)`; its pattern: `pattern(ofTrip:)`).
    var tripOffsets: [Int32] = []
    var templates: [Template] = []
    /// A stop's place in a route: the route and the stop's index in it.
    struct Place: Sendable {
        let route: Int32
        let idx: Int32
    }

    /// By sid: the routes through the stop and the stop's index in each, at
    /// `places[placeFirst[sid]..<placeFirst[sid + 1]]` (one array, so a round that marks
    /// thousands of stops reads each place from one cache line).
    private(set) var placeFirst: [Int32] = []
    private(set) var places: [Place] = []

    /// The places of stop `sid` in routes (indexes into `places`, read with `place(_:)`).
    @inline(__always)
    func places(of sid: Int) -> Range<Int> { Int(placeFirst[sid])..<Int(placeFirst[sid + 1]) }

    /// Place `i`: a route and the stop's index in it.
    @inline(__always)
    func place(_ i: Int) -> (route: Int, idx: Int) {
        let p = places[i]
        let r = Int(p.route)
        return (r, step == 1 ? Int(p.idx) : routes[r].stopCount - 1 - Int(p.idx))
    }

    /// Where the `idx`th stop of `route` is in the `stop*` arrays.
    @inline(__always)
    func stop(_ idx: Int, of route: Route) -> Int { route.firstStop &+ step &* idx }

    /// Whether some route serves stop `sid`.
    func serves(_ sid: Int) -> Bool { placeFirst[sid] < placeFirst[sid + 1] }

    /// Fills the places of each stop from the routes' stops: counted by stop, then placed,
    /// each stop's by route and index.
    private mutating func indexPlaces(stopCount: Int) {
        var first = [Int32](repeating: 0, count: stopCount + 1)
        for sid in stopSid { first[Int(sid) + 1] += 1 }
        for s in 0..<stopCount { first[s + 1] += first[s] }
        var next = first
        var placed = [Place](repeating: Place(route: 0, idx: 0), count: stopSid.count)
        for (r, route) in routes.enumerated() {
            for idx in 0..<route.stopCount {
                let sid = Int(stopSid[route.firstStop + idx])
                placed[Int(next[sid])] = Place(route: Int32(r), idx: Int32(idx))
                next[sid] += 1
            }
        }
        placeFirst = first
        places = placed
    }

    /// The pattern (index in `patternPid`) of regular trip `trip`: the one whose offsets
    /// hold where the trip's begin (found by halving `patternFirst`, which only grows; read
    /// when a journey is told, not in a search, so not kept per trip).
    func pattern(ofTrip trip: Int) -> Int {
        let first = tripOffsets[trip]
        var (low, high) = (0, patternPid.count - 1)
        while low < high {
            let mid = (low + high + 1) / 2
            if patternFirst[mid] <= first { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The number of stops of pattern `p`.
    func stopCount(ofPattern p: Int) -> Int { Int(patternFirst[p + 1] - patternFirst[p]) }

    /// Seconds after a trip's start that it leaves its `idx`th stop, for a trip whose
    /// offsets begin at `offsets` (`tripOffsets`, `Template.offsets`).
    @inline(__always)
    func departureOffset(_ offsets: Int, _ idx: Int) -> Int { Int(offsetDeparture[offsets &+ step &* idx]) &* step }

    /// Seconds after a trip's start that it reaches its `idx`th stop (`departureOffset`).
    @inline(__always)
    func arrivalOffset(_ offsets: Int, _ idx: Int) -> Int { Int(offsetArrival[offsets &+ step &* idx]) &* step }

    /// Seconds after its service day's start that regular trip `trip` leaves stop `idx`.
    @inline(__always)
    func departure(_ trip: Int, _ idx: Int) -> Int { Int(tripStart[trip]) + departureOffset(Int(tripOffsets[trip]), idx) }

    @inline(__always)
    func arrival(_ trip: Int, _ idx: Int) -> Int { Int(tripStart[trip]) + arrivalOffset(Int(tripOffsets[trip]), idx) }

    /// The routes of `plan`'s patterns; `windows`: frequencies by tid. The compiler plans
    /// them so (`RoutePlan`); the tests compare what a bundle stores with these.
    init(_ plan: RoutePlan, windows: [Int: [(start: Int, end: Int, headway: Int, exact: Bool)]], stopCount: Int) {
        self.init(patternsOf: plan)
        plan.forEachRoute { route in
            append(route, sequence: plan.sequences[route.sequence], windows: windows)
        }
        finish(stopCount: stopCount)
    }

    /// Empty routes with `plan`'s patterns and offsets.
    init(patternsOf plan: RoutePlan) {
        patternPid = plan.patternPid
        patternFirst = plan.patternFirst
        offsetDeparture = plan.offsetDeparture
        offsetArrival = plan.offsetArrival
    }

    /// Appends one route of `plan`'s: its stops, trips and frequency templates (with their
    /// windows from `windows`, by tid).
    mutating func append(
        _ route: RoutePlan.Route, sequence: RoutePlan.Sequence, windows: [Int: [(start: Int, end: Int, headway: Int, exact: Bool)]]
    ) {
        let firstTrip = tripStart.count
        for t in route.trips {
            tripStart.append(t.trip.start)
            tripTid.append(t.trip.tid)
            tripAccessible.append(t.trip.accessible)
            tripOffsets.append(patternFirst[t.pattern])
        }
        append(sequence: sequence, sv: route.sv, trips: firstTrip..<tripStart.count, templates: route.templates, windows: windows)
    }

    /// Appends a route of `sequence` and service `sv` whose regular trips are already in
    /// the trip arrays at `trips`, with its frequency templates.
    mutating func append(
        sequence: RoutePlan.Sequence, sv: ServiceNumber, trips: Range<Int>, templates members: [RoutePlan.Member],
        windows: [Int: [(start: Int, end: Int, headway: Int, exact: Bool)]]
    ) {
        let firstStop = stopSid.count
        stopSid += sequence.sids
        stopBoards += sequence.boards
        stopAlights += sequence.alights
        let firstTemplate = templates.count
        for t in members {
            templates.append(
                Template(
                    tid: t.trip.tid, sv: sv, accessible: t.trip.accessible, offsets: Int(patternFirst[t.pattern]),
                    pattern: t.pattern, windows: windows[t.trip.tid.int] ?? []))
        }
        routes.append(
            Route(
                fid: FeedNumber(sequence.fid), sv: sv, firstStop: firstStop, stopCount: sequence.sids.count, firstTrip: trips.lowerBound,
                tripCount: trips.count, templateRange: firstTemplate..<templates.count))
    }

    /// Fills the places of each stop from the routes' stops (after the last `append`).
    mutating func finish(stopCount: Int) { indexPlaces(stopCount: stopCount) }

    init() {}

    /// The last start a frequencies window makes.
    static func lastStart(of w: (start: Int, end: Int, headway: Int, exact: Bool)) -> Int {
        w.start + (w.end - 1 - w.start) / w.headway * w.headway
    }

    /// The same routes run backwards in time, for arrive-by queries: each route's stops in
    /// reverse order with instants negated (a departure at t becomes an arrival at -t), its
    /// trips in reverse order (still never overtaking), boarding and alighting swapped. The
    /// stops, places and offsets are not copied: the mirror reads the same arrays backwards
    /// (`step`); its trips are its own.
    func mirrored() -> RouteTables {
        var m = RouteTables()
        m.step = -step
        m.patternPid = patternPid
        m.patternFirst = patternFirst
        m.offsetDeparture = offsetArrival
        m.offsetArrival = offsetDeparture
        m.stopSid = stopSid
        m.stopBoards = stopAlights
        m.stopAlights = stopBoards
        m.placeFirst = placeFirst
        m.places = places
        m.routes = routes.map { $0.mirrored(step: step) }
        // Each route's trips in reverse order, their starts negated and their offsets from
        // their pattern's other end (a route has its patterns' length). Written through
        // pointers, each value once (reversing and adjusting the copied arrays route by
        // route was 190 million instructions on 40 x Strasbourg, all of a depart-at
        // query's first search for ties).
        func reversedByRoute<T>(_ values: [T], _ transform: (T, Route) -> T) -> [T] {
            var result = values
            result.withUnsafeMutableBufferPointer { out in
                values.withUnsafeBufferPointer { values in
                    for route in routes {
                        let (first, last) = (route.firstTrip, route.firstTrip + route.tripCount - 1)
                        for trip in route.trips { out[first + last - trip] = transform(values[trip], route) }
                    }
                }
            }
            return result
        }
        let step32 = Int32(step)
        m.tripStart = reversedByRoute(tripStart) { start, _ in -start }
        m.tripTid = reversedByRoute(tripTid) { tid, _ in tid }
        m.tripAccessible = reversedByRoute(tripAccessible) { accessible, _ in accessible }
        m.tripOffsets = reversedByRoute(tripOffsets) { offsets, route in offsets + step32 * (route.stopCount32 - 1) }
        m.templates = templates.map { t in
            Template(
                tid: t.tid, sv: t.sv, accessible: t.accessible, offsets: t.offsets + step * (stopCount(ofPattern: t.pattern) - 1),
                pattern: t.pattern,
                windows: t.windows.map { w in (-Self.lastStart(of: w), -w.start + 1, w.headway, w.exact) }.sorted { $0.start < $1.start })
        }
        return m
    }

    /// A regular trip's index in the mirror of its route (and back).
    func mirroredTrip(_ trip: Int, route: Route) -> Int { 2 * route.firstTrip + route.tripCount - 1 - trip }
}
