import Foundation
import TransitSQLite

/// One feed's fares v1 as the pricer reads them: its fare classes with their rules grouped
/// as docs/journey-semantics.md ("Fares") defines, its stops' zones and its routes'
/// agencies. Read from the bundle once per feed, on the first journey priced.
struct FareTable: Sendable {
    /// The rows of one fare with the same origin, destination and contained zones: the
    /// routes they name (`routes` nil: any route).
    struct Rule: Sendable {
        var routes: Set<String>?
        var origin: String?
        var destination: String?
        /// The zones a ride must pass through, exactly (empty: any).
        var contains: Set<String>
    }

    struct FareClass: Sendable {
        var fareID: String
        var price: Decimal
        var currency: String
        var paymentMethod: Int
        /// The changes it allows (nil: unlimited).
        var transfers: Int?
        var agencyID: String?
        /// Seconds from the first boarding within which the last boarding must fall.
        var transferDuration: Int?
        /// Empty: the fare applies to every ride (of its agency, when it names one).
        var rules: [Rule]
    }

    var fares: [FareClass]
    /// Whether some rule names contained zones (only then are a ride's stops read).
    var usesContains: Bool
    /// stop_id -> zone_id, for feeds whose rules name zones.
    var zones: [String: String]
    /// Whether the fares can price anything: false for a feed without fares or with fares
    /// in several currencies (their amounts cannot be compared).
    var isUsable: Bool

    /// `text` as an amount: a decimal of at most a billion in size, nil otherwise (a
    /// damaged bundle's "9e127" would overflow a sum of fares into NaN).
    static func amount(_ text: String) -> Decimal? {
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), value.isFinite,
            value.magnitude < 1_000_000_000
        else { return nil }
        return value
    }

    /// The most fare classes and fare rules a feed may have (a fare per pair of stations of
    /// a network of 300 is 90,000): more is a damaged bundle, refused before they are read.
    static let maxFares = 200_000
    static let maxRules = 2_000_000

    /// Reads feed `fid`'s fares.
    init(fid: Int, db: SQLiteDatabase) throws {
        for (table, limit, sql) in [
            ("fare_attributes", Self.maxFares, "SELECT COUNT(*) FROM fare_attributes WHERE fid = ?1"),
            ("fare_rules", Self.maxRules, "SELECT COUNT(*) FROM fare_rules r JOIN fare_attributes f ON f.fare = r.fare WHERE f.fid = ?1"),
        ] {
            let count = try db.prepare(sql)
            count.bind([fid])
            if try count.step(), count.int(0) > limit {
                throw TransitError.corruptBundle(reason: "\(table): feed \(fid) has \(count.int(0)) rows (at most \(limit))")
            }
        }
        var fares: [FareClass] = []
        var indexOfFare: [Int: Int] = [:]
        let attributes = try db.prepare(
            """
            SELECT f.fare, f.fare_id, f.price, f.currency, f.payment_method, f.transfers, g.agency_id, f.transfer_duration
            FROM fare_attributes f LEFT JOIN agencies g ON g.aid = f.aid WHERE f.fid = ?1 ORDER BY f.fare
            """)
        attributes.bind([fid])
        while try attributes.step() {
            // A price that does not read as a decimal (a damaged bundle) leaves the fare out.
            guard let price = Self.amount(attributes.string(2)), price >= 0 else { continue }
            indexOfFare[attributes.int(0)] = fares.count
            fares.append(
                FareClass(
                    fareID: attributes.string(1), price: price, currency: attributes.string(3), paymentMethod: attributes.int(4),
                    transfers: attributes.isNull(5) ? nil : attributes.int(5), agencyID: attributes.optionalString(6),
                    transferDuration: attributes.isNull(7) ? nil : attributes.int(7), rules: []))
        }
        // Rows grouped twice: the contained zones of the rows alike in fare, route, origin and
        // destination; then the routes of the groups alike in fare, origin, destination and zones.
        struct RowKey: Hashable {
            var fare: Int
            var route: String?
            var origin: String?
            var destination: String?
        }
        var contained: [RowKey: Set<String>] = [:]
        var order: [RowKey] = []
        let rows = try db.prepare(
            """
            SELECT r.fare, d.route_id, r.origin_id, r.destination_id, r.contains_id
            FROM fare_rules r JOIN fare_attributes f ON f.fare = r.fare LEFT JOIN dict_route d ON d.rid = r.rid
            WHERE f.fid = ?1 ORDER BY r.rule
            """)
        rows.bind([fid])
        while try rows.step() {
            guard indexOfFare[rows.int(0)] != nil else { continue }
            let key = RowKey(
                fare: rows.int(0), route: rows.optionalString(1), origin: rows.optionalString(2), destination: rows.optionalString(3))
            if contained[key] == nil {
                contained[key] = []
                order.append(key)
            }
            if let zone = rows.optionalString(4) { contained[key]!.insert(zone) }
        }
        // A fare's rule of an origin, destination and zones, found by them (a search of the
        // fare's rules for each key was quadratic in a fare's rows).
        struct RuleKey: Hashable {
            var fare: Int
            var origin: String?
            var destination: String?
            var contains: Set<String>
        }
        var ruleOf: [RuleKey: Int] = [:]
        for key in order {
            let index = indexOfFare[key.fare]!
            let zones = contained[key]!
            let ruleKey = RuleKey(fare: index, origin: key.origin, destination: key.destination, contains: zones)
            if let same = ruleOf[ruleKey] {
                if let route = key.route {
                    fares[index].rules[same].routes?.insert(route)
                } else {
                    fares[index].rules[same].routes = nil
                }
            } else {
                ruleOf[ruleKey] = fares[index].rules.count
                fares[index].rules.append(
                    Rule(routes: key.route.map { [$0] }, origin: key.origin, destination: key.destination, contains: zones))
            }
        }
        var zones: [String: String] = [:]
        let zoneRows = try db.prepare(
            "SELECT s.stop_id, z.zone_id FROM fare_zones z JOIN stops s ON s.sid = z.sid WHERE s.fid = ?1")
        zoneRows.bind([fid])
        while try zoneRows.step() { zones[zoneRows.string(0)] = zoneRows.string(1) }
        self.fares = fares
        self.zones = zones
        usesContains = fares.contains { $0.rules.contains { !$0.contains.isEmpty } }
        isUsable = Set(fares.map(\.currency)).count == 1
    }
}
