import BundleFormat

/// The timetable as RAPTOR's routes, in flat arrays: a route is a stop sequence (with the
/// same boarding and alighting at each stop) whose trips never overtake one another.
///
/// The bundle's patterns already share their time offsets, so each would do as a route;
/// but most stop sequences have many patterns (cts-strasbourg: 2,054 patterns on 184
/// sequences), and a round scans every route. So the patterns of one sequence are merged:
/// their trips of one service sorted by start, and put in as few chains as keep every trip
/// at or after the one before it at every stop (first fit); each chain is a route. A trip
/// keeps its pattern's offsets: its time at a stop is its start + its pattern's offset
/// there. A route holds one service's trips, so a search skips the routes that do not run
/// on its days and, on a route that runs, takes the first trip after a time without
/// stepping over the trips of other services (on 10 x Strasbourg that stepping was a
/// third of a query).
struct RouteTables: Sendable {
    struct Route: Sendable {
        // Stored as 32-bit integers: a round reads the headers of thousands of routes, and
        // at 32 bytes two share a cache line.
        private let fid32: Int32
        private let sv32: Int32
        private let firstStop32: Int32
        private let stopCount32: Int32
        private let firstTrip32: Int32
        private let tripCount32: Int32
        private let templates32: (Int32, Int32)

        var fid: Int { Int(fid32) }
        /// The service (sv) of all its trips and frequency templates.
        var sv: Int { Int(sv32) }
        /// The route's stops: `firstStop..<firstStop + stopCount` in the `stop*` arrays.
        var firstStop: Int { Int(firstStop32) }
        var stopCount: Int { Int(stopCount32) }
        /// Its regular trips, in order at every stop: `firstTrip..<firstTrip + tripCount`.
        var firstTrip: Int { Int(firstTrip32) }
        var tripCount: Int { Int(tripCount32) }
        /// Its frequency templates, indexes into `templates`.
        var templateRange: Range<Int> { Int(templates32.0)..<Int(templates32.1) }

        var trips: Range<Int> { firstTrip..<(firstTrip + tripCount) }

        init(fid: Int, sv: Int, firstStop: Int, stopCount: Int, firstTrip: Int, tripCount: Int, templateRange: Range<Int>) {
            fid32 = Int32(fid)
            sv32 = Int32(sv)
            firstStop32 = Int32(firstStop)
            stopCount32 = Int32(stopCount)
            firstTrip32 = Int32(firstTrip)
            tripCount32 = Int32(tripCount)
            templates32 = (Int32(templateRange.lowerBound), Int32(templateRange.upperBound))
        }
    }

    /// A frequencies.txt trip: its windows on any day it runs.
    struct Template: Sendable {
        let tid: Int
        let sv: Int
        let accessible: Bool
        /// The first of its pattern's offsets in `offsetDeparture`/`offsetArrival`.
        let offsets: Int
        let pattern: Int
        /// (start, end, headway, exact_times) in GTFS seconds, end excluded, by start.
        let windows: [(start: Int, end: Int, headway: Int, exact: Bool)]
    }

    var routes: [Route] = []
    var stopSid: [Int32] = []
    var stopBoards: [Bool] = []
    var stopAlights: [Bool] = []
    /// Per pattern: its pid; per pattern stop: seconds from the trip's start.
    var patternPid: [Int] = []
    var offsetDeparture: [Int32] = []
    var offsetArrival: [Int32] = []
    var tripStart: [Int32] = []
    var tripTid: [Int32] = []
    var tripAccessible: [Bool] = []
    /// The first of the trip's pattern offsets, and the pattern.
    var tripOffsets: [Int32] = []
    var tripPattern: [Int32] = []
    var templates: [Template] = []
    /// A stop's place in a route: the route and the stop's index in it.
    struct Place: Sendable {
        let route: Int32
        let idx: Int32
    }

