import Foundation

/// The `trip_blocks.entries` column: the text ids and patterns of the trips whose tids are
/// `first_tid ..< first_tid + capacity`, where `first_tid` is 1 + a multiple of `capacity`,
/// so the block of a tid is known without a lookup. A tid no trip has (a trip removed in a
/// later version keeps its id unused) is a gap. Trip ids of one feed are alike
/// ("20485815-25SEPB-UPKBus-Semaine-01", "20485816-25SEPB-UPKBus-Semaine-01"), so each is
/// written as a reference to one of the `window` ids before it in the block, the lengths of
/// the prefix and suffix it shares with that one, and the bytes in between. Per tid, as
/// varints:
///
///     slot        unsigned: 0 a gap (nothing follows), else 1 + how many trips back the
///                 reference is (1: none)
///     [prefix]    unsigned, bytes shared at the start                when slot > 1
///     [suffix]    unsigned, bytes shared at the end                  when slot > 1
///     length      unsigned, bytes in between
///     middle      the bytes
///     pid         signed, minus the previous trip's pid (the first: minus 0)
///
/// An id of 31 bytes typically takes 5 to 8. Lookups by text go through `trip_ids`.
package struct TripBlock: Sendable {
    /// Tids per block: a lookup decodes at most this many.
    package static let capacity = 64
    /// How far back a reference may point.
    package static let window = 16

    package struct Entry: Hashable, Sendable {
        package var tripID: String
        package var pid: Int

        package init(tripID: String, pid: Int) {
            self.tripID = tripID
            self.pid = pid
        }
    }

    /// Where a trip's id lies in `text`, and its pattern; `count` -1 for a gap.
    private struct Slot: Sendable {
        var start: Int32
        var count: Int32
        var pid: Int32

        static let gap = Slot(start: 0, count: -1, pid: 0)
    }

    package let firstTid: Int
    /// Every id of the block, one after another: a block decoded for one board's trip keeps
    /// its 64 ids as bytes, and a String is made only for an id that is asked for.
    private let text: [UInt8]
    /// By tid from `firstTid`.
    private let slots: [Slot]

    /// A block holding `entries` by tid from `firstTid` (nil for a gap).
    package init(firstTid: Int, entries: [Entry?]) {
        self.firstTid = firstTid
        var text: [UInt8] = []
        slots = entries.map { e in
            guard let e else { return .gap }
            defer { text += e.tripID.utf8 }
            return Slot(start: Int32(text.count), count: Int32(e.tripID.utf8.count), pid: Int32(e.pid))
        }
        self.text = text
    }

    private init(firstTid: Int, text: [UInt8], slots: [Slot]) {
        self.firstTid = firstTid
        self.text = text
        self.slots = slots
    }

    /// By tid from `firstTid`; nil for a gap.
    package var entries: [Entry?] { (0..<slots.count).map { entry(at: $0) } }

    /// The first tid of the block that holds `tid`.
    package static func firstTid(holding tid: Int) -> Int { (tid - 1) / capacity * capacity + 1 }

    /// The entry of `tid`, if the block holds a trip with that id.
    package func entry(tid: Int) -> Entry? {
        let i = tid - firstTid
        return i >= 0 && i < slots.count ? entry(at: i) : nil
    }

    /// The pattern of trip `tid`, if the block holds it (no String made).
    package func pid(tid: Int) -> Int? {
        let i = tid - firstTid
        return i >= 0 && i < slots.count && slots[i].count >= 0 ? Int(slots[i].pid) : nil
    }

    /// How trip `tid`'s text id orders against `text` in byte order: below zero when it
    /// comes first, zero when equal, above zero when after; nil when the block holds no
    /// trip `tid`. No String is made (a lookup by text asks this of about six trips).
    package func compareTripID(tid: Int, with text: UnsafeBufferPointer<UInt8>) -> Int? {
        let i = tid - firstTid
        guard i >= 0 && i < slots.count, slots[i].count >= 0 else { return nil }
        let slot = slots[i]
        let count = Int(slot.count)
        let common = min(count, text.count)
        // Sorted neighbours share long prefixes: memcmp, not a loop a byte at a time.
        let order = self.text.withUnsafeBufferPointer { all in
            common == 0 ? 0 : memcmp(all.baseAddress! + Int(slot.start), text.baseAddress!, common)
        }
        return order != 0 ? Int(order) : count - text.count
    }

    private func entry(at i: Int) -> Entry? {
        let slot = slots[i]
        guard slot.count >= 0 else { return nil }
        let id = text.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(slot.start)..<Int(slot.start + slot.count)]), as: UTF8.self)
        }
        return Entry(tripID: id, pid: Int(slot.pid))
    }

    package static func encode(_ entries: [Entry?]) -> [UInt8] {
        var w = PackedWriter()
        var ids: [[UInt8]] = []
        var previousPid = 0
        for slot in entries {
            guard let e = slot else {
                w.unsigned(0)
                continue
            }
            let id = Array(e.tripID.utf8)
            // The earlier id sharing the most bytes at both ends.
            var best = (back: 0, prefix: 0, suffix: 0)
            for back in stride(from: 1, through: min(window, ids.count), by: 1) {
                let other = ids[ids.count - back]
                let limit = min(id.count, other.count)
                var prefix = 0
                while prefix < limit && id[prefix] == other[prefix] { prefix += 1 }
                var suffix = 0
                while suffix < limit - prefix && id[id.count - 1 - suffix] == other[other.count - 1 - suffix] { suffix += 1 }
                if prefix + suffix > best.prefix + best.suffix { best = (back, prefix, suffix) }
            }
            w.unsigned(best.back + 1)
            if best.back > 0 {
                w.unsigned(best.prefix)
                w.unsigned(best.suffix)
            }
            w.unsigned(id.count - best.prefix - best.suffix)
            w.append(contentsOf: id[best.prefix..<id.count - best.suffix])
            w.signed(e.pid - previousPid)
            ids.append(id)
            previousPid = e.pid
        }
        return w.bytes
    }

    /// Reads the block in two passes: the first checks every slot and works out each id's
    /// length and where its bytes come from, the second copies them into one buffer of the
    /// exact size (prefix and suffix from the id referred to, the rest from the column). No
    /// String is made here: a board asks for one id of the 64. The column is read, and the
    /// slots and pieces written, through pointers (a snapshot's first message decodes most
    /// blocks of a large bundle, a cold board one block a departure: appending to arrays
    /// and copying each part with `memcpy` cost several times more).
    package static func decode(firstTid: Int, _ bytes: [UInt8]) throws -> TripBlock {
        /// One id: the id it refers to (-1: none), the bytes shared with it at both ends,
        /// where its own bytes lie in `bytes`, where it goes in the buffer.
        struct Piece {
            var other: Int32
            var prefix: Int32
            var suffix: Int32
            var middle: Int32
            var middleCount: Int32
            var start: Int32
            var count: Int { Int(prefix) + Int(middleCount) + Int(suffix) }
        }
        return try bytes.withUnsafeBufferPointer { column in
            guard column.count < Int(Int32.max) else { throw PackedReader.Damaged() }
            return try withUnsafeTemporaryAllocation(of: Piece.self, capacity: capacity) { pieces in
                var pieceCount = 0
                var total = 0
                let slots = try [Slot](unsafeUninitializedCapacity: capacity) { slots, slotCount in
                    var r = PackedBufferReader(column)
                    var pid = 0
                    while !r.isAtEnd {
                        guard slotCount < capacity else { throw PackedReader.Damaged() }
                        let slot = try r.unsigned()
                        guard slot > 0 else {
                            (slots.baseAddress! + slotCount).initialize(to: .gap)
                            slotCount += 1
                            continue
                        }
                        let back = slot - 1
                        guard back <= pieceCount else { throw PackedReader.Damaged() }
                        var piece = Piece(
                            other: -1, prefix: 0, suffix: 0, middle: 0, middleCount: 0, start: Int32(truncatingIfNeeded: total))
                        if back > 0 {
                            let other = pieceCount - back
                            let prefix = try r.unsigned()
                            let suffix = try r.unsigned()
                            guard prefix + suffix <= pieces[other].count else { throw PackedReader.Damaged() }
                            (piece.other, piece.prefix, piece.suffix) = (Int32(other), Int32(prefix), Int32(suffix))
                        }
                        let middleCount = try r.unsigned()
                        (piece.middle, piece.middleCount) = (Int32(r.offset), Int32(middleCount))
                        try r.skip(middleCount)
                        pid += try r.signed()
                        total += piece.count
                        // Positions, lengths and pids are kept in 32 bits.
                        guard PackedReader.fits32(pid), PackedReader.fits32(total) else { throw PackedReader.Damaged() }
                        (slots.baseAddress! + slotCount).initialize(
                            to: Slot(start: piece.start, count: Int32(piece.count), pid: Int32(pid)))
                        slotCount += 1
                        (pieces.baseAddress! + pieceCount).initialize(to: piece)
                        pieceCount += 1
                    }
                }
                let text = [UInt8](unsafeUninitializedCapacity: max(1, total)) { buffer, initialized in
                    let base = buffer.baseAddress!
                    let source = column.baseAddress!
                    for p in 0..<pieceCount {
                        let piece = pieces[p]
                        let at = base + Int(piece.start)
                        let middleAt = at + Int(piece.prefix)
                        if piece.other >= 0 {
                            // The prefix and the suffix from the id referred to, copied before this one.
                            let other = pieces[Int(piece.other)]
                            let from = base + Int(other.start)
                            for k in 0..<Int(piece.prefix) { at[k] = from[k] }
                            let suffixFrom = from + other.count - Int(piece.suffix)
                            let suffixAt = middleAt + Int(piece.middleCount)
                            for k in 0..<Int(piece.suffix) { suffixAt[k] = suffixFrom[k] }
                        }
                        let middleFrom = source + Int(piece.middle)
                        for k in 0..<Int(piece.middleCount) { middleAt[k] = middleFrom[k] }
                    }
                    initialized = total
                }
                return TripBlock(firstTid: firstTid, text: text, slots: slots)
            }
        }
    }
}
