import BundleFormat
import TransitSQLite

/// Patterns decoded from their packed columns on first use and kept (their stops, their
/// trips by start time, their frequency templates), where each stop is a departure, and
/// trip text ids by block. Safe to share between threads.
final class PatternCache: Sendable {
    /// A decoded pattern, shared by reference: a board's places and candidates each hold one,
    /// and a class costs one reference count where a struct of three arrays costs three.
    final class Pattern: Sendable {
        let pid: Int
        let stops: [PatternStopRecord]
        /// Trips that run once, by start time, then tid.
        let regular: [PatternTripRecord]
        /// Frequency templates (their windows are in `frequencies`).
        let templates: [PatternTripRecord]

        init(pid: Int, stops: [PatternStopRecord], regular: [PatternTripRecord], templates: [PatternTripRecord]) {
            self.pid = pid
            self.stops = stops
            self.regular = regular
            self.templates = templates
        }

        /// "A pattern stop is a departure": riders may board there (pickup_type is not 1)
        /// and it is not the pattern's last stop.
        func isDeparture(_ idx: Int) -> Bool { stops[idx].pickupType != 1 && idx < stops.count - 1 }

        /// An arrival: riders may alight there (drop_off_type is not 1) and it is not the
        /// pattern's first stop; the last stop (the terminus) is one.
        func isArrival(_ idx: Int) -> Bool { stops[idx].dropOffType != 1 && idx > 0 }

        /// The first index of `regular` whose start is >= `value`.
        func firstRegular(startingAtOrAfter value: Int) -> Int {
            var low = 0
            var high = regular.count
            while low < high {
                let mid = (low + high) / 2
                if regular[mid].startTime < value { low = mid + 1 } else { high = mid }
            }
            return low
        }

        /// Every trip, regular ones first.
        var allTrips: FlattenSequence<[[PatternTripRecord]]> { [regular, templates].joined() }

        /// The trip `tid`, if it belongs to this pattern.
        func trip(_ tid: Int) -> PatternTripRecord? {
            regular.first { $0.tid == tid } ?? templates.first { $0.tid == tid }
        }
    }

    /// A place of a stop in a pattern (where trips board, or alight, on a board).
    struct Place: Sendable {
        let pattern: Pattern
        let idx: Int

        var stop: PatternStopRecord { pattern.stops[idx] }
    }

    private let patterns = LockedCache<Int, Pattern>()
    private let departing = LockedCache<Int, [Place]>()
    private let arriving = LockedCache<Int, [Place]>()
    private let tripBlocks = LockedCache<Int, TripBlock>()
    /// Text trip ids already looked up, per feed (live data names the same trips message
    /// after message); emptied past 100,000.
    private let tids = LockedCache<TripKey, Int>(limit: 100_000)
    /// Each pattern's stops as live data reads them (text ids, sequences, times), by pid.
    private let stopColumnLists = LockedCache<Int, TripSchedule.StopColumns>()

    private struct TripKey: Hashable, Sendable {
        var fid: Int
        var tripID: String
    }

    /// Forgets every decoded pattern, stop list and trip block.
    func purge() {
        patterns.removeAll()
        departing.removeAll()
        arriving.removeAll()
        tripBlocks.removeAll()
        tids.removeAll()
        stopColumnLists.removeAll()
    }

    /// `pattern`'s stops in order as columns, made once per pattern.
    func stopColumns(of pattern: Pattern) -> TripSchedule.StopColumns {
        stopColumnLists.value(pattern.pid) { TripSchedule.StopColumns(pattern.stops) }
    }

    /// The stop columns of pattern `pid` and those of its trips
    /// whose tids are in `tids`, for making many trips' schedules at once: from the kept
    /// pattern when a board decoded it, else read from `rows` (the caller's, asked for
    /// patterns in pid order) with its trips streamed and only those asked for kept. A
    /// large message names trips of most patterns; decoding and keeping each whole would
    /// hold every trip of the bundle.
    func trips(_ tids: [Int], ofPattern pid: Int, rows: inout ForwardRows) throws
        -> (columns: TripSchedule.StopColumns, trips: [PatternTripRecord])
    {
        if let pattern = patterns.cached(pid) {
            return (stopColumns(of: pattern), tids.compactMap { pattern.trip($0) })
        }
        guard let row = try rows.row(pid) else { throw TransitError.corruptBundle(reason: "pattern \(pid) is missing from the bundle") }
        let columns = try stopColumnLists.value(pid) {
            TripSchedule.StopColumns(try Self.damagedAsError("pattern \(pid)") { try PatternStopsBlob.decode(row.blob(1)) })
        }
        var found: [PatternTripRecord] = []
        try Self.damagedAsError("pattern \(pid)") {
            // Until every trip asked for is found (the tids are distinct).
            try PatternTripsBlob.forEach(
                in: row.blob(2),
                while: { trip in
                    if tids.contains(trip.tid) { found.append(trip) }
                    return found.count < tids.count
                })
        }
        return (columns, found)
    }

