import BundleFormat
import Dispatch
import TransitSQLite

extension RouteTables {
    /// The most route stops and trips a bundle's planned routes may make: 50 million each
    /// (200 MB of stop ids alone), far above a country's timetable (a few million), so that
    /// a crafted bundle cannot make the first journey allocate without bound.
    static let maxPlannedEntries = 50_000_000

    /// Runs `work` on a connection of its own when one is free without waiting
    /// (`ConnectionPool.withSpare`); nil when none is.
    typealias SpareConnection = @Sendable (_ work: (SQLiteDatabase) throws -> RoutePlan) throws -> RoutePlan?

    /// The routes the compiler planned, read from `planner_sequences` and `planner_routes`,
    /// with the patterns' offsets: no trip is grouped or sorted here. Every value read is
    /// checked before it indexes anything (sids within 1...`maxSid`, feeds within
    /// 1...`feeds`, services within `BundleCheck.maxServices`, each trip's pattern present
    /// with as many stops as its route); anything else is `TransitError.corruptBundle`.
    /// `spare`, when it lends another connection, reads the patterns' offsets on a second
    /// thread while this one reads the routes (each a third to a half of the work).
    init(
        plannedIn db: SQLiteDatabase, maxSid: Int, feeds: Int, windows: [Int: [(start: Int, end: Int, headway: Int, exact: Bool)]],
        spare: SpareConnection? = nil
    ) throws {
        var offsets: RoutePlan?
        let routes: PlannedRoutes
        if let spare {
            let offsetsRead = Locked<Result<RoutePlan?, Error>>(.success(nil))
            let routesRead = Locked<Result<PlannedRoutes, Error>?>(nil)
            // This connection goes to the routes' thread while this one waits for both.
            let held = Locked(db)
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                if part == 0 {
                    let read = held.withLock { db in Result { try PlannedRoutes(in: db, maxSid: maxSid, feeds: feeds) } }
                    routesRead.withLock { $0 = read }
                } else {
                    let read = Result { try spare { try Self.patternOffsets(in: $0, maxSid: maxSid) } }
                    offsetsRead.withLock { $0 = read }
                }
            }
            routes = try routesRead.withLock { $0 }!.get()
            offsets = try offsetsRead.withLock { $0 }.get()
        } else {
            routes = try PlannedRoutes(in: db, maxSid: maxSid, feeds: feeds)
        }
        // Without a spare connection, after the routes on this one.
        let plan = try offsets ?? Self.patternOffsets(in: db, maxSid: maxSid)
        try self.init(plan, planned: routes, maxSid: maxSid, windows: windows)
    }

    /// The patterns' offsets, in pid order.
    private static func patternOffsets(in db: SQLiteDatabase, maxSid: Int) throws -> RoutePlan {
        var plan = RoutePlan()
        // Room for all at once when the compiler said how many (a bound keeps a crafted
        // count from reserving more than a plan may hold).
        let count = try db.prepare("SELECT value FROM metadata WHERE key = ?1")
        count.bind([RoutePlan.patternStopsKey])
        if try count.step(), let stops = Int(count.string(0)), stops > 0 {
            plan.reserveOffsets(min(stops, maxPlannedEntries))
        }
        let patterns = try db.prepare("SELECT pid, stops FROM patterns ORDER BY pid")
        while try patterns.step() {
            let pid = patterns.int(0)
            _ = try PatternCache.damagedAsError("pattern \(pid)") {
                try plan.addOffsets(pid: pid, packedStops: patterns.blob(1), maxSid: maxSid)
            }
        }
        return plan
    }

    /// `planned`'s routes on `plan`'s patterns, each trip's pattern checked.
    private init(
        _ plan: RoutePlan, planned: PlannedRoutes, maxSid: Int, windows: [Int: [(start: Int, end: Int, headway: Int, exact: Bool)]]
    ) throws {
        self.init(patternsOf: plan)
        let patternIndex = PatternIndex(pids: patternPid)
        func wrongPattern(_ tid: TripNumber, _ pid: PatternNumber) -> TransitError {
            .corruptBundle(reason: "the planner's routes: trip \(tid) names pattern \(pid), missing or of another length")
        }
        tripStart = planned.tripStart
        tripTid = planned.tripTid
        tripAccessible = planned.tripAccessible
        tripOffsets = [Int32](repeating: 0, count: planned.tripPid.count)
        var templates: [RoutePlan.Member] = []
        for route in planned.routes {
            let sequence = planned.sequences[route.sequence]
            let stopCount = sequence.sids.count
            var last = (pid: PatternNumber(raw: -1), offsets: Int32(0))
            for trip in route.trips {
                // Trips of one pattern mostly follow one another.
                let pid = planned.tripPid[trip]
                if pid != last.pid {
                    guard let p = patternIndex[pid.int], self.stopCount(ofPattern: p) == stopCount else {
                        throw wrongPattern(planned.tripTid[trip], pid)
                    }
                    last = (pid, patternFirst[p])
                }
                tripOffsets[trip] = last.offsets
            }
            templates.removeAll(keepingCapacity: true)
            for entry in route.templates {
                guard let p = patternIndex[entry.pid], self.stopCount(ofPattern: p) == stopCount else {
                    throw wrongPattern(TripNumber(entry.tid), PatternNumber(entry.pid))
                }
                templates.append(
                    (RoutePlan.Trip(tid: TripNumber(entry.tid), sv: route.sv, start: 0, frequency: true, accessible: entry.accessible), p)
                )
            }
            append(sequence: sequence, sv: route.sv, trips: route.trips, templates: templates, windows: windows)
        }
        finish(stopCount: maxSid + 1)
    }
}

