import BundleFormat
import TransitSQLite

extension RouteTables {
    /// The most route stops and trips a bundle's planned routes may make: 50 million each
    /// (200 MB of stop ids alone), far above a country's timetable (40 x Strasbourg: 3.3
    /// million route stops, 945,000 trips), so that a crafted bundle cannot make the first
    /// journey allocate without bound.
    static let maxPlannedEntries = 50_000_000

    /// Whether `db` holds the planner's routes (`planner_sequences`, `planner_routes`).
    static func arePlanned(in db: SQLiteDatabase) throws -> Bool {
        try db.hasTable("planner_sequences") && db.hasTable("planner_routes")
    }

    /// The routes the compiler planned, read from `planner_sequences` and `planner_routes`,
    /// with the patterns' offsets: no trip is grouped or sorted here. Every value read is
    /// checked before it indexes anything (sids within 1...`maxSid`, feeds within
    /// 1...`feeds`, services within `BundleCheck.maxServices`, each trip's pattern present
    /// with as many stops as its route); anything else is `TransitError.corruptBundle`.
    init(
        plannedIn db: SQLiteDatabase, maxSid: Int, feeds: Int, windows: [Int: [(start: Int, end: Int, headway: Int, exact: Bool)]]
    ) throws {
        func damaged(_ what: String) -> TransitError { .corruptBundle(reason: "the planner's routes: \(what)") }
        // The patterns' offsets, in pid order.
        var plan = RoutePlan()
        let patterns = try db.prepare("SELECT pid, stops FROM patterns ORDER BY pid")
        while try patterns.step() {
            let pid = patterns.int(0)
            _ = try PatternCache.damagedAsError("pattern \(pid)") {
                try plan.addOffsets(pid: pid, packedStops: patterns.blob(1), maxSid: maxSid)
            }
        }
        self.init(patternsOf: plan)
        let patternIndex = PatternIndex(pids: patternPid)

        var sequences: [RoutePlan.Sequence] = []
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

        var templates: [RoutePlan.Member] = []
        var (entries, templateEntries) = ([PlannerRoutesBlob.Entry](), [PlannerRoutesBlob.Entry]())
        var last = (pid: -1, p: 0)
        let routeRows = try db.prepare("SELECT qid, sv, trips FROM planner_routes ORDER BY prid")
        while try routeRows.step() {
            let (qid, sv) = (routeRows.int(0), routeRows.int(1))
            guard qid >= 1, qid <= sequences.count else { throw damaged("a route names sequence \(qid)") }
            guard sv >= 0, sv <= BundleCheck.maxServices else { throw damaged("a route names service \(sv)") }
            let sequence = sequences[qid - 1]
            func wrongPattern(_ entry: PlannerRoutesBlob.Entry) -> TransitError {
                damaged("trip \(entry.tid) names pattern \(entry.pid), missing or of another length")
            }
            // The trips straight into the flat arrays; the few templates through `append`.
            try PatternCache.damagedAsError("a planner route of sequence \(qid)") {
                try PlannerRoutesBlob.decode(routeRows.blob(2), trips: &entries, templates: &templateEntries)
            }
            let firstTrip = tripStart.count
            let stopCount = sequence.sids.count
            for entry in entries {
                // Trips of one pattern mostly follow one another.
                if entry.pid != last.pid {
                    guard let p = patternIndex[entry.pid], self.stopCount(ofPattern: p) == stopCount else { throw wrongPattern(entry) }
                    last = (entry.pid, p)
                }
                tripStart.append(Int32(entry.start))
                tripTid.append(Int32(entry.tid))
                tripAccessible.append(entry.accessible)
                tripOffsets.append(patternFirst[last.p])
            }
            last = (-1, 0)
            templates.removeAll(keepingCapacity: true)
            for entry in templateEntries {
                guard let p = patternIndex[entry.pid], self.stopCount(ofPattern: p) == stopCount else { throw wrongPattern(entry) }
                templates.append(
                    (RoutePlan.Trip(tid: Int32(entry.tid), sv: Int32(sv), start: 0, frequency: true, accessible: entry.accessible), p))
            }
            guard stopSid.count + sequence.sids.count <= Self.maxPlannedEntries, tripStart.count + templates.count <= Self.maxPlannedEntries
            else { throw damaged("more than \(Self.maxPlannedEntries) route stops or trips") }
            append(sequence: sequence, sv: sv, trips: firstTrip..<tripStart.count, templates: templates, windows: windows)
        }
        finish(stopCount: maxSid + 1)
    }
}

/// Pattern indexes by pid: an array when pids are dense (a compiled bundle's are), else a
/// binary search of the pids, which ascend (pids are checked to stay within
/// `BundleCheck.maxIDs`, but a crafted bundle's sparse pids must not size an array).
private struct PatternIndex {
    private let pids: [Int]
    private let dense: [Int32]

    init(pids: [Int]) {
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
