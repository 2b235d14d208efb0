/// networks.txt (GTFS fares v2): the route networks fare leg rules name. Forbidden when
/// routes.txt has network_id (that column then defines the networks).
enum NetworksFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["network_id"]) else { return }
        let id = t.column("network_id")
        guard !feed.fareProducts.routesNameNetworks else {
            t.warnFile(
                .badValue, field: "network_id",
                message: "networks.txt is forbidden when routes.txt has a network_id column; the file is not used")
            return
        }
        while try t.next() {
            guard let key = t.requiredID(id, "network_id") else { continue }
            let networkID = String(decoding: key, as: UTF8.self)
            if !feed.fareProducts.networkIDs.insert(networkID).inserted {
                t.warn(.duplicateID, column: id, entity: networkID, message: "network_id defined twice")
            }
        }
    }
}
