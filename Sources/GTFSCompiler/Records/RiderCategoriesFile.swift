/// rider_categories.txt (GTFS fares v2): who a fare product is for (adult, senior,
/// student), and which category riders see by default.
enum RiderCategoriesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["rider_category_id"]) else { return }
        let id = t.column("rider_category_id")
        let name = t.column("rider_category_name")
        let isDefault = t.column("is_default_fare_category")
        let url = t.column("eligibility_url")
        while try t.next() {
            guard let key = t.requiredID(id, "rider_category_id") else { continue }
            let categoryID = String(decoding: key, as: UTF8.self)
            guard feed.fareProducts.riderCategoryIDs.insert(categoryID).inserted else {
                t.warn(.duplicateID, column: id, entity: categoryID, message: "rider_category_id defined twice; the first wins")
                continue
            }
            feed.fareProducts.riderCategories.append(
                .init(
                    id: categoryID, name: t.text(name) ?? categoryID,
                    isDefault: t.integer(isDefault, in: 0...1, default: 0, entity: categoryID) == 1, eligibilityURL: t.text(url)))
        }
    }
}
