/// fare_transfer_rules.txt (GTFS fares v2): what a change from a leg of one leg group to a
/// leg of another costs, how many changes in a row and for how long. A row naming an
/// unknown leg group or product, or breaking the file's conditions, is dropped.
enum FareTransferRulesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["fare_transfer_type"]) else { return }
        let from = t.column("from_leg_group_id")
        let to = t.column("to_leg_group_id")
        let count = t.column("transfer_count")
        let limit = t.column("duration_limit")
        let limitType = t.column("duration_limit_type")
        let type = t.column("fare_transfer_type")
        let product = t.column("fare_product_id")
        let data = feed.fareProducts
        while try t.next() {
            guard let transferType = FieldParser.integer(t.bytes(type)), (0...2).contains(transferType) else {
                t.warn(.badValue, column: type, message: "fare_transfer_type is not 0, 1 or 2; rule dropped")
                continue
            }
            let fromGroup = t.text(from)
            let toGroup = t.text(to)
            if let unknown = [(from, fromGroup), (to, toGroup)].first(where: { $0.1.map { !data.legGroups.contains($0) } ?? false }) {
                t.unknownReference(
                    column: unknown.0, to: ["fare_leg_rules.txt"], message: "names no leg_group_id of fare_leg_rules.txt; rule dropped")
                continue
            }
            let productID = t.text(product)
            if let productID, !data.productIDs.contains(productID) {
                t.unknownReference(
                    column: product, to: ["fare_products.txt"], message: "fare_product_id names no fare product; rule dropped")
                continue
            }
            var transferCount: Int?
            if fromGroup == toGroup {
                guard let value = FieldParser.integer(t.bytes(count)), value == -1 || (value >= 1 && value <= 1_000) else {
                    t.warn(
                        .badValue, column: count,
                        message: "transfer_count (-1 or a positive integer) is required when the leg groups are the same; rule dropped")
                    continue
                }
                transferCount = value
            } else if !t.isEmpty(count) {
                t.warn(.badValue, column: count, message: "transfer_count is forbidden when the leg groups differ; ignored")
            }
            var durationLimit: Int?
            var durationLimitType: Int?
            if !t.isEmpty(limit) {
                guard let seconds = FieldParser.integer(t.bytes(limit)), seconds > 0, seconds <= 7 * 86_400 else {
                    t.warn(.badValue, column: limit, message: "duration_limit is not a positive number of seconds; rule dropped")
                    continue
                }
                guard let kind = FieldParser.integer(t.bytes(limitType)), (0...3).contains(kind) else {
                    t.warn(
                        .badValue, column: limitType, message: "duration_limit_type (0-3) is required with duration_limit; rule dropped")
                    continue
                }
                durationLimit = seconds
                durationLimitType = kind
            }
            feed.fareProducts.transferRules.append(
                .init(
                    fromLegGroup: fromGroup, toLegGroup: toGroup, transferCount: transferCount, durationLimit: durationLimit,
                    durationLimitType: durationLimitType, transferType: transferType, product: productID))
        }
    }
}
