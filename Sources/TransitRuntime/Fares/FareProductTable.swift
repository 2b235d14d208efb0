import Foundation
import TransitSQLite

/// One feed's GTFS fares v2 as the pricer reads them: products, leg and transfer rules,
/// timeframes, and its stops' areas and routes' networks, with the values each rule column
/// names (an empty field matches the others). Read from the bundle once per feed.
struct FareProductTable: Sendable {
    /// A fare_products.txt row: the product for one rider category and medium (nil: any).
    struct Product: Sendable {
        var id: String
        var name: String?
        var riderCategory: String?
        var medium: String?
        var amount: Decimal
        var currency: String
    }

    struct LegRule: Sendable {
        var legGroup: String?
        var network: String?
        var fromArea: String?
        var toArea: String?
        var fromTimeframe: String?
        var toTimeframe: String?
        var product: String
        var priority: Int
    }

    struct TransferRule: Sendable {
        var fromLegGroup: String?
        var toLegGroup: String?
        /// -1 no limit; nil: the groups differ (one change).
        var transferCount: Int?
        var durationLimit: Int?
        var durationLimitType: Int
        var transferType: Int
        var product: String?
    }

    struct Timeframe: Sendable {
        var start: Int
        var end: Int
        var sv: Int
    }

    var products: [String: [Product]] = [:]
    var legRules: [LegRule] = []
    /// Whether fare_leg_rules.txt has a rule_priority column: then an empty field matches
    /// any value; without it, an empty field matches only values no rule of the file names.
    var usesPriority = false
    var namedNetworks = Set<String>()
    var namedFromAreas = Set<String>()
    var namedToAreas = Set<String>()
    var transferRules: [TransferRule] = []
    var namedFromGroups = Set<String>()
    var namedToGroups = Set<String>()
    var timeframes: [String: [Timeframe]] = [:]
    /// Rider categories marked is_default_fare_category.
    var defaultCategories = Set<String>()
    /// route_id -> network_id.
    var networks: [String: String] = [:]
    /// stop_id -> its areas.
    var areas: [String: Set<String>] = [:]

    /// Whether the feed prices with fares v2 (it has leg rules).
    var isEmpty: Bool { legRules.isEmpty }

    /// The most rows a feed may have in each fares v2 table: more is a damaged bundle,
    /// refused before they are read.
    static let maxRows = 500_000

    /// Reads feed `fid`'s fares v2 (empty for a feed without them).
    init(fid: Int, db: SQLiteDatabase) throws {
        // Each table is optional (BundleSchema.optionalTables): one the bundle lacks has no rows.
        var present = Set<String>()
        for table in [
            "fare_ids", "fare_leg_rules", "fare_products", "fare_transfer_rules", "timeframes", "rider_categories", "route_networks",
            "stop_areas",
        ] {
            if try db.hasTable(table) { present.insert(table) }
        }
        guard present.contains("fare_leg_rules"), present.contains("fare_ids") else { return }
        for table in ["fare_leg_rules", "fare_products", "fare_transfer_rules", "timeframes"] where present.contains(table) {
            // The names are this list's, never input.
            let count = try db.prepare("SELECT COUNT(*) FROM \(table) WHERE fid = ?1")
            count.bind([fid])
            if try count.step(), count.int(0) > Self.maxRows {
                throw TransitError.corruptBundle(reason: "\(table): feed \(fid) has \(count.int(0)) rows (at most \(Self.maxRows))")
            }
        }
        let legs = try db.prepare(
            """
            SELECT \(Self.text("leg_group_id")), \(Self.text("network_id")), \(Self.text("from_area_id")), \(Self.text("to_area_id")), \(Self.text("from_timeframe_group_id")),
              \(Self.text("to_timeframe_group_id")), \(Self.text("fare_product_id")), rule_priority FROM fare_leg_rules WHERE fid = ?1 ORDER BY rule
            """)
        legs.bind([fid])
        while try legs.step() {
            if !legs.isNull(7) { usesPriority = true }
            let rule = LegRule(
                legGroup: legs.optionalString(0), network: legs.optionalString(1), fromArea: legs.optionalString(2),
                toArea: legs.optionalString(3), fromTimeframe: legs.optionalString(4), toTimeframe: legs.optionalString(5),
                product: legs.string(6), priority: legs.isNull(7) ? 0 : legs.int(7))
            if let n = rule.network { namedNetworks.insert(n) }
            if let a = rule.fromArea { namedFromAreas.insert(a) }
            if let a = rule.toArea { namedToAreas.insert(a) }
            legRules.append(rule)
        }
        guard !legRules.isEmpty else { return }
        if present.contains("fare_products") { try readProducts(fid: fid, db: db) }
        if present.contains("fare_transfer_rules") { try readTransferRules(fid: fid, db: db) }
        if present.contains("timeframes") { try readTimeframes(fid: fid, db: db) }
        if present.contains("rider_categories") {
            let categories = try db.prepare(
                "SELECT \(Self.text("rider_category_id")) FROM rider_categories WHERE fid = ?1 AND is_default_fare_category = 1")
            categories.bind([fid])
            while try categories.step() { defaultCategories.insert(categories.string(0)) }
        }
        if present.contains("route_networks") {
            let routes = try db.prepare(
                "SELECT d.route_id, \(Self.text("n.network_id")) FROM route_networks n JOIN dict_route d ON d.rid = n.rid WHERE d.fid = ?1")
            routes.bind([fid])
            while try routes.step() { networks[routes.string(0)] = routes.string(1) }
        }
        if present.contains("stop_areas") {
            let stops = try db.prepare(
                "SELECT s.stop_id, \(Self.text("a.area_id")) FROM stop_areas a JOIN stops s ON s.sid = a.sid WHERE s.fid = ?1")
            stops.bind([fid])
            while try stops.step() { areas[stops.string(0), default: []].insert(stops.string(1)) }
        }
    }

