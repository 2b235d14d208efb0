import BundleFormat
import Foundation

/// Parses GTFS field values straight from bytes.
enum FieldParser {
    /// `H:MM:SS` or `HH:MM:SS` (hours may pass 24 and 48) to seconds; nil when malformed.
    static func time(_ f: UnsafeBufferPointer<UInt8>) -> Int32? {
        let n = f.count
        guard n >= 7, n <= 9, f[n - 3] == 0x3A, f[n - 6] == 0x3A else { return nil }
        var hours: Int32 = 0
        for i in 0..<(n - 6) {
            let d = Int32(f[i]) - 48
            guard d >= 0 && d <= 9 else { return nil }
            hours = hours * 10 + d
        }
        guard let m1 = digit(f[n - 5]), let m2 = digit(f[n - 4]), let s1 = digit(f[n - 2]), let s2 = digit(f[n - 1]) else { return nil }
        let minutes = m1 * 10 + m2
        let seconds = s1 * 10 + s2
        guard minutes < 60, seconds < 60 else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// `YYYYMMDD` to the same integer, when it names a real date.
    static func date(_ f: UnsafeBufferPointer<UInt8>) -> Int? {
        guard f.count == 8, let value = integer(f), CivilDate(yyyymmdd: value) != nil else { return nil }
        return value
    }

    /// A decimal integer with optional sign.
    static func integer(_ f: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !f.isEmpty, f.count <= 18 else { return nil }
        var i = 0
        var negative = false
        if f[0] == 0x2D || f[0] == 0x2B {
            negative = f[0] == 0x2D
            i = 1
        }
        guard i < f.count else { return nil }
        var value = 0
        while i < f.count {
            guard let d = digit(f[i]) else { return nil }
            value = value * 10 + Int(d)
            i += 1
        }
        return negative ? -value : value
    }

    /// A decimal number (coordinates, distances).
    static func double(_ f: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !f.isEmpty, f.count < 64 else { return nil }
        var copy = [CChar](repeating: 0, count: f.count + 1)
        for i in 0..<f.count { copy[i] = CChar(bitPattern: f[i]) }
        let (value, consumed): (Double, Int) = copy.withUnsafeMutableBufferPointer { buffer in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            return (value, end.map { $0 - buffer.baseAddress! } ?? 0)
        }
        guard consumed == f.count, value.isFinite else { return nil }
        return value
    }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int32? {
        byte >= 0x30 && byte <= 0x39 ? Int32(byte - 0x30) : nil
    }
}