/// The rows of `planner_sequences` and `planner_routes` decoded, each value checked, before
/// the patterns they name are known: the trips as the planner's columns, their pids aside.
private struct PlannedRoutes {
    var sequences: [RoutePlan.Sequence] = []
    var routes: [(sequence: Int, sv: ServiceNumber, trips: Range<Int>, templates: [PlannerRoutesBlob.Entry])] = []
    var tripStart: [Int32] = []
    var tripTid: [TripNumber] = []
    var tripAccessible: [Bool] = []
    var tripPid: [PatternNumber] = []

    init(in db: SQLiteDatabase, maxSid: Int, feeds: Int) throws {
        func damaged(_ what: String) -> TransitError { .corruptBundle(reason: "the planner's routes: \(what)") }
        let sequenceRows = try db.prepare("SELECT qid, fid, stops FROM planner_sequences ORDER BY qid")
        while try sequenceRows.step() {
            let (qid, fid) = (sequenceRows.int(0), sequenceRows.int(1))
            guard qid == sequences.count + 1 else { throw damaged("sequence \(qid) out of order (expected \(sequences.count + 1))") }
            guard fid >= 1, fid <= feeds else { throw damaged("sequence \(qid) names feed \(fid)") }
            let sequence = try PatternCache.damagedAsError("planner sequence \(qid)") {
                try PlannerRoutesBlob.decodeStops(sequenceRows.blob(2), fid: fid, maxSid: maxSid)
            }
            guard sequence.sids.count >= 2 else { throw damaged("sequence \(qid) has fewer than 2 stops") }
            sequences.append(sequence)
        }
        var templates: [PlannerRoutesBlob.Entry] = []
        var trips = PlannerRoutesBlob.TripColumns()
        var routeStops = 0
        // Each trip is planned once, as a trip or a frequency template: no more than the
        // bundle's trips (its trip blocks' tids), checked before a route's trips are decoded.
        let lastBlock = try db.scalarInt("SELECT MAX(first_tid) FROM trip_blocks") ?? 0
        let maxTrips = min(RouteTables.maxPlannedEntries, max(0, min(lastBlock, RouteTables.maxPlannedEntries)) + TripBlock.capacity)
        var templateCount = 0
        let routeRows = try db.prepare("SELECT qid, sv, trips FROM planner_routes ORDER BY prid")
        while try routeRows.step() {
            let (qid, sv) = (routeRows.int(0), routeRows.int(1))
            guard qid >= 1, qid <= sequences.count else { throw damaged("a route names sequence \(qid)") }
            guard sv >= 0, sv <= BundleCheck.maxServices else { throw damaged("a route names service \(sv)") }
            let first = trips.tids.count
            let blob = routeRows.blob(2)
            let count = try PatternCache.damagedAsError("a planner route of sequence \(qid)") { try PlannerRoutesBlob.tripCount(blob) }
            guard first + count + templateCount <= maxTrips else {
                throw damaged("more trips than the bundle's \(maxTrips) (a route of sequence \(qid) has \(count))")
            }
            // A route's trips are appended to the columns as they are decoded.
            try PatternCache.damagedAsError("a planner route of sequence \(qid)") {
                try PlannerRoutesBlob.decode(blob, appendingTo: &trips, templates: &templates)
            }
            templateCount += templates.count
            routeStops += sequences[qid - 1].sids.count
            guard routeStops <= RouteTables.maxPlannedEntries, trips.tids.count + templateCount <= maxTrips else {
                throw damaged("more than \(RouteTables.maxPlannedEntries) route stops or more trips than the bundle's \(maxTrips)")
            }
            routes.append((qid - 1, ServiceNumber(sv), first..<trips.tids.count, templates))
        }
        (tripStart, tripTid, tripAccessible, tripPid) = (trips.starts, trips.tids, trips.accessible, trips.pids)
    }
}

/// Pattern indexes by pid: an array when pids are dense (a compiled bundle's are), else a
/// binary search of the pids, which ascend (pids are checked to stay within
/// `BundleCheck.maxIDs`, but a crafted bundle's sparse pids must not size an array).
private struct PatternIndex {
    private let pids: [Int]
    private let dense: [Int32]

    init(pids: [PatternNumber]) {
        let pids = pids.map(\.int)
        self.pids = pids
        let maxPid = pids.last ?? 0
        if maxPid >= 0, maxPid <= 2 * pids.count + 1024 {
            var dense = [Int32](repeating: -1, count: maxPid + 1)
            for (p, pid) in pids.enumerated() where pid >= 0 { dense[pid] = Int32(p) }
            self.dense = dense
        } else {
            dense = []
        }
    }

    subscript(pid: Int) -> Int? {
        if !dense.isEmpty {
            guard pid >= 0, pid < dense.count, dense[pid] >= 0 else { return nil }
            return Int(dense[pid])
        }
        var (low, high) = (0, pids.count)
        while low < high {
            let mid = (low + high) / 2
            if pids[mid] < pid { low = mid + 1 } else { high = mid }
        }
        return low < pids.count && pids[low] == pid ? low : nil
    }
}
