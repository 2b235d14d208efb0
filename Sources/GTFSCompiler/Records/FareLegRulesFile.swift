/// fare_leg_rules.txt (GTFS fares v2): which fare product a leg needs, by its route's
/// network, its departure and arrival areas and the timeframes of its boarding and
/// alighting. A row naming anything unknown is dropped: kept, it would match legs it was
/// never meant for.
enum FareLegRulesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["fare_product_id"]) else { return }
        let group = t.column("leg_group_id")
        let network = t.column("network_id")
        let fromArea = t.column("from_area_id")
        let toArea = t.column("to_area_id")
        let fromTimeframe = t.column("from_timeframe_group_id")
        let toTimeframe = t.column("to_timeframe_group_id")
        let product = t.column("fare_product_id")
        let priority = t.column("rule_priority")
        let data = feed.fareProducts
        let references: [(column: Int, known: Set<String>, file: String)] = [
            (network, data.networkIDs, data.routesNameNetworks ? "routes.txt" : "networks.txt"),
            (fromArea, data.areaIDs, "areas.txt"), (toArea, data.areaIDs, "areas.txt"),
            (fromTimeframe, data.timeframeGroups, "timeframes.txt"), (toTimeframe, data.timeframeGroups, "timeframes.txt"),
        ]
        while try t.next() {
            guard let key = t.requiredID(product, "fare_product_id") else { continue }
            let productID = String(decoding: key, as: UTF8.self)
            guard data.productIDs.contains(productID) else {
                t.unknownReference(
                    column: product, to: ["fare_products.txt"], message: "fare_product_id names no fare product; rule dropped")
                continue
            }
            let unknown = references.first { ref in t.text(ref.column).map { !ref.known.contains($0) } ?? false }
            if let unknown {
                t.unknownReference(
                    column: unknown.column, to: [unknown.file], entity: productID,
                    message: "names nothing \(unknown.file) defines; rule dropped")
                continue
            }
            var rulePriority: Int?
            if priority >= 0 {
                // The column exists: an empty value is 0.
                guard let value = t.isEmpty(priority) ? 0 : FieldParser.integer(t.bytes(priority)), (0...1_000_000).contains(value)
                else {
                    t.warn(
                        .badValue, column: priority, entity: productID, message: "rule_priority is not a non-negative integer; rule dropped"
                    )
                    continue
                }
                rulePriority = value
            }
            let legGroup = t.text(group)
            if let legGroup { feed.fareProducts.legGroups.insert(legGroup) }
            feed.fareProducts.legRules.append(
                .init(
                    legGroup: legGroup, network: t.text(network), fromArea: t.text(fromArea), toArea: t.text(toArea),
                    fromTimeframe: t.text(fromTimeframe), toTimeframe: t.text(toTimeframe), product: productID,
                    priority: rulePriority))
        }
    }
}
