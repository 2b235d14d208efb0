/// What a feed's GTFS fares v2 files say (fare_media, rider_categories, fare_products,
/// areas, stop_areas, networks, route_networks or routes.network_id, timeframes,
/// fare_leg_rules, fare_transfer_rules), each row checked against the files read before
/// it. The files are small, so ids stay text; stops, routes and services are local ids.
struct FareProductData {
    struct Medium {
        var id: String
        var name: String?
        var type: Int
    }

    struct RiderCategory {
        var id: String
        var name: String
        var isDefault: Bool
        var eligibilityURL: String?
    }

    /// A row of fare_products.txt: one product for one rider category and medium (nil: any).
    struct Product {
        var id: String
        var name: String?
        var riderCategory: String?
        var medium: String?
        /// A decimal in the currency's units, possibly negative (a discount).
        var amount: String
        var currency: String
    }

    struct Timeframe {
        var group: String
        /// Seconds after local midnight: start included, end excluded.
        var start: Int
        var end: Int
        var service: Int32
    }

    struct LegRule {
        var legGroup: String?
        var network: String?
        var fromArea: String?
        var toArea: String?
        var fromTimeframe: String?
        var toTimeframe: String?
        var product: String
        /// nil when the file has no rule_priority column (empty semantics apply), else the
        /// value (empty: 0).
        var priority: Int?
    }

    struct TransferRule {
        var fromLegGroup: String?
        var toLegGroup: String?
        /// -1: no limit; nil when the groups differ.
        var transferCount: Int?
        var durationLimit: Int?
        var durationLimitType: Int?
        var transferType: Int
        /// nil: the transfer costs nothing.
        var product: String?
    }

    var media: [Medium] = []
    var mediumIDs = Set<String>()
    var riderCategories: [RiderCategory] = []
    var riderCategoryIDs = Set<String>()
    var products: [Product] = []
    var productIDs = Set<String>()
    var areaIDs = Set<String>()
    /// stop_areas.txt rows: an area and a local stop id (a station stands for its platforms).
    var stopAreas: [(area: String, stop: Int32)] = []
    var networkIDs = Set<String>()
    /// Each route's network (local route id -> network_id), from routes.txt's network_id or
    /// route_networks.txt.
    var routeNetworks: [Int32: String] = [:]
    /// Whether routes.txt has a network_id column (then networks.txt and route_networks.txt
    /// are forbidden).
    var routesNameNetworks = false
    var timeframes: [Timeframe] = []
    var timeframeGroups = Set<String>()
    var legRules: [LegRule] = []
    var legGroups = Set<String>()
    var transferRules: [TransferRule] = []

    /// Whether the feed prices anything with fares v2.
    var isEmpty: Bool { legRules.isEmpty }
}
