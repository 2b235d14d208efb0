/// fare_media.txt (GTFS fares v2): the holders a fare product is carried on (paper ticket,
/// transit card, contactless bank card, app). A row with an unknown type is dropped.
enum FareMediaFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["fare_media_id", "fare_media_type"]) else { return }
        let id = t.column("fare_media_id")
        let name = t.column("fare_media_name")
        let type = t.column("fare_media_type")
        while try t.next() {
            guard let key = t.requiredID(id, "fare_media_id") else { continue }
            let mediumID = String(decoding: key, as: UTF8.self)
            guard let mediumType = FieldParser.integer(t.bytes(type)), (0...4).contains(mediumType) else {
                t.warn(.badValue, column: type, entity: mediumID, message: "fare_media_type is not 0-4; medium dropped")
                continue
            }
            guard feed.fareProducts.mediumIDs.insert(mediumID).inserted else {
                t.warn(.duplicateID, column: id, entity: mediumID, message: "fare_media_id defined twice; the first wins")
                continue
            }
            feed.fareProducts.media.append(.init(id: mediumID, name: t.text(name), type: mediumType))
        }
    }
}