    private mutating func readProducts(fid: Int, db: SQLiteDatabase) throws {
        let products = try db.prepare(
            """
            SELECT \(Self.text("p.fare_product_id")), p.fare_product_name, \(Self.text("p.rider_category_id")), \(Self.text("p.fare_media_id")), p.amount, c.code, c.exponent
            FROM fare_products p LEFT JOIN currencies c ON c.currency = p.currency WHERE p.fid = ?1 ORDER BY p.product
            """)
        products.bind([fid])
        while try products.step() {
            // An amount of a currency the bundle lacks, or of a billion or more (a damaged
            // bundle), leaves the row out.
            guard let code = products.optionalString(5), let amount = FareTable.amount(units: products.int(4), exponent: products.int(6))
            else { continue }
            let id = products.string(0)
            self.products[id, default: []].append(
                Product(
                    id: id, name: products.optionalString(1), riderCategory: products.optionalString(2),
                    medium: products.optionalString(3), amount: amount, currency: code))
        }
    }

    private mutating func readTransferRules(fid: Int, db: SQLiteDatabase) throws {
        let transfers = try db.prepare(
            """
            SELECT \(Self.text("from_leg_group_id")), \(Self.text("to_leg_group_id")), transfer_count, duration_limit, duration_limit_type, fare_transfer_type,
              \(Self.text("fare_product_id")) FROM fare_transfer_rules WHERE fid = ?1 ORDER BY rule
            """)
        transfers.bind([fid])
        while try transfers.step() {
            let rule = TransferRule(
                fromLegGroup: transfers.optionalString(0), toLegGroup: transfers.optionalString(1),
                transferCount: transfers.isNull(2) ? nil : transfers.int(2), durationLimit: transfers.isNull(3) ? nil : transfers.int(3),
                durationLimitType: transfers.isNull(4) ? 0 : transfers.int(4), transferType: transfers.int(5),
                product: transfers.optionalString(6))
            if let g = rule.fromLegGroup { namedFromGroups.insert(g) }
            if let g = rule.toLegGroup { namedToGroups.insert(g) }
            transferRules.append(rule)
        }
    }

    private mutating func readTimeframes(fid: Int, db: SQLiteDatabase) throws {
        let frames = try db.prepare("SELECT \(Self.text("timeframe_group_id")), start_time, end_time, sv FROM timeframes WHERE fid = ?1")
        frames.bind([fid])
        while try frames.step() {
            // A service id no service has (a damaged bundle) never runs.
            guard frames.int(3) >= 0 else { continue }
            timeframes[frames.string(0), default: []].append(Timeframe(start: frames.int(1), end: frames.int(2), sv: frames.int(3)))
        }
    }

    /// SQL for the text of the fare id in `column` (a column name of this file, never input):
    /// NULL for none, and for a number `fare_ids` lacks (a damaged bundle) a text no feed
    /// writes, so that it matches nothing rather than everything.
    static func text(_ column: String) -> String {
        "coalesce((SELECT text FROM fare_ids WHERE id = \(column)), CASE WHEN \(column) IS NULL THEN NULL ELSE char(0) END)"
    }

    /// The cheapest row of product `id` a rider of `options` may use: of their category (or
    /// any rider's; without a category asked, the feed's default category's), on their
    /// medium when one is asked (or a row that names none). nil when there is none.
    func price(of id: String, for options: FareOptions) -> Product? {
        let rows = (products[id] ?? []).filter { row in
            if let category = row.riderCategory {
                if let asked = options.riderCategoryID {
                    guard category == asked else { return false }
                } else {
                    guard defaultCategories.contains(category) else { return false }
                }
            }
            if let asked = options.fareMediaID, let medium = row.medium, medium != asked { return false }
            return true
        }
        return rows.min { $0.amount < $1.amount }
    }
}
