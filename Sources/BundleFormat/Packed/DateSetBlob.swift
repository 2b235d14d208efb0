/// A set of service dates, as the `service_dates.added` and `.removed` columns store it:
/// whichever of two codings is smaller.
///
/// ```
/// kind        0: a list (dates as gaps), 1: a bitmap
/// first       the first date, as days since 1970-01-01
/// list:       count of the dates after the first, then each as days after the one before (>= 1)
/// bitmap:     the span in days (last - first + 1), then span / 8 bytes rounded up, bit i (low
///             bit first) set when first + i is a date
/// ```
///
/// A service of a year's weekdays costs a 46-byte bitmap (260 dates: under 0.2 byte a date);
/// a few holidays, a short list. An empty set is no bytes at all.
package enum DateSetBlob {
    /// `days` (days since 1970-01-01) coded; duplicates count once.
    package static func encode(_ days: [Int]) -> [UInt8] {
        let sorted = Array(Set(days)).sorted()
        guard let first = sorted.first, let last = sorted.last else { return [] }
        var list = PackedWriter()
        list.unsigned(0)
        list.unsigned(first)
        list.unsigned(sorted.count - 1)
        for (a, b) in zip(sorted, sorted.dropFirst()) { list.unsigned(b - a) }
        let span = last - first + 1
        var map = PackedWriter()
        map.unsigned(1)
        map.unsigned(first)
        map.unsigned(span)
        var bits = [UInt8](repeating: 0, count: (span + 7) / 8)
        for day in sorted { bits[(day - first) / 8] |= 1 << UInt8((day - first) % 8) }
        map.append(contentsOf: bits)
        return map.bytes.count < list.bytes.count ? map.bytes : list.bytes
    }

    /// The dates of a coded set, ascending.
    /// - Throws: `PackedReader.Damaged` for bytes that are not a date set.
    package static func decode(_ bytes: [UInt8]) throws -> [Int] {
        guard !bytes.isEmpty else { return [] }
        var r = PackedReader(bytes)
        let kind = try r.unsigned()
        var day = try r.unsigned()
        var days = [day]
        switch kind {
        case 0:
            let count = try r.count()
            days.reserveCapacity(count + 1)
            for _ in 0..<count {
                let gap = try r.unsigned()
                guard gap > 0 else { throw PackedReader.Damaged() }
                day += gap
                days.append(day)
            }
        case 1:
            let span = try r.unsigned()
            let bits = try r.bytes((span + 7) / 8)
            guard span > 0, bits.first.map({ $0 & 1 == 1 }) == true else { throw PackedReader.Damaged() }
            days = []
            for (index, byte) in bits.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << UInt8(bit)) != 0 && index * 8 + bit < span { days.append(day + index * 8 + bit) }
            }
        default:
            throw PackedReader.Damaged()
        }
        guard r.isAtEnd else { throw PackedReader.Damaged() }
        return days
    }
}
