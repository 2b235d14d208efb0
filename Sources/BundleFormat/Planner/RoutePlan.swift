import TransitSQLite

/// How the journey planner groups the bundle's trips into RAPTOR routes: a route is a stop
/// sequence (with the same boarding and alighting at each stop) and one service, whose
/// trips never overtake one another.
///
/// The bundle's patterns already share their time offsets, so each would do as a route;
/// but most stop sequences have many patterns (cts-strasbourg: 2,054 patterns on 184
/// sequences), and a round scans every route. So the patterns of one sequence are merged:
/// their trips of one service sorted by start, and put in as few chains as keep every trip
/// at or after the one before it at every stop (first fit); each chain is a route. A trip
/// keeps its pattern's offsets: its time at a stop is its start + its pattern's offset
/// there.
///
/// The compiler works the plan out once and writes it (`planner_sequences`,
/// `planner_routes`, see `PlannerRoutesBlob`); the runtime works it out the same way for a
/// bundle without those tables. Patterns are added one at a time as they are decoded,
/// none kept whole: offsets go to flat arrays, each stop sequence is kept once, trips join
/// the group of their (sequence, service).
///
/// ```swift
/// var plan = RoutePlan()
/// plan.add(pid: 1, fid: 1, stops: stops, trips: trips.map(RoutePlan.Trip.init))
/// plan.forEachRoute { route in print(route.sequence, route.sv, route.trips.count) }
/// ```
package struct RoutePlan {
    /// A trip of a pattern: its tid, service, start (seconds of its day), whether it is a
    /// frequency template, and whether it is marked wheelchair accessible. Values beyond
    /// 32 bits cannot come from a checked bundle.
    package struct Trip: Sendable {
        package let tid: TripNumber
        package let sv: ServiceNumber
        package let start: Int32
        package let frequency: Bool
        package let accessible: Bool

        package init(_ record: PatternTripRecord) {
            tid = TripNumber(raw: Int32(clamping: record.tid))
            sv = ServiceNumber(raw: Int32(clamping: record.sv))
            start = Int32(clamping: record.startTime)
            frequency = record.frequency
            accessible = record.wheelchairAccessible == 1
        }

        package init(tid: TripNumber, sv: ServiceNumber, start: Int32, frequency: Bool, accessible: Bool) {
            self.tid = tid
            self.sv = sv
            self.start = start
            self.frequency = frequency
            self.accessible = accessible
        }
    }

    /// A stop sequence of one feed: the stops, and whether each can be boarded and alighted.
    package struct Sequence: Hashable, Sendable {
        package let fid: Int
        package let sids: [Int32]
        package let boards: [Bool]
        package let alights: [Bool]

        package init(fid: Int, sids: [Int32], boards: [Bool], alights: [Bool]) {
            self.fid = fid
            self.sids = sids
            self.boards = boards
            self.alights = alights
        }

        /// The arrays' bytes at once (element by element, hashing every pattern's sequence
        /// was a visible part of a first journey).
        package func hash(into hasher: inout Hasher) {
            hasher.combine(fid)
            sids.withUnsafeBytes { hasher.combine(bytes: $0) }
            boards.withUnsafeBytes { hasher.combine(bytes: $0) }
            alights.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// A trip and its pattern (an index in `patternPid`).
    package typealias Member = (trip: Trip, pattern: Int)

    /// One route: a sequence (index in `sequences`), a service, its regular trips in order
    /// at every stop, and its frequency templates (on the first route of a group only).
    package struct Route {
        package let sequence: Int
        package let sv: ServiceNumber
        package let trips: [Member]
        package let templates: [Member]

        package init(sequence: Int, sv: ServiceNumber, trips: [Member], templates: [Member]) {
            self.sequence = sequence
            self.sv = sv
            self.trips = trips
            self.templates = templates
        }
    }

    /// A stop sequence (index in `sequences`) and a service: the trips of a route.
    private struct GroupKey: Hashable {
        let sequence: Int
        let sv: ServiceNumber
    }

    /// By pattern (in the order added): its pid, and the first of its stops in
    /// `offsetDeparture` and `offsetArrival` (seconds from the trip's start, per stop), one
    /// more at the end: pattern p's stops are `patternFirst[p]..<patternFirst[p + 1]`.
    package private(set) var patternPid: [PatternNumber] = []
    package private(set) var patternFirst: [Int32] = [0]
    package private(set) var offsetDeparture: [Int32] = []
    package private(set) var offsetArrival: [Int32] = []
    /// The stop sequences, each once.
    package private(set) var sequences: [Sequence] = []
    private var sequenceIndex: [Sequence: Int] = [:]
    /// Each (sequence, service) numbered in the order first met, and its trips.
    private var groupIndex: [GroupKey: Int] = [:]
    private var order: [GroupKey] = []
    private var groups: [[Member]] = []

    package init() {}

    /// The `metadata` key under which the compiler writes how many stops the patterns of
    /// two stops or more hold (the length of `offsetDeparture` once every pattern is added).
    package static let patternStopsKey = "planner_pattern_stops"

    /// Makes room for `count` stops' offsets at once: growing arrays leave their earlier
    /// buffers behind, which an allocator arena of a thread of its own keeps.
    package mutating func reserveOffsets(_ count: Int) {
        offsetDeparture.reserveCapacity(count)
        offsetArrival.reserveCapacity(count)
    }

    /// A `patterns` row `init(patternsIn:maxSid:)` could not read: damaged, or naming a stop
    /// outside 1...maxSid.
    package struct DamagedPattern: Error {
        package let pid: Int
        package let namesMissingStop: Bool
    }

    /// The plan of `db`'s patterns, read back in pid order (patterns of fewer than 2 stops
    /// have no route): the reading the tests compare a bundle's planner tables with (the
    /// compiler plans from its model, the runtime reads the planner tables).
    package init(patternsIn db: SQLiteDatabase, maxSid: Int) throws {
        let rows = try db.prepare("SELECT pid, fid, stops, trips FROM patterns ORDER BY pid")
        while try rows.step() {
            let pid = rows.int(0)
            let stops: [PatternStopRecord]
            var trips: [Trip] = []
            do {
                stops = try PatternStopsBlob.decode(rows.blob(2))
                try PatternTripsBlob.forEach(in: rows.blob(3)) { trips.append(Trip($0)) }
            } catch is PackedReader.Damaged {
                throw DamagedPattern(pid: pid, namesMissingStop: false)
            }
            guard stops.count >= 2 else { continue }
            guard stops.allSatisfy({ $0.sid > 0 && $0.sid <= maxSid }) else { throw DamagedPattern(pid: pid, namesMissingStop: true) }
            add(pid: pid, fid: rows.int(1), stops: stops, trips: trips)
        }
    }

    /// Adds pattern `pid` of feed `fid`: its stops in order and its trips. Patterns are
    /// added by ascending pid.
    package mutating func add(pid: Int, fid: Int, stops: [PatternStopRecord], trips: [Trip]) {
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
        let p = addOffsets(pid: pid, stops: stops)
        // A pattern's trips mostly share a service: one lookup for each run of them.
        var last: (sv: ServiceNumber, group: Int)?
        for trip in trips {
            if last?.sv != trip.sv {
                let key = GroupKey(sequence: q, sv: trip.sv)
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
    }

    /// Adds pattern `pid`'s offsets and returns its index.
    private mutating func addOffsets(pid: Int, stops: [PatternStopRecord]) -> Int {
        for stop in stops {
            offsetDeparture.append(Int32(clamping: stop.departureOffset))
            offsetArrival.append(Int32(clamping: stop.arrivalOffset))
        }
        patternPid.append(PatternNumber(pid))
        patternFirst.append(Int32(offsetDeparture.count))
        return patternPid.count - 1
    }

    /// Adds pattern `pid`'s offsets straight from its packed stops (`patterns.stops`) and
    /// returns its index; nil, adding nothing, for a pattern of fewer than 2 stops. Throws
    /// `PackedReader.Damaged` for damaged bytes or a stop outside 1...`maxSid` (the plan is
    /// then of no use: the caller drops it).
    package mutating func addOffsets(pid: Int, packedStops bytes: [UInt8], maxSid: Int) throws -> Int? {
        let count = try PatternStopsBlob.appendOffsets(of: bytes, departures: &offsetDeparture, arrivals: &offsetArrival, maxSid: maxSid)
        guard count >= 2 else {
            offsetDeparture.removeLast(count)
            offsetArrival.removeLast(count)
            return nil
        }
        patternPid.append(PatternNumber(pid))
        patternFirst.append(Int32(offsetDeparture.count))
        return patternPid.count - 1
    }

    /// The routes, group by group in the order their (sequence, service) was first met,
    /// each group's chains in order.
    package func forEachRoute(_ body: (Route) throws -> Void) rethrows {
        for (g, key) in order.enumerated() {
            let n = sequences[key.sequence].sids.count
            var regular: [Member] = []
            var templates: [Member] = []
            for member in groups[g] {
                if member.trip.frequency { templates.append(member) } else { regular.append(member) }
            }
            // By start, then by arrival at the last stop: chains stay few.
            let lastArrival = regular.map { Int($0.trip.start) + Int(offsetArrival[Int(patternFirst[$0.pattern]) + n - 1]) }
            let sorted = regular.indices.sorted {
                (regular[$0].trip.start, lastArrival[$0], regular[$0].trip.tid)
                    < (regular[$1].trip.start, lastArrival[$1], regular[$1].trip.tid)
            }.map { regular[$0] }
            // First fit: each trip joins the first chain whose last trip it never overtakes.
            var chains: [[Member]] = []
            for t in sorted {
                if let c = chains.firstIndex(where: { neverOvertakes(t, $0.last!, stops: n) }) {
                    chains[c].append(t)
                } else {
                    chains.append([t])
                }
            }
            if chains.isEmpty { chains = [[]] }
            for (c, chain) in chains.enumerated() {
                try body(Route(sequence: key.sequence, sv: key.sv, trips: chain, templates: c == 0 ? templates : []))
            }
        }
    }

    /// True when `later` is at or after `earlier` at every stop (same offsets: by start).
    private func neverOvertakes(_ later: Member, _ earlier: Member, stops n: Int) -> Bool {
        if later.pattern == earlier.pattern { return later.trip.start >= earlier.trip.start }
        let a = Int(patternFirst[later.pattern])
        let b = Int(patternFirst[earlier.pattern])
        let shift = Int(later.trip.start) - Int(earlier.trip.start)
        return (0..<n).allSatisfy {
            shift + Int(offsetDeparture[a + $0]) >= Int(offsetDeparture[b + $0])
                && shift + Int(offsetArrival[a + $0]) >= Int(offsetArrival[b + $0])
        }
    }
}