    func pattern(_ pid: Int, db: SQLiteDatabase) throws -> Pattern {
        try patterns.value(pid) {
            let q = try db.cached("SELECT stops, trips FROM patterns WHERE pid = ?1")
            q.bind([pid])
            guard try q.step() else { throw TransitError.corruptBundle(reason: "pattern \(pid) is missing from the bundle") }
            return try Self.decode(pid: pid, stops: q.blob(0), trips: q.blob(1))
        }
    }

    /// Every place of `sid` in a pattern, as `stop_patterns` lists them.
    func places(at sid: Int, db: SQLiteDatabase) throws -> [Place] {
        let q = try db.cached("SELECT entries FROM stop_patterns WHERE sid = ?1")
        q.bind([sid])
        return try q.step() ? places(sid: sid, entries: q.blob(0), db: db) : []
    }

    /// The places of `sid` that are departures, in pattern order.
    func departingStops(at sid: Int, db: SQLiteDatabase) throws -> [Place] {
        try departing.value(sid) { try places(at: sid, db: db).filter { $0.pattern.isDeparture($0.idx) } }
    }

    /// The places of `sid` that are arrivals, in pattern order.
    func arrivingStops(at sid: Int, db: SQLiteDatabase) throws -> [Place] {
        try arriving.value(sid) { try places(at: sid, db: db).filter { $0.pattern.isArrival($0.idx) } }
    }

    /// The patterns that route `rid`'s trips follow (`route_patterns`), by pid.
    func patterns(ofRoute rid: Int, db: SQLiteDatabase) throws -> [Pattern] {
        try pids(ofRoute: rid, db: db).map { try pattern($0, db: db) }
    }

    /// The pids of the patterns that route `rid`'s trips follow (`route_patterns`).
    func pids(ofRoute rid: Int, db: SQLiteDatabase) throws -> [Int] {
        let q = try db.cached("SELECT pids FROM route_patterns WHERE rid = ?1")
        q.bind([rid])
        guard try q.step() else { return [] }
        return try Self.damagedAsError("route \(rid)") { try IDListBlob.decode(q.blob(0)) }
    }

    /// Calls `body` with each trip of pattern `pid`: from the decoded pattern when it is
    /// kept, else read from its packed column without decoding the pattern.
    func forEachTrip(ofPattern pid: Int, db: SQLiteDatabase, _ body: (PatternTripRecord) throws -> Void) throws {
        if let pattern = patterns.cached(pid) {
            for trip in pattern.regular { try body(trip) }
            for trip in pattern.templates { try body(trip) }
            return
        }
        let q = try db.cached("SELECT trips FROM patterns WHERE pid = ?1")
        q.bind([pid])
        guard try q.step() else { throw TransitError.corruptBundle(reason: "pattern \(pid) is missing from the bundle") }
        try Self.damagedAsError("pattern \(pid)") { try PatternTripsBlob.forEach(in: q.blob(0), body) }
    }

    /// Decodes every pattern and every stop's departures now, in two scans.
    func preload(db: SQLiteDatabase) throws {
        let all = try db.prepare("SELECT pid, stops, trips FROM patterns")
        while try all.step() { patterns.insert(all.int(0), try Self.decode(pid: all.int(0), stops: all.blob(1), trips: all.blob(2))) }
        let stops = try db.prepare("SELECT sid, entries FROM stop_patterns")
        while try stops.step() {
            let sid = stops.int(0)
            departing.insert(sid, try places(sid: sid, entries: stops.blob(1), db: db).filter { $0.pattern.isDeparture($0.idx) })
        }
    }

    /// The places a `stop_patterns.entries` value lists.
    private func places(sid: Int, entries: [UInt8], db: SQLiteDatabase) throws -> [Place] {
        let occurrences = try Self.damagedAsError("stop \(sid)") { try StopPatternsBlob.decode(entries) }
        try decodeMissing(occurrences.map(\.pid), db: db)
        return try occurrences.map { o in
            let p = try pattern(o.pid, db: db)
            guard o.idx < p.stops.count else { throw TransitError.corruptBundle(reason: "stop \(sid) is damaged in the bundle") }
            // The index is checked against the pattern it names: a board never shows a trip
            // that calls elsewhere.
            guard p.stops[o.idx].sid == sid else {
                throw TransitError.corruptBundle(
                    reason: "stop \(sid) names stop \(o.idx) of pattern \(o.pid), which is stop \(p.stops[o.idx].sid)")
            }
            return Place(pattern: p, idx: o.idx)
        }
    }

