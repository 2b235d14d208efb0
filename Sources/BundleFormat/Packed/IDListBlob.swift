/// A sorted list of distinct integer ids (`route_patterns.pids`): the first id, then each
/// minus the one before, as unsigned varints. Neighbouring ids take one byte each.
///
/// ```swift
/// IDListBlob.encode([3, 4, 10])  // [3, 1, 6]
/// ```
package enum IDListBlob {
    /// `ids` ascending, each once.
    package static func encode(_ ids: [Int]) -> [UInt8] {
        var w = PackedWriter()
        var previous = 0
        for id in Set(ids).sorted() {
            w.unsigned(id - previous)
            previous = id
        }
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws -> [Int] {
        var r = PackedReader(bytes)
        var ids: [Int] = []
        var id = 0
        while !r.isAtEnd {
            id += try r.unsigned()
            guard id <= Int(Int32.max) else { throw PackedReader.Damaged() }
            ids.append(id)
        }
        return ids
    }
}
