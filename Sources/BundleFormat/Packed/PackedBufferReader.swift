/// `PackedReader` over a buffer the caller holds (`withUnsafeBufferPointer`), for the
/// columns read by the hundred thousand on a first query: the same values and the same
/// `PackedReader.Damaged` errors, without an array access per byte.
///
/// ```swift
/// let values = try bytes.withUnsafeBufferPointer { buffer in
///     var r = PackedBufferReader(buffer)
///     return try (r.unsigned(), r.signed())
/// }
/// ```
package struct PackedBufferReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    package private(set) var offset = 0

    package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    package var isAtEnd: Bool { offset >= bytes.count }

    /// A varint of at most 2^31 - 1, as `PackedReader.unsigned()` (up to ten bytes, bits
    /// past 64 dropped, then bounded).
    @inline(__always)
    package mutating func unsigned() throws -> Int {
        // Most values take one byte (ids and times as differences), many others two.
        if let short = PackedReader.short(in: bytes, at: offset) {
            offset &+= short.length
            return short.value
        }
        return try unsignedSlowly()
    }

    private mutating func unsignedSlowly() throws -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw PackedReader.Damaged() }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        guard value <= UInt64(Int32.max) else { throw PackedReader.Damaged() }
        return Int(value)
    }

    /// A zigzag value, as `PackedReader.signed()`.
    @inline(__always)
    package mutating func signed() throws -> Int {
        let v = try unsigned()
        return v & 1 == 0 ? v >> 1 : -(v >> 1) - 1
    }

    /// A count of things that each take at least a byte, as `PackedReader.count()`.
    @inline(__always)
    package mutating func count() throws -> Int {
        let n = try unsigned()
        guard n <= bytes.count - offset else { throw PackedReader.Damaged() }
        return n
    }

    /// Moves past `count` bytes (their place in the buffer is the offset before).
    package mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= bytes.count - offset else { throw PackedReader.Damaged() }
        offset += count
    }
}
