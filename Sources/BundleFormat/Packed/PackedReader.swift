/// Reads what `PackedWriter` wrote. Reading past the end or a varint longer than 64 bits
/// throws `PackedReader.Damaged` instead of trapping, so a damaged bundle is an error.
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
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw Damaged() }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return Int(truncatingIfNeeded: result) }
            shift += 7
        }
    }

    package mutating func signed() throws -> Int {
        let v = UInt64(bitPattern: Int64(try unsigned()))
        return Int(truncatingIfNeeded: Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
    }

    /// The next `count` bytes.
    package mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw Damaged() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}