    /// Decodes and keeps those of `pids` (ascending, as `stop_patterns` lists them) not kept
    /// yet, reading rows that lie close together by stepping one statement forward: the
    /// compiler numbers a route's patterns together, and a stop's patterns are mostly those
    /// of a few routes, so a cold board reads a few runs of rows instead of seeking each.
    /// A pid the table lacks is left for `pattern(_:db:)`, which says so.
    private func decodeMissing(_ pids: [Int], db: SQLiteDatabase) throws {
        var missing: [Int] = []
        for pid in pids where missing.last != pid && patterns.cached(pid) == nil { missing.append(pid) }
        guard missing.count > 1 else { return }
        var rows = try ForwardRows.patterns(db)
        defer { rows.finish() }
        for pid in missing {
            guard let row = try rows.row(pid) else { continue }
            patterns.insert(pid, try Self.decode(pid: pid, stops: row.blob(1), trips: row.blob(2)))
        }
    }

    /// The block of trip text ids that holds `tid`.
    func tripBlock(holding tid: Int, db: SQLiteDatabase) throws -> TripBlock {
        let first = TripBlock.firstTid(holding: tid)
        return try tripBlocks.value(first) {
            let q = try db.cached("SELECT entries FROM trip_blocks WHERE first_tid = ?1")
            q.bind([first])
            guard try q.step() else { throw TransitError.corruptBundle(reason: "trip \(tid) is missing from the bundle") }
            return try Self.damagedAsError("trip block \(first)") { try TripBlock.decode(firstTid: first, q.blob(0)) }
        }
    }

    /// The text id and pattern of trip `tid`.
    func trip(_ tid: Int, db: SQLiteDatabase) throws -> TripBlock.Entry {
        guard let entry = try tripBlock(holding: tid, db: db).entry(tid: tid) else {
            throw TransitError.corruptBundle(reason: "trip \(tid) is missing from the bundle")
        }
        return entry
    }

    /// The tid of a text trip id in `feed`, nil when the feed has no such trip: the
    /// `trip_ids` group that would hold it, searched by halves through the trips' text.
    func tid(of tripID: String, feed: FeedCatalog.Feed, db: SQLiteDatabase) throws -> Int? {
        let key = TripKey(fid: feed.fid, tripID: tripID)
        if let tid = tids.cached(key) { return tid }
        guard let tid = try lookUpTid(of: tripID, feed: feed, db: db) else { return nil }
        tids.insert(key, tid)
        return tid
    }

    private func lookUpTid(of tripID: String, feed: FeedCatalog.Feed, db: SQLiteDatabase) throws -> Int? {
        let q = try db.cached(
            "SELECT tids FROM trip_ids WHERE fid = ?1 AND first_trip_id <= ?2 ORDER BY first_trip_id DESC LIMIT 1")
        q.bind([feed.fid, tripID])
        guard try q.step() else { return nil }
        let tids = try Self.damagedAsError("trip ids of feed \(feed.feedID)") { try IDGroup.decode(q.blob(0)) }
        // A group's tids usually lie in one or two blocks: the last one read is kept at hand.
        var block: TripBlock?
        return try member(Array(tripID.utf8), in: tids) { tid in
            if let block, block.firstTid == TripBlock.firstTid(holding: tid) { return block }
            block = try tripBlock(holding: tid, db: db)
            return block!
        }
    }

    /// The member of a `trip_ids` group (`tids`, in byte order of their text) whose text id
    /// is `text`: a binary search comparing bytes in the trip blocks, each taken through
    /// `block` (the block holding a tid).
    private func member(_ text: [UInt8], in tids: [Int], block: (Int) throws -> TripBlock) throws -> Int? {
        try text.withUnsafeBufferPointer { text in
            try IDGroup.member(in: tids) { tid in
                guard let order = try block(tid).compareTripID(tid: tid, with: text) else {
                    throw TransitError.corruptBundle(reason: "trip \(tid) is missing from the bundle")
                }
                return order
            }
        }
    }

