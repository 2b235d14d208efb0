/// The packed column of `planner_walks.walks` (`schemas/bundle.sql`): which served stops
/// are within `planner_walks.within_metres` of each other, for a row's stops from its
/// `first_sid` on, one after another (sids without walks included).
///
/// Per stop: the count of stops above it within the distance, then their sids ascending,
/// each as the difference from the one before (from the stop's own sid), so at least 1.
/// Lengths are not stored: the runtime measures each pair from the stops' coordinates (the
/// same bits as without the table), which also lets it take a shorter transfer distance.
///
/// ```swift
/// let blob = PlannerWalksBlob.encode([[3, 9], [], [5]], firstSid: 1)
/// let (pairs, stops) = try PlannerWalksBlob.decode(blob, firstSid: 1, maxSid: 9)  // 1-3, 1-9, 3-5; 3
/// ```
package enum PlannerWalksBlob {
    /// Stops per row: rows of a few kilobytes, so a patch replaces only the rows whose
    /// stops changed.
    package static let stopsPerRow = 1024

    /// The walks the compiler stores: up to the journey planner's default transfer
    /// distance.
    package static let metres = 400

    /// `above[i]`: the sids above `firstSid + i` within the distance, ascending.
    package static func encode(_ above: some Collection<[Int32]>, firstSid: Int) -> [UInt8] {
        var w = PackedWriter()
        for (i, list) in above.enumerated() {
            w.unsigned(list.count)
            var previous = firstSid + i
            for sid in list {
                w.unsigned(Int(sid) - previous)
                previous = Int(sid)
            }
        }
        return w.bytes
    }

    /// The pairs (a, b), a < b, the blob of a row starting at `firstSid` holds, as
    /// `a << 32 | b`, and how many stops it covers. Throws `PackedReader.Damaged` for bytes
    /// `encode` cannot have written or a sid outside 1...`maxSid`.
    package static func decode(_ bytes: [UInt8], firstSid: Int, maxSid: Int) throws -> (pairs: [UInt64], stops: Int) {
        var a = firstSid
        // Each pair takes a byte at least: room for all at once, written through a pointer.
        let pairs = try [UInt64](unsafeUninitializedCapacity: bytes.count) { out, written in
            written = 0
            try bytes.withUnsafeBufferPointer { buffer in
                var r = PackedBufferReader(buffer)
                while !r.isAtEnd {
                    guard a >= 1, a <= maxSid else { throw PackedReader.Damaged() }
                    let count = try r.count()
                    var b = a
                    for _ in 0..<count {
                        let step = try r.unsigned()
                        guard step >= 1, step <= maxSid - b, written < out.count else { throw PackedReader.Damaged() }
                        b += step
                        out[written] = UInt64(a) << 32 | UInt64(b)
                        written += 1
                    }
                    a += 1
                }
            }
        }
        return (pairs, a - firstSid)
    }
}
