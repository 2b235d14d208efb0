import Foundation

/// Maps byte strings (ids read from CSV) to dense integers 0, 1, 2, ... without
/// making a String per lookup. Keys are kept in one byte arena; the table is open
/// addressing with linear probing.
struct ByteInterner {
    private var arena: [UInt8] = []
    private var offsets: [Int] = [0]
    private var slots: [Int32]
    private var mask: Int

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    var count: Int { offsets.count - 1 }

    /// The id of `key`, or nil when it was never added.
    func find(_ key: UnsafeBufferPointer<UInt8>) -> Int32? {
        var slot = Self.hash(key) & mask
        while true {
            let id = slots[slot]
            if id < 0 { return nil }
            if equals(Int(id), key) { return id }
            slot = (slot + 1) & mask
        }
    }

    /// The id of `key`, adding it when new; `added` tells which.
    mutating func intern(_ key: UnsafeBufferPointer<UInt8>) -> (id: Int32, added: Bool) {
        if count * 2 >= slots.count { grow() }
        var slot = Self.hash(key) & mask
        while true {
            let id = slots[slot]
            if id < 0 { break }
            if equals(Int(id), key) { return (id, false) }
            slot = (slot + 1) & mask
        }
        let id = Int32(count)
        arena.append(contentsOf: key)
        offsets.append(arena.count)
        slots[slot] = id
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

    private func equals(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[id]
        let length = offsets[id + 1] - start
        guard length == key.count else { return false }
        if length == 0 { return true }
        return arena.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, key.baseAddress!, length) == 0 }
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        arena.withUnsafeBufferPointer { bytes in
            for id in 0..<count {
                let key = UnsafeBufferPointer(rebasing: bytes[offsets[id]..<offsets[id + 1]])
                var slot = Self.hash(key) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(id)
            }
        }
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
