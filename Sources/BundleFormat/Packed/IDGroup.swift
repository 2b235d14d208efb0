/// The `trip_ids.tids` and `stop_ids.sids` columns: the integer ids of up to `capacity`
/// trips (stops) of one feed whose text ids follow each other in byte order, from
/// `first_trip_id` (`first_stop_id`) on, each as a signed varint minus the id before (the
/// first: minus 0). In a bundle compiled without `--base` trip ids follow the text, so
/// each takes one byte; stop ids follow the map (the compiler's `StopOrder`), 1.4-1.9
/// bytes a stop. A lookup by text finds the group with the greatest first id not after
/// the text and searches its members' text (in `trip_blocks`, in `stops`) by halves.
///
/// Where a group starts depends on the ids themselves (`startsGroup`), not on counting,
/// so an id added or removed in a new version changes its own group and no other.
package enum IDGroup {
    /// The most members in a group.
    package static let capacity = 128

    /// Whether a group starts at `textID` (about one id in 48), given `count` members in the
    /// group so far.
    package static func startsGroup(at textID: String, count: Int) -> Bool {
        if count == 0 { return true }
        if count >= capacity { return true }
        var h: UInt32 = 0x811C_9DC5
        for byte in textID.utf8 { h = (h ^ UInt32(byte)) &* 0x0100_0193 }
        return h % 48 == 0
    }

    /// The member of a decoded group whose text id is `text`, nil when none is: the members
    /// are in byte order of their text, so `textOf` is asked about log2(count) of them.
    package static func member(_ text: String, in ids: [Int], textOf: (Int) throws -> String) rethrows -> Int? {
        try member(in: ids) { id in
            let found = try textOf(id)
            return found == text ? 0 : found.utf8.lexicographicallyPrecedes(text.utf8) ? -1 : 1
        }
    }

    /// The member of a decoded group that `order` finds equal to the text sought: `order`
    /// tells how a member's text orders against it (below zero: before, zero: equal,
    /// above zero: after) and is asked about log2(count) of them.
    package static func member(in ids: [Int], order: (Int) throws -> Int) rethrows -> Int? {
        var low = 0
        var high = ids.count
        while low < high {
            let mid = (low + high) / 2
            let c = try order(ids[mid])
            if c == 0 { return ids[mid] }
            if c < 0 { low = mid + 1 } else { high = mid }
        }
        return nil
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

    /// The members, through a pointer reader into room for one a byte (a realtime
    /// message's first lookups decode thousands of groups).
    package static func decode(_ bytes: [UInt8]) throws -> [Int] {
        // Each member takes at least one byte; more members than `capacity` is damage.
        guard bytes.count <= capacity * 10 else { throw PackedReader.Damaged() }
        let tids = try [Int].decoded(from: bytes, recordsOfAtLeast: 1) { column, add in
            var r = PackedBufferReader(column)
            var tid = 0
            while !r.isAtEnd {
                tid += try r.signed()
                try add(tid)
            }
        }
        guard tids.count <= capacity else { throw PackedReader.Damaged() }
        return tids
    }
}
