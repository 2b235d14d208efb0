/// fare_products.txt (GTFS fares v2): what a rider buys, at what price, per rider category
/// and fare medium. A row with an unusable amount or currency, or naming an unknown
/// category or medium, is dropped (a journey is better without a fare than with a wrong one).
enum FareProductsFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["fare_product_id", "amount", "currency"]) else { return }
        let id = t.column("fare_product_id")
        let name = t.column("fare_product_name")
        let category = t.column("rider_category_id")
        let medium = t.column("fare_media_id")
        let amount = t.column("amount")
        let currency = t.column("currency")
        var seen = Set<[String?]>()
        while try t.next() {
            guard let key = t.requiredID(id, "fare_product_id") else { continue }
            let productID = String(decoding: key, as: UTF8.self)
            guard
                let (value, code) = FareAmount.read(t, amount: amount, currency: currency, entity: productID, signed: true, dropped: "row")
            else { continue }
            guard FareAmount.isStorable(value.hasPrefix("-") ? String(value.dropFirst()) : value) else {
                t.warn(
                    .badValue, column: amount, entity: productID,
                    message: "the amount is out of range (below a billion, at most nine decimals); row dropped")
                continue
            }
            let categoryID = t.text(category)
            if let categoryID, !feed.fareProducts.riderCategoryIDs.contains(categoryID) {
                t.unknownReference(
                    column: category, to: ["rider_categories.txt"], entity: productID,
                    message: "rider_category_id names no rider category; row dropped")
                continue
            }
            let mediumID = t.text(medium)
            if let mediumID, !feed.fareProducts.mediumIDs.contains(mediumID) {
                t.unknownReference(
                    column: medium, to: ["fare_media.txt"], entity: productID, message: "fare_media_id names no fare medium; row dropped")
                continue
            }
            guard seen.insert([productID, categoryID, mediumID]).inserted else {
                t.warn(
                    .duplicateID, column: id, entity: productID,
                    message: "fare_product_id given twice for the same rider category and medium; the first wins")
                continue
            }
            feed.fareProducts.productIDs.insert(productID)
            feed.fareProducts.products.append(
                .init(id: productID, name: t.text(name), riderCategory: categoryID, medium: mediumID, amount: value, currency: code))
        }
    }
}
