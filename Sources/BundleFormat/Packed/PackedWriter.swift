/// Appends integers as LEB128 varints (7 bits a byte, low bits first), and raw bytes: the
/// encoding of every BLOB column of the bundle.
///
/// ```swift
/// var w = PackedWriter()
/// w.unsigned(300)   // 0xAC 0x02
/// w.signed(-2)      // zigzag: 3
/// ```
package struct PackedWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// A value in 0...Int32.max (`PackedReader` refuses anything larger as damage).
    package mutating func unsigned(_ value: Int) { unsigned64(UInt64(bitPattern: Int64(value))) }

    /// Any 64-bit value (a price in small units, a patch's numbers).
    package mutating func unsigned64(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A value in -2^30 ..< 2^30, zigzag-mapped so that small negative numbers stay short.
    package mutating func signed(_ value: Int) {
        let v = Int64(value)
        unsigned(Int(bitPattern: UInt(UInt64(bitPattern: (v << 1) ^ (v >> 63)))))
    }

    package mutating func append<C: Collection>(contentsOf raw: C) where C.Element == UInt8 {
        bytes.append(contentsOf: raw)
    }
}
