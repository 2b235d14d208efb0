import Foundation

/// The byte order of text ids (the order the bundle's lookups and tie-breaks use): UTF-8
/// bytes compared one by one, a prefix first.
enum ByteOrder {
    /// Whether bytes `a` come before bytes `b` (one `memcmp`).
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let common = min(a.count, b.count)
        // An empty array may have no address: nothing to compare then.
        let order =
            common == 0
            ? 0 : a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in memcmp(x.baseAddress!, y.baseAddress!, common) } }
        return order != 0 ? order < 0 : a.count < b.count
    }

    /// Whether text `a` comes before text `b` in byte order (its UTF-8 bytes, read where
    /// they lie: no copy of either).
    static func precedes(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }

    /// Whether texts `a` and `b` have the same UTF-8 bytes (Swift's `==` compares
    /// canonical equivalence: "é" and "e" + U+0301 are equal to it, not in a bundle).
    static func same(_ a: String, _ b: String) -> Bool {
        !precedes(a, b) && !precedes(b, a)
    }
}
