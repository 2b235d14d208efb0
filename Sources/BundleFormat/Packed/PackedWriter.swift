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
        var rest = value
        repeat {
            let low = UInt8(truncatingIfNeeded: rest & 0x7F)
            rest >>= 7
            bytes.append(rest == 0 ? low : low | 0x80)
        } while rest != 0
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
