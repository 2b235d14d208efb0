/// The packed columns of the planner's tables (`schemas/bundle.sql`): a stop sequence in
/// `planner_sequences.stops`, a route's trips in `planner_routes.trips`.
///
/// - stops: count, then per stop the sid as a signed difference from the one before (from
///   0), and its flags (1: can be boarded, 2: can be alighted).
/// - trips: count, then per trip (in the route's order, starts never decreasing) the start
///   (the first as a signed value, then the unsigned difference), the tid as a signed
///   difference, and the pattern's pid as a signed difference zigzagged, times 2, plus 1
///   when the trip is marked wheelchair accessible; then the count of frequency templates
///   and per template the tid and the pid-and-accessibility the same way.
///
/// ```swift
/// let blob = PlannerRoutesBlob.encodeStops(sequence)
/// let back = try PlannerRoutesBlob.decodeStops(blob, fid: sequence.fid)
/// ```
package enum PlannerRoutesBlob {
    /// A trip as `planner_routes.trips` holds it.
    package struct Entry: Equatable, Sendable {
        package var tid: Int
        package var start: Int
        package var pid: Int
        package var accessible: Bool

        package init(tid: Int, start: Int, pid: Int, accessible: Bool) {
            self.tid = tid
            self.start = start
            self.pid = pid
            self.accessible = accessible
        }
    }

    package static func encodeStops(_ sequence: RoutePlan.Sequence) -> [UInt8] {
        var w = PackedWriter()
        w.unsigned(sequence.sids.count)
        var previous = 0
        for i in sequence.sids.indices {
            w.signed(Int(sequence.sids[i]) - previous)
            previous = Int(sequence.sids[i])
            w.unsigned((sequence.boards[i] ? 1 : 0) | (sequence.alights[i] ? 2 : 0))
        }
        return w.bytes
    }

    /// Throws `PackedReader.Damaged` for bytes `encodeStops` cannot have written, or a sid
    /// outside 1...`maxSid`.
    package static func decodeStops(_ bytes: [UInt8], fid: Int, maxSid: Int) throws -> RoutePlan.Sequence {
        var r = PackedReader(bytes)
        let n = try r.count()
        var sids: [Int32] = []
        var boards: [Bool] = []
        var alights: [Bool] = []
        sids.reserveCapacity(n)
        boards.reserveCapacity(n)
        alights.reserveCapacity(n)
        var sid = 0
        for _ in 0..<n {
            sid += try r.signed()
            let flags = try r.unsigned()
            guard sid >= 1, sid <= maxSid, flags <= 3 else { throw PackedReader.Damaged() }
            sids.append(Int32(sid))
            boards.append(flags & 1 != 0)
            alights.append(flags & 2 != 0)
        }
        guard r.isAtEnd else { throw PackedReader.Damaged() }
        return RoutePlan.Sequence(fid: fid, sids: sids, boards: boards, alights: alights)
    }

    package static func encodeTrips(_ trips: [Entry], templates: [Entry]) -> [UInt8] {
        var w = PackedWriter()
        w.unsigned(trips.count)
        var (tid, pid) = (0, 0)
        for (i, t) in trips.enumerated() {
            if i == 0 { w.signed(t.start) } else { w.unsigned(t.start - trips[i - 1].start) }
            w.signed(t.tid - tid)
            w.unsigned(zigzag(t.pid - pid) << 1 | (t.accessible ? 1 : 0))
            (tid, pid) = (t.tid, t.pid)
        }
        w.unsigned(templates.count)
        for t in templates {
            w.signed(t.tid - tid)
            w.unsigned(zigzag(t.pid - pid) << 1 | (t.accessible ? 1 : 0))
            (tid, pid) = (t.tid, t.pid)
        }
        return w.bytes
    }

    /// Trips as columns, one value of each per trip (what the planner keeps).
    package struct TripColumns: Sendable {
        package var starts: [Int32] = []
        package var tids: [TripNumber] = []
        package var pids: [PatternNumber] = []
        package var accessible: [Bool] = []

        package init() {}
    }

    /// How many trips `bytes` holds (its first number), read before they are decoded.
    package static func tripCount(_ bytes: [UInt8]) throws -> Int {
        var r = PackedReader(bytes)
        return try r.count()
    }

    /// Appends the trips `bytes` holds to `columns`, in order, and replaces the contents of
    /// `templates` with its frequency templates (a template's start is 0). Throws
    /// `PackedReader.Damaged` for bytes `encodeTrips` cannot have written: a start, tid or
    /// pid beyond 32 bits, a tid or pid below 1 (what was appended before stays: the caller
    /// drops it). The planner's first read decodes every route's trips: they are decoded
    /// through a pointer into room on the stack, then appended in one copy per column (an
    /// array of entries copied into the columns took twice the time).
    package static func decode(_ bytes: [UInt8], appendingTo columns: inout TripColumns, templates: inout [Entry]) throws {
        templates.removeAll(keepingCapacity: true)
        try bytes.withUnsafeBufferPointer { buffer in
            var r = PackedBufferReader(buffer)
            var (tid, pid, start) = (0, 0, 0)
            // Each trip takes at least 3 bytes: `count` bounds the room.
            let count = try r.count()
            try withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, count)) { starts in
                try withUnsafeTemporaryAllocation(of: TripNumber.self, capacity: max(1, count)) { tids in
                    try withUnsafeTemporaryAllocation(of: PatternNumber.self, capacity: max(1, count)) { pids in
                        try withUnsafeTemporaryAllocation(of: Bool.self, capacity: max(1, count)) { accessible in
                            for i in 0..<count {
                                start = i == 0 ? try r.signed() : start + (try r.unsigned())
                                guard PackedReader.fits32(start) else { throw PackedReader.Damaged() }
                                let entry = try member(&r, start: start, tid: &tid, pid: &pid)
                                (starts.baseAddress! + i).initialize(to: Int32(start))
                                (tids.baseAddress! + i).initialize(to: TripNumber(entry.tid))
                                (pids.baseAddress! + i).initialize(to: PatternNumber(entry.pid))
                                (accessible.baseAddress! + i).initialize(to: entry.accessible)
                            }
                            columns.starts.append(contentsOf: starts[0..<count])
                            columns.tids.append(contentsOf: tids[0..<count])
                            columns.pids.append(contentsOf: pids[0..<count])
                            columns.accessible.append(contentsOf: accessible[0..<count])
                        }
                    }
                }
            }
            let templateCount = try r.count()
            templates.reserveCapacity(templateCount)
            for _ in 0..<templateCount { templates.append(try member(&r, start: 0, tid: &tid, pid: &pid)) }
            guard r.isAtEnd else { throw PackedReader.Damaged() }
        }
    }

    /// The next trip or template (after the trip's start), its tid and pid the differences
    /// read added to `tid` and `pid`.
    @inline(__always)
    private static func member(_ r: inout PackedBufferReader, start: Int, tid: inout Int, pid: inout Int) throws -> Entry {
        tid += try r.signed()
        let packed = try r.unsigned()
        let half = packed >> 1
        pid += half & 1 == 0 ? half >> 1 : -(half >> 1) - 1
        guard tid >= 1, PackedReader.fits32(tid), pid >= 1, PackedReader.fits32(pid) else { throw PackedReader.Damaged() }
        return Entry(tid: tid, start: start, pid: pid, accessible: packed & 1 != 0)
    }

    private static func zigzag(_ value: Int) -> Int { value >= 0 ? value << 1 : (-value - 1) << 1 | 1 }
}
