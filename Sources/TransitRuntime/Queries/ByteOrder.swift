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
}