    /// By sid: the routes through the stop and the stop's index in each, at
    /// `places[placeFirst[sid]..<placeFirst[sid + 1]]` (one array, so a round that marks
    /// thousands of stops reads each place from one cache line).
    var placeFirst: [Int32] = []
    var places: [Place] = []

    /// The places of stop `sid` in routes (indexes into `places`).
    @inline(__always)
    func places(of sid: Int) -> Range<Int> { Int(placeFirst[sid])..<Int(placeFirst[sid + 1]) }

    /// Whether some route serves stop `sid`.
    func serves(_ sid: Int) -> Bool { placeFirst[sid] < placeFirst[sid + 1] }

    /// Fills the places of each stop from the routes' stops.
    private mutating func indexPlaces(stopCount: Int) {
        var byStop = [[Place]](repeating: [], count: stopCount)
        for (r, route) in routes.enumerated() {
            for idx in 0..<route.stopCount { byStop[Int(stopSid[route.firstStop + idx])].append(Place(route: Int32(r), idx: Int32(idx))) }
        }
        placeFirst = [0]
        places = []
        for list in byStop {
            places += list
            placeFirst.append(Int32(places.count))
        }
    }

    /// Seconds after its service day's start that regular trip `trip` leaves stop `idx`.
    @inline(__always)
    func departure(_ trip: Int, _ idx: Int) -> Int { Int(tripStart[trip]) + Int(offsetDeparture[Int(tripOffsets[trip]) + idx]) }

    @inline(__always)
    func arrival(_ trip: Int, _ idx: Int) -> Int { Int(tripStart[trip]) + Int(offsetArrival[Int(tripOffsets[trip]) + idx]) }

    /// A trip of a pattern: its tid, service, start (seconds of its day), whether it is a
    /// frequency template, and whether it is marked wheelchair accessible. Values beyond
    /// 32 bits cannot come from a bundle that opened (`BundleCheck`).
    struct Trip {
        let tid: Int32
        let sv: Int32
        let start: Int32
        let frequency: Bool
        let accessible: Bool

        init(_ record: PatternTripRecord) {
            tid = Int32(clamping: record.tid)
            sv = Int32(clamping: record.sv)
            start = Int32(clamping: record.startTime)
            frequency = record.frequency
            accessible = record.wheelchairAccessible == 1
        }
    }

