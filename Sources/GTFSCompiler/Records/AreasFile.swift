/// areas.txt (GTFS fares v2): the areas fare leg rules name as departure and arrival.
enum AreasFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["area_id"]) else { return }
        let id = t.column("area_id")
        while try t.next() {
            guard let key = t.requiredID(id, "area_id") else { continue }
            let areaID = String(decoding: key, as: UTF8.self)
            if !feed.fareProducts.areaIDs.insert(areaID).inserted {
                t.warn(.duplicateID, column: id, entity: areaID, message: "area_id defined twice")
            }
        }
    }
}
