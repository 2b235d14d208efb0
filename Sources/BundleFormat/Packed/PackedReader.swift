/// Reads what `PackedWriter` wrote. Every id, count, offset and time the bundle packs fits
/// in 32 bits, so a value outside them, reading past the end or a varint longer than 64
/// bits throws `PackedReader.Damaged` instead of trapping: a damaged bundle is an error, and
/// sums of decoded values cannot overflow.
///
/// ```swift
/// var r = PackedReader([0xAC, 0x02, 0x03])
/// try r.unsigned()  // 300
/// try r.signed()    // -2
/// ```
package struct PackedReader {
    package struct Damaged: Error, CustomStringConvertible {
        package init() {}
        package var description: String { "a packed column of the bundle is damaged" }
    }

    private let bytes: [UInt8]
    package private(set) var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { offset >= bytes.count }

    package mutating func unsigned() throws -> Int {
        let value = try unsigned64()
        guard value <= UInt64(Int32.max) else { throw Damaged() }
        return Int(value)
    }

    /// Any 64-bit varint (for data other than the bundle's packed columns, e.g. a patch).
    @inline(__always)
    package mutating func unsigned64() throws -> UInt64 {
        // Most values take one or two bytes (ids and times as differences).
        if let (value, length) = Self.short(in: bytes, at: offset) {
            offset += length
            return UInt64(value)
        }
        return try unsigned64Slowly()
    }

    /// The varint at `offset` of `bytes` when it takes one or two bytes: its value and
    /// length; nil when it takes more, or the bytes end (the readers then read it slowly).
    /// Both readers' common case, the array's and the pointer's (`PackedBufferReader`).
    @inline(__always)
    static func short<Bytes: RandomAccessCollection>(in bytes: Bytes, at offset: Int) -> (value: Int, length: Int)?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard offset < bytes.endIndex else { return nil }
        let first = bytes[offset]
        if first < 0x80 { return (Int(first), 1) }
        guard offset + 1 < bytes.endIndex, bytes[offset + 1] < 0x80 else { return nil }
        return (Int(first & 0x7F) | Int(bytes[offset + 1]) << 7, 2)
    }

    private mutating func unsigned64Slowly() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw Damaged() }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// An optional id written as id + 1 (0: none); at most 2^31 - 3, so that the id plus one
    /// fits in 32 bits.
    package mutating func optional() throws -> Int? {
        let value = try unsigned()
        guard value < Int(Int32.max) else { throw Damaged() }
        return value == 0 ? nil : value - 1
    }

    /// The number of things that follow, each at least one byte long: never more than the
    /// bytes left, so a damaged count cannot make a reader reserve gigabytes.
    package mutating func count() throws -> Int {
        let n = try unsigned()
        guard n <= bytes.count - offset else { throw Damaged() }
        return n
    }

    /// A zigzag value: -2^30 ... 2^30 - 1 (what fits in an unsigned 32-bit-bounded varint).
    package mutating func signed() throws -> Int {
        let v = try unsigned()
        return v & 1 == 0 ? v >> 1 : -(v >> 1) - 1
    }

    /// Whether `value` lies in -2^31 + 1 ... 2^31 - 2, so that it and the value plus one
    /// fit in an `Int32` (records of decoded columns store optional ids as id + 1).
    @inline(__always)
    package static func fits32(_ value: Int) -> Bool { value > Int(Int32.min) && value < Int(Int32.max) }

    /// The next `count` bytes.
    package mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw Damaged() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}
