import BundleFormat
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

    /// `units` x 10^-`exponent` as an amount: below a billion in size with an exponent of 0
    /// to 9, nil otherwise (a damaged bundle's could overflow a sum of fares).
    static func amount(units: Int, exponent: Int) -> Decimal? {
        guard (0...9).contains(exponent), units.magnitude < 1_000_000_000_000_000_000 else { return nil }
        let value = Decimal(sign: units < 0 ? .minus : .plus, exponent: -exponent, significand: Decimal(units.magnitude))
        return value.magnitude < 1_000_000_000 ? value : nil
    }

    /// The most fare classes and fare rules a feed may have (a fare per pair of stations of
    /// a network of 300 is 90,000): more is a damaged bundle, refused as it is read.
    static let maxFares = 200_000
    static let maxRules = 2_000_000

    /// Reads feed `fid`'s fares (`fare_classes`, `currencies`, `fare_zone_names`,
    /// `fare_zones`; none when the bundle lacks them).
    init(fid: Int, db: SQLiteDatabase) throws {
        var classes: [FareClassesBlob.FareClass] = []
        if try db.hasTable("fare_classes") {
            let row = try db.prepare("SELECT fares FROM fare_classes WHERE fid = ?1")
            row.bind([fid])
            if try row.step() {
                classes = try PatternCache.damagedAsError("the fare classes of feed \(fid)") {
                    try FareClassesBlob.decode(row.blob(0), maxFares: Self.maxFares, maxRules: Self.maxRules)
                }
            }
        }
        // Currencies and zones by number; a number none has (a damaged bundle) leaves the
        // fare or the rule out.
        var currencies: [Int: (code: String, exponent: Int)] = [:]
        if !classes.isEmpty, try db.hasTable("currencies") {
            let rows = try db.prepare("SELECT currency, code, exponent FROM currencies")
            while try rows.step() {
                if (0...9).contains(rows.int(2)) { currencies[rows.int(0)] = (rows.string(1), rows.int(2)) }
            }
        }
        var zoneNames: [Int: String] = [:]
        if !classes.isEmpty, try db.hasTable("fare_zone_names") {
            let rows = try db.prepare("SELECT zone, zone_id FROM fare_zone_names WHERE fid = ?1")
            rows.bind([fid])
            while try rows.step() { zoneNames[rows.int(0)] = rows.string(1) }
        }
        var agencyIDs: [Int: String] = [:]
        let agencies = try db.prepare("SELECT aid, agency_id FROM agencies WHERE fid = ?1")
        agencies.bind([fid])
        while try agencies.step() { agencyIDs[agencies.int(0)] = agencies.string(1) }
        var routeIDs: [Int: String] = [:]
        if classes.contains(where: { $0.rules.contains { $0.rid != nil } }) {
            let routes = try db.prepare("SELECT rid, route_id FROM dict_route WHERE fid = ?1")
            routes.bind([fid])
            while try routes.step() { routeIDs[routes.int(0)] = routes.string(1) }
        }
        var fares: [FareClass] = []
        // Each fare's rows, in the file's order (a row naming what the bundle lacks is left out).
        var rowsOfFare: [[(route: String?, origin: String?, destination: String?, contains: String?)]] = []
        for fare in classes {
            guard let currency = currencies[fare.currency], let price = Self.amount(units: Int(fare.units), exponent: currency.exponent)
            else { continue }
            let rows = fare.rules.compactMap { rule -> (route: String?, origin: String?, destination: String?, contains: String?)? in
                func zone(_ number: Int?) -> String?? { number.map { zoneNames[$0] } ?? .some(nil) }
                guard let route = rule.rid.map({ routeIDs[$0] }) ?? .some(nil), let origin = zone(rule.origin),
                    let destination = zone(rule.destination), let contains = zone(rule.contains)
                else { return nil }
                return (route, origin, destination, contains)
            }
            // Without its rows a fare would price every ride.
            guard rows.count == fare.rules.count else { continue }
            fares.append(
                FareClass(
                    fareID: fare.fareID, price: price, currency: currency.code, paymentMethod: fare.paymentMethod,
                    transfers: fare.transfers, agencyID: fare.aid.flatMap { agencyIDs[$0] }, transferDuration: fare.transferDuration,
                    rules: []))
            rowsOfFare.append(rows)
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
        for (index, rows) in rowsOfFare.enumerated() {
            for row in rows {
                let key = RowKey(fare: index, route: row.route, origin: row.origin, destination: row.destination)
                if contained[key] == nil {
                    contained[key] = []
                    order.append(key)
                }
                if let zone = row.contains { contained[key]!.insert(zone) }
            }
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
            let index = key.fare
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
        if !zoneNames.isEmpty, try db.hasTable("fare_zones") {
            let zoneRows = try db.prepare("SELECT s.stop_id, z.zone FROM fare_zones z JOIN stops s ON s.sid = z.sid WHERE s.fid = ?1")
            zoneRows.bind([fid])
            while try zoneRows.step() {
                if let zone = zoneNames[zoneRows.int(1)] { zones[zoneRows.string(0)] = zone }
            }
        }
        self.fares = fares
        self.zones = zones
        usesContains = fares.contains { $0.rules.contains { !$0.contains.isEmpty } }
        isUsable = Set(fares.map(\.currency)).count == 1
    }
}
