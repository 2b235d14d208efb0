/// stop_areas.txt (GTFS fares v2): which stops lie in which areas; a station stands for
/// its platforms (resolved when the model is built).
enum StopAreasFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["area_id", "stop_id"]) else { return }
        let area = t.column("area_id")
        let stop = t.column("stop_id")
        while try t.next() {
            guard let areaKey = t.requiredID(area, "area_id"), let stopKey = t.requiredID(stop, "stop_id") else { continue }
            let areaID = String(decoding: areaKey, as: UTF8.self)
            guard feed.fareProducts.areaIDs.contains(areaID) else {
                t.unknownReference(column: area, to: ["areas.txt"], message: "area_id names no area; row dropped")
                continue
            }
            guard let local = feed.stopIDs.find(stopKey) else {
                t.unknownReference(column: stop, to: ["stops.txt"], entity: areaID, message: "stop_id names no stop; row dropped")
                continue
            }
            feed.fareProducts.stopAreas.append((areaID, local))
        }
    }
}
