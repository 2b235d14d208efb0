import Foundation

/// Maps byte strings (ids read from CSV) to dense integers 0, 1, 2, ... without
/// making a String per lookup. Keys are kept in one byte arena; the table is open
/// addressing with linear probing. A slot holds the id, the key's length and its first
/// sixteen bytes, so finding a typical id reads one slot and nothing else: a lookup per
/// stop_times row would otherwise wait on three cache misses (slot, offset, arena).
struct ByteInterner {
    /// One table entry; `id` is -1 when the slot is empty.
    private struct Slot {
        var head: (UInt64, UInt64) = (0, 0)
        var id: Int32 = -1
        var length: Int32 = 0
    }

    private var arena: [UInt8] = []
    private var offsets: [Int] = [0]
    private var slots: [Slot]
    private var mask: Int

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Slot](repeating: Slot(), count: size)
        mask = size - 1
    }

    var count: Int { offsets.count - 1 }

    /// The id of `key`, or nil when it was never added.
    func find(_ key: UnsafeBufferPointer<UInt8>) -> Int32? {
        let head = Self.head(of: key)
        var slot = Self.hash(key) & mask
        return slots.withUnsafeBufferPointer { slots in
            while true {
                let entry = slots[slot]
                if entry.id < 0 { return nil }
                if matches(entry, key, head) { return entry.id }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The id of `key`, adding it when new; `added` tells which.
    mutating func intern(_ key: UnsafeBufferPointer<UInt8>) -> (id: Int32, added: Bool) {
        if count * 2 >= slots.count { grow() }
        let head = Self.head(of: key)
        var slot = Self.hash(key) & mask
        while true {
            let entry = slots[slot]
            if entry.id < 0 { break }
            if matches(entry, key, head) { return (entry.id, false) }
            slot = (slot + 1) & mask
        }
        let id = Int32(count)
        arena.append(contentsOf: key)
        offsets.append(arena.count)
        slots[slot] = Slot(head: head, id: id, length: Int32(key.count))
        return (id, true)
    }

    mutating func intern(_ text: String) -> Int32 {
        var copy = text
        return copy.withUTF8 { intern($0).id }
    }

    func find(_ text: String) -> Int32? {
        var copy = text
        return copy.withUTF8 { find($0) }
    }

    func string(_ id: Int32) -> String {
        String(decoding: arena[offsets[Int(id)]..<offsets[Int(id) + 1]], as: UTF8.self)
    }

    /// Ids ordered by their bytes (the order integer ids take in the bundle).
    func idsInByteOrder() -> [Int32] {
        arena.withUnsafeBufferPointer { bytes in
            (0..<Int32(count)).sorted { a, b in
                let sa = offsets[Int(a)]
                let ea = offsets[Int(a) + 1]
                let sb = offsets[Int(b)]
                let eb = offsets[Int(b) + 1]
                let n = min(ea - sa, eb - sb)
                let c = n == 0 ? 0 : memcmp(bytes.baseAddress! + sa, bytes.baseAddress! + sb, n)
                return c != 0 ? c < 0 : (ea - sa) < (eb - sb)
            }
        }
    }

    /// The first sixteen bytes of `key`, zero-padded.
    @inline(__always)
    private static func head(of key: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var head: (UInt64, UInt64) = (0, 0)
        if let base = key.baseAddress {
            withUnsafeMutableBytes(of: &head) { $0.baseAddress!.copyMemory(from: base, byteCount: min(key.count, 16)) }
        }
        return head
    }

    /// Whether the slot holds `key`: length and first sixteen bytes from the slot, the rest
    /// (ids longer than sixteen bytes) from the arena.
    @inline(__always)
    private func matches(_ entry: Slot, _ key: UnsafeBufferPointer<UInt8>, _ head: (UInt64, UInt64)) -> Bool {
        guard Int(entry.length) == key.count, entry.head == head else { return false }
        guard key.count > 16 else { return true }
        let start = offsets[Int(entry.id)] + 16
        return arena.withUnsafeBufferPointer { arena in
            memcmp(arena.baseAddress! + start, key.baseAddress! + 16, key.count - 16) == 0
        }
    }

    /// Sizes the table for `count` keys at once, instead of doubling (and rehashing) up to it.
    mutating func reserve(_ count: Int) {
        var size = slots.count
        while size < count * 2 { size <<= 1 }
        if size > slots.count { grow(to: size) }
    }

    private mutating func grow(to size: Int? = nil) {
        let size = size ?? slots.count * 2
        var bigger = [Slot](repeating: Slot(), count: size)
        mask = size - 1
        for entry in slots where entry.id >= 0 {
            let key = arena.withUnsafeBufferPointer {
                Self.hash(UnsafeBufferPointer(rebasing: $0[offsets[Int(entry.id)]..<offsets[Int(entry.id) + 1]]))
            }
            var slot = key & mask
            while bigger[slot].id >= 0 { slot = (slot + 1) & mask }
            bigger[slot] = entry
        }
        slots = bigger
    }

    /// A multiply-xor hash taking eight bytes at a time, folded to the table size.
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count)
        var i = 0
        if let base = key.baseAddress {
            while i + 8 <= key.count {
                h = (h ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 32
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < key.count {
                tail |= UInt64(base[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
