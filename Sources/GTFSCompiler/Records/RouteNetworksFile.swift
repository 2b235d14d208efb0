/// route_networks.txt (GTFS fares v2): each route's network. Forbidden when routes.txt has
/// network_id.
enum RouteNetworksFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["network_id", "route_id"]) else { return }
        let network = t.column("network_id")
        let route = t.column("route_id")
        guard !feed.fareProducts.routesNameNetworks else {
            t.warnFile(
                .badValue, field: "network_id",
                message: "route_networks.txt is forbidden when routes.txt has a network_id column; the file is not used")
            return
        }
        while try t.next() {
            guard let networkKey = t.requiredID(network, "network_id"), let routeKey = t.requiredID(route, "route_id") else { continue }
            let networkID = String(decoding: networkKey, as: UTF8.self)
            guard feed.fareProducts.networkIDs.contains(networkID) else {
                t.unknownReference(column: network, to: ["networks.txt"], message: "network_id names no network; row dropped")
                continue
            }
            guard let local = feed.routeIDs.find(routeKey) else {
                t.unknownReference(column: route, to: ["routes.txt"], entity: networkID, message: "route_id names no route; row dropped")
                continue
            }
            guard feed.fareProducts.routeNetworks[local] == nil else {
                t.warn(.duplicateID, column: route, entity: networkID, message: "route already has a network; the first wins")
                continue
            }
            feed.fareProducts.routeNetworks[local] = networkID
        }
    }
}
