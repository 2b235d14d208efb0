/// One feed's GTFS fares v1 (`fare_classes.fares`): its fare classes in byte order of
/// `fare_id`, each with its fare_rules.txt rows in the file's order. Packed, a fare class and
/// its one rule take about 14 bytes where the two CSV rows take 36 (BART).
///
/// A fare class is its id (length, then UTF-8 bytes), its price in units of
/// 10^-exponent of its currency (`currencies`), the currency's number, one byte of flags
/// (bit 0: payment_method; bits 1-2: transfers 0, 1, 2 or 3 for unlimited; bit 3: an agency
/// follows; bit 4: a transfer_duration follows), the agency's `aid` and the duration when
/// flagged, then its rule count and each rule as four optional numbers (id + 1, 0 for none):
/// `rid`, origin, destination and contained zone (`fare_zone_names`).
///
/// ```swift
/// let bytes = FareClassesBlob.encode([fare])
/// let fares = try FareClassesBlob.decode(bytes, maxFares: 200_000, maxRules: 2_000_000)
/// ```
package enum FareClassesBlob {
    /// A fare_rules.txt row: nil matches any route or zone.
    package struct Rule: Equatable, Sendable {
        package var rid: Int?
        package var origin: Int?
        package var destination: Int?
        package var contains: Int?

        package init(rid: Int?, origin: Int?, destination: Int?, contains: Int?) {
            (self.rid, self.origin, self.destination, self.contains) = (rid, origin, destination, contains)
        }
    }

    /// A fare_attributes.txt row with its rules.
    package struct FareClass: Equatable, Sendable {
        package var fareID: String
        /// The price in units of 10^-exponent of the currency.
        package var units: Int64
        /// The currency's number in `currencies`.
        package var currency: Int
        /// 0 paid on board, 1 before boarding.
        package var paymentMethod: Int
        /// 0, 1 or 2; nil for unlimited.
        package var transfers: Int?
        package var aid: Int?
        package var transferDuration: Int?
        package var rules: [Rule]

        package init(
            fareID: String, units: Int64, currency: Int, paymentMethod: Int, transfers: Int?, aid: Int?, transferDuration: Int?,
            rules: [Rule]
        ) {
            (self.fareID, self.units, self.currency, self.paymentMethod) = (fareID, units, currency, paymentMethod)
            (self.transfers, self.aid, self.transferDuration, self.rules) = (transfers, aid, transferDuration, rules)
        }
    }

    /// The largest price in units (a billion in units of 10^-9).
    package static let maxUnits: Int64 = 1_000_000_000_000_000_000

    package static func encode(_ fares: [FareClass]) -> [UInt8] {
        var w = PackedWriter()
        w.unsigned(fares.count)
        for fare in fares {
            let id = Array(fare.fareID.utf8)
            w.unsigned(id.count)
            w.append(contentsOf: id)
            w.unsigned64(UInt64(fare.units))
            w.unsigned(fare.currency)
            var flags = fare.paymentMethod & 1
            flags |= (fare.transfers.map { min(2, max(0, $0)) } ?? 3) << 1
            if fare.aid != nil { flags |= 1 << 3 }
            if fare.transferDuration != nil { flags |= 1 << 4 }
            w.unsigned(flags)
            if let aid = fare.aid { w.unsigned(aid) }
            if let duration = fare.transferDuration { w.unsigned(duration) }
            w.unsigned(fare.rules.count)
            for rule in fare.rules {
                for value in [rule.rid, rule.origin, rule.destination, rule.contains] { w.unsigned(value.map { $0 + 1 } ?? 0) }
            }
        }
        return w.bytes
    }

    /// The fare classes of `bytes`; throws `PackedReader.Damaged` for bytes `encode` cannot
    /// have written, or more than `maxFares` fares or `maxRules` rules in all.
    package static func decode(_ bytes: [UInt8], maxFares: Int, maxRules: Int) throws -> [FareClass] {
        var r = PackedReader(bytes)
        let count = try r.count()
        guard count <= maxFares else { throw PackedReader.Damaged() }
        var fares: [FareClass] = []
        fares.reserveCapacity(count)
        var rulesLeft = maxRules
        for _ in 0..<count {
            let idLength = try r.unsigned()
            guard idLength <= BundleLimits.maxTextBytes else { throw PackedReader.Damaged() }
            let fareID = String(decoding: try r.bytes(idLength), as: UTF8.self)
            let units = try r.unsigned64()
            guard units <= UInt64(maxUnits) else { throw PackedReader.Damaged() }
            let currency = try r.unsigned()
            let flags = try r.unsigned()
            guard flags < 1 << 5 else { throw PackedReader.Damaged() }
            let transfers = (flags >> 1) & 3
            let aid = flags & (1 << 3) != 0 ? try r.unsigned() : nil
            let duration = flags & (1 << 4) != 0 ? try r.unsigned() : nil
            let ruleCount = try r.count()
            guard ruleCount <= rulesLeft else { throw PackedReader.Damaged() }
            rulesLeft -= ruleCount
            var rules: [Rule] = []
            rules.reserveCapacity(ruleCount)
            for _ in 0..<ruleCount {
                rules.append(
                    Rule(rid: try r.optional(), origin: try r.optional(), destination: try r.optional(), contains: try r.optional()))
            }
            fares.append(
                FareClass(
                    fareID: fareID, units: Int64(units), currency: currency, paymentMethod: flags & 1,
                    transfers: transfers == 3 ? nil : transfers, aid: aid, transferDuration: duration, rules: rules))
        }
        guard r.isAtEnd else { throw PackedReader.Damaged() }
        return fares
    }
}