    /// The tid and pattern of each of `ids` (text ids of `feed` in byte order of their
    /// UTF-8, no two alike), nil where the feed has no such trip: what `tid(of:feed:db:)` answers for each,
    /// in one pass. The `trip_ids` groups are read in order by one statement (a new seek
    /// only past a gap of many groups), and the binary searches compare against the trip
    /// blocks of their last comparisons, decoded once while they are needed.
    func tids(ofSorted ids: [String], feed: FeedCatalog.Feed, db: SQLiteDatabase) throws -> [(tid: Int, pid: Int)?] {
        let seeking = try db.cached(
            "SELECT first_trip_id, tids FROM trip_ids WHERE fid = ?1 AND first_trip_id <= ?2 ORDER BY first_trip_id DESC LIMIT 1")
        let forward = try db.cached(
            "SELECT first_trip_id, tids FROM trip_ids WHERE fid = ?1 AND first_trip_id > ?2 ORDER BY first_trip_id")
        /// A group's first text id and its packed tids.
        struct Group {
            var first: [UInt8]
            var packed: [UInt8]
        }
        var current: Group?
        /// `current`'s tids, decoded when an id falls in it (nil again when it moves on).
        var currentTids: [Int]?
        var next: Group?
        func stepForward() throws {
            next = try forward.step() ? Group(first: forward.blob(0), packed: forward.blob(1)) : nil
        }
        func seek(to id: String) throws {
            seeking.bind([feed.fid, SQLValue.text(Array(id.utf8))])
            current = try seeking.step() ? Group(first: seeking.blob(0), packed: seeking.blob(1)) : nil
            currentTids = nil
            forward.bind([feed.fid, SQLValue.text(current?.first ?? Array(id.utf8))])
            try stepForward()
        }
        // The blocks of the last few comparisons (a group's tids lie in one or two), read
        // from the shared cache when a board put them there, else decoded here and not
        // kept: a large message reads most blocks of the bundle once, and keeping them all
        // would hold megabytes no later lookup needs.
        // Sorted ids name ascending tids in a bundle compiled without --base: the blocks are
        // read by one statement stepping forward.
        var blockRows = try ForwardRows.tripBlocks(db)
        defer { blockRows.finish() }
        var recent: [TripBlock] = []
        func block(holding tid: Int) throws -> TripBlock {
            let first = TripBlock.firstTid(holding: tid)
            if let known = recent.first(where: { $0.firstTid == first }) ?? tripBlocks.cached(first) {
                return known
            }
            guard let row = try blockRows.row(first) else {
                throw TransitError.corruptBundle(reason: "trip \(tid) is missing from the bundle")
            }
            let block = try Self.damagedAsError("trip block \(first)") { try TripBlock.decode(firstTid: first, row.blob(1)) }
            if recent.count == 4 { recent.removeFirst() }
            recent.append(block)
            return block
        }
        var held: TripBlock?
        var found: [(tid: Int, pid: Int)?] = []
        found.reserveCapacity(ids.count)
        for (n, id) in ids.enumerated() {
            if n == 0 {
                try seek(to: id)
            } else {
                // Sorted ids mostly fall in this group or one of the next few.
                var steps = 0
                while let ahead = next, !id.utf8.lexicographicallyPrecedes(ahead.first), steps < 16 {
                    current = ahead
                    currentTids = nil
                    try stepForward()
                    steps += 1
                }
                if let ahead = next, !id.utf8.lexicographicallyPrecedes(ahead.first) { try seek(to: id) }
            }
            guard current != nil else {
                found.append(nil)
                continue
            }
            if currentTids == nil {
                currentTids = try Self.damagedAsError("trip ids of feed \(feed.feedID)") { try IDGroup.decode(current!.packed) }
            }
            // A binary search over the group's members in their text's order, comparing
            // against the block of the last comparison, which mostly holds the next: it is
            // kept at hand in a local (no table lookup, no closure, and no copy of the
            // block, so no reference counts, per comparison).
            let tids = currentTids!
            // The id's bytes are read where they lie (a native string's UTF-8).
            var text = id
            var tid: Int?
            var (low, high) = (0, tids.count)
            while low < high {
                let mid = (low + high) / 2
                let member = tids[mid]
                if held?.firstTid != TripBlock.firstTid(holding: member) { held = try block(holding: member) }
                let order = text.withUTF8 { held!.compareTripID(tid: member, with: $0) }
                guard let order else { throw TransitError.corruptBundle(reason: "trip \(member) is missing from the bundle") }
                if order == 0 {
                    tid = member
                    break
                }
                if order < 0 { low = mid + 1 } else { high = mid }
            }
            guard let tid, let pid = held?.pid(tid: tid) else {
                found.append(nil)
                continue
            }
            found.append((tid, pid))
        }
        return found
    }

    private static func decode(pid: Int, stops: [UInt8], trips: [UInt8]) throws -> Pattern {
        try damagedAsError("pattern \(pid)") {
            let all = try PatternTripsBlob.decode(trips)
            // Most patterns have no frequency templates: their trips are kept as decoded.
            let hasTemplates = all.contains(where: \.frequency)
            return Pattern(
                pid: pid, stops: try PatternStopsBlob.decode(stops), regular: hasTemplates ? all.filter { !$0.frequency } : all,
                templates: hasTemplates ? all.filter(\.frequency) : [])
        }
    }

    /// Runs `body`, a damaged packed column becoming `corruptBundle` naming `what`.
    /// `what` is only made for the error (boards decode thousands of columns).
    static func damagedAsError<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch is PackedReader.Damaged {
            throw TransitError.corruptBundle(reason: "\(what()) is damaged in the bundle")
        }
    }
}