    /// A stop sequence: the stops, and whether each can be boarded and alighted.
    fileprivate struct Sequence: Hashable {
        let fid: Int
        let sids: [Int32]
        let boards: [Bool]
        let alights: [Bool]

        /// The arrays' bytes at once (element by element, hashing the sequences of
        /// 20,540 patterns was 7 % of a first journey on 10 x Strasbourg).
        func hash(into hasher: inout Hasher) {
            hasher.combine(fid)
            sids.withUnsafeBytes { hasher.combine(bytes: $0) }
            boards.withUnsafeBytes { hasher.combine(bytes: $0) }
            alights.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// A stop sequence (index in `Builder.sequences`) and a service: the trips of a route.
    fileprivate struct GroupKey: Hashable {
        let sequence: Int
        let sv: Int
    }

    /// Takes the bundle's patterns one at a time as they are decoded, keeping none whole:
    /// its offsets go to the flat offset arrays, its stop sequence is kept once, its trips
    /// join the group of their (stop sequence, service). All patterns decoded and held at
    /// once were most of the first build's peak (on 40 x Strasbourg, 82,000 patterns).
    struct Builder {
        fileprivate var tables = RouteTables()
        fileprivate var sequences: [Sequence] = []
        fileprivate var sequenceIndex: [Sequence: Int] = [:]
        /// Each (sequence, service) numbered in the order first met, and its trips.
        fileprivate var groupIndex: [GroupKey: Int] = [:]
        fileprivate var order: [GroupKey] = []
        fileprivate var groups: [[(trip: Trip, pattern: Int)]] = []
        /// By pattern, the first of its offsets in the offset arrays.
        fileprivate var patternOffsets: [Int] = []

        init() {}

        /// Adds pattern `pid` of feed `fid`: its stops in order and its trips.
        mutating func add(pid: Int, fid: Int, stops: [PatternStopRecord], trips: [Trip]) {
            let n = stops.count
            let sequence = Sequence(
                fid: fid, sids: stops.map { Int32(clamping: $0.sid) },
                boards: stops.indices.map { stops[$0].pickupType != 1 && $0 < n - 1 },
                alights: stops.indices.map { stops[$0].dropOffType != 1 && $0 > 0 })
            let q = sequenceIndex[sequence] ?? sequences.count
            if q == sequences.count {
                sequences.append(sequence)
                sequenceIndex[sequence] = q
            }
            let p = patternOffsets.count
            // A pattern's trips mostly share a service: one lookup for each run of them.
            var last: (sv: Int32, group: Int)?
            for trip in trips {
                if last?.sv != trip.sv {
                    let key = GroupKey(sequence: q, sv: Int(trip.sv))
                    if let g = groupIndex[key] {
                        last = (trip.sv, g)
                    } else {
                        groupIndex[key] = groups.count
                        last = (trip.sv, groups.count)
                        order.append(key)
                        groups.append([])
                    }
                }
                groups[last!.group].append((trip, p))
            }
            tables.patternPid.append(pid)
            patternOffsets.append(tables.offsetDeparture.count)
            for stop in stops {
                tables.offsetDeparture.append(Int32(clamping: stop.departureOffset))
                tables.offsetArrival.append(Int32(clamping: stop.arrivalOffset))
            }
        }
    }

    /// The routes of `builder`'s patterns; `windows`: frequencies by tid.
    init(_ builder: Builder, windows: [Int: [(start: Int, end: Int, headway: Int, exact: Bool)]], stopCount: Int) {
        self = builder.tables
        let (sequences, order, groups, patternOffsets) = (builder.sequences, builder.order, builder.groups, builder.patternOffsets)
        for (g, key) in order.enumerated() {
            let sequence = sequences[key.sequence]
            var regular: [(trip: Trip, pattern: Int)] = []
            var groupTemplates: [Template] = []
            for (trip, p) in groups[g] {
                if trip.frequency {
                    groupTemplates.append(
                        Template(
                            tid: Int(trip.tid), sv: Int(trip.sv), accessible: trip.accessible, offsets: patternOffsets[p], pattern: p,
                            windows: windows[Int(trip.tid)] ?? []))
                } else {
                    regular.append((trip, p))
                }
            }
            let n = sequence.sids.count
            // By start, then by arrival at the last stop: chains stay few.
            let lastArrival = regular.map { Int($0.trip.start) + Int(offsetArrival[patternOffsets[$0.pattern] + n - 1]) }
            let sorted = regular.indices.sorted {
                (regular[$0].trip.start, lastArrival[$0], regular[$0].trip.tid)
                    < (regular[$1].trip.start, lastArrival[$1], regular[$1].trip.tid)
            }.map { regular[$0] }
            /// True when `later` is at or after `earlier` at every stop (same offsets: by start).
            func neverOvertakes(_ later: (trip: Trip, pattern: Int), _ earlier: (trip: Trip, pattern: Int)) -> Bool {
                if later.pattern == earlier.pattern { return later.trip.start >= earlier.trip.start }
                let a = patternOffsets[later.pattern]
                let b = patternOffsets[earlier.pattern]
                let shift = Int(later.trip.start) - Int(earlier.trip.start)
                return (0..<n).allSatisfy {
                    shift + Int(offsetDeparture[a + $0]) >= Int(offsetDeparture[b + $0])
                        && shift + Int(offsetArrival[a + $0]) >= Int(offsetArrival[b + $0])
                }
            }
            // First fit: each trip joins the first chain whose last trip it never overtakes.
            var chains: [[(trip: Trip, pattern: Int)]] = []
            for t in sorted {
                if let c = chains.firstIndex(where: { neverOvertakes(t, $0.last!) }) {
                    chains[c].append(t)
                } else {
                    chains.append([t])
                }
            }
            if chains.isEmpty { chains = [[]] }
            for (c, chain) in chains.enumerated() {
                let firstStop = stopSid.count
                for idx in 0..<n {
                    stopSid.append(sequence.sids[idx])
                    stopBoards.append(sequence.boards[idx])
                    stopAlights.append(sequence.alights[idx])
                }
                let firstTrip = tripStart.count
                for t in chain {
                    tripStart.append(t.trip.start)
                    tripTid.append(t.trip.tid)
                    tripAccessible.append(t.trip.accessible)
                    tripOffsets.append(Int32(patternOffsets[t.pattern]))
                    tripPattern.append(Int32(t.pattern))
                }
                let firstTemplate = templates.count
                if c == 0 { templates += groupTemplates }
                routes.append(
                    Route(
                        fid: sequence.fid, sv: key.sv, firstStop: firstStop, stopCount: n, firstTrip: firstTrip, tripCount: chain.count,
                        templateRange: firstTemplate..<templates.count))
            }
        }
        indexPlaces(stopCount: stopCount)
    }

    init() {}

    /// The last start a frequencies window makes.
    static func lastStart(of w: (start: Int, end: Int, headway: Int, exact: Bool)) -> Int {
        w.start + (w.end - 1 - w.start) / w.headway * w.headway
    }

    /// The same routes run backwards in time, for arrive-by queries: each route's stops in
    /// reverse order with instants negated (a departure at t becomes an arrival at -t), its
    /// trips in reverse order (still never overtaking), boarding and alighting swapped.
    func mirrored() -> RouteTables {
        var m = RouteTables()
        m.patternPid = patternPid
        // Offsets per pattern: reversed and negated, at the same positions.
        m.offsetDeparture = offsetDeparture
        m.offsetArrival = offsetArrival
        var seen = Set<Int>()
        for route in routes {
            for trip in route.trips where seen.insert(Int(tripOffsets[trip])).inserted {
                mirrorOffsets(from: Int(tripOffsets[trip]), count: route.stopCount, into: &m)
            }
            for t in route.templateRange where seen.insert(templates[t].offsets).inserted {
                mirrorOffsets(from: templates[t].offsets, count: route.stopCount, into: &m)
            }
        }
        for route in routes {
            for idx in 0..<route.stopCount {
                let g = route.firstStop + route.stopCount - 1 - idx
                m.stopSid.append(stopSid[g])
                m.stopBoards.append(stopAlights[g])
                m.stopAlights.append(stopBoards[g])
            }
            m.routes.append(route)
        }
        m.tripStart = tripStart.map { -$0 }
        m.tripTid = tripTid
        m.tripAccessible = tripAccessible
        m.tripOffsets = tripOffsets
        m.tripPattern = tripPattern
        for route in routes {
            m.tripStart[route.trips].reverse()
            m.tripTid[route.trips].reverse()
            m.tripAccessible[route.trips].reverse()
            m.tripOffsets[route.trips].reverse()
            m.tripPattern[route.trips].reverse()
        }
        m.templates = templates.map { t in
            Template(
                tid: t.tid, sv: t.sv, accessible: t.accessible, offsets: t.offsets, pattern: t.pattern,
                windows: t.windows.map { w in (-Self.lastStart(of: w), -w.start + 1, w.headway, w.exact) }.sorted { $0.start < $1.start })
        }
        m.indexPlaces(stopCount: placeFirst.count - 1)
        return m
    }

    private func mirrorOffsets(from base: Int, count n: Int, into m: inout RouteTables) {
        for j in 0..<n {
            m.offsetDeparture[base + j] = -offsetArrival[base + n - 1 - j]
            m.offsetArrival[base + j] = -offsetDeparture[base + n - 1 - j]
        }
    }

    /// A regular trip's index in the mirror of its route (and back).
    func mirroredTrip(_ trip: Int, route: Route) -> Int { 2 * route.firstTrip + route.tripCount - 1 - trip }
}
