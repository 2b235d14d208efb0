import Foundation

/// The byte order of text ids (the order the bundle's lookups and tie-breaks use): UTF-8
/// bytes compared one by one, a prefix first.
enum ByteOrder {
    /// Whether bytes `a` come before bytes `b` (one `memcmp`).
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in order(x, y) < 0 } }
    }

    /// Whether text `a` comes before text `b` in byte order (its UTF-8 bytes, read where
    /// they lie: no copy of either).
    static func precedes(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { x in b.withUTF8 { y in order(x, y) < 0 } }
    }

    /// Whether texts `a` and `b` have the same UTF-8 bytes (Swift's `==` compares
    /// canonical equivalence: "é" and "e" + U+0301 are equal to it, not in a bundle).
    static func same(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && order(x, y) == 0 } }
    }

    /// Below zero when `x` comes first, zero when equal, above zero when after: the common
    /// part by `memcmp`, then the shorter first.
    private static func order(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(x.count, y.count)
        // An empty buffer may have no address: nothing to compare then.
        let bytes = common == 0 ? 0 : Int(memcmp(x.baseAddress!, y.baseAddress!, common))
        return bytes != 0 ? bytes : x.count - y.count
    }
}
