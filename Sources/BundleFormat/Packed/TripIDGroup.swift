/// The `trip_ids.tids` column: the tids of up to `capacity` trips of one feed whose text
/// ids follow each other in byte order, from `first_trip_id` on, each as a signed varint
/// minus the tid before (the first: minus 0). In a bundle compiled without `--base` tids
/// follow the text, so each takes one byte. A lookup by text finds the group with the
/// greatest `first_trip_id` not after the id and searches its tids' text in `trip_blocks`.
///
/// Where a group starts depends on the ids themselves (`startsGroup`), not on counting,
/// so a trip added or removed in a new version changes its own group and no other.
package enum TripIDGroup {
    /// The most trips in a group.
    package static let capacity = 128

    /// Whether a group starts at `tripID` (about one id in 48), given `count` trips in the
    /// group so far.
    package static func startsGroup(at tripID: String, count: Int) -> Bool {
        if count == 0 { return true }
        if count >= capacity { return true }
        var h: UInt32 = 0x811C_9DC5
        for byte in tripID.utf8 { h = (h ^ UInt32(byte)) &* 0x0100_0193 }
        return h % 48 == 0
    }

    package static func encode(_ tids: [Int]) -> [UInt8] {
        var w = PackedWriter()
        var previous = 0
        for tid in tids {
            w.signed(tid - previous)
            previous = tid
        }
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws -> [Int] {
        var r = PackedReader(bytes)
        var tids: [Int] = []
        var tid = 0
        while !r.isAtEnd {
            tid += try r.signed()
            tids.append(tid)
        }
        guard tids.count <= capacity else { throw PackedReader.Damaged() }
        return tids
    }
}
