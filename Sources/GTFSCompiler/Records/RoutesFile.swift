/// routes.txt: lines, with their names, type and colours.
enum RoutesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("route_id")
        let agency = t.column("agency_id")
        let short = t.column("route_short_name")
        let long = t.column("route_long_name")
        let type = t.column("route_type")
        let color = t.column("route_color")
        let textColor = t.column("route_text_color")
        let network = t.column("network_id")
        feed.fareProducts.routesNameNetworks = network >= 0
        while try t.next() {
            guard let key = t.requiredID(id, "route_id") else { continue }
            let routeID = String(decoding: key, as: UTF8.self)
            guard feed.routeIDs.intern(key).added else {
                t.warn(.duplicateID, column: id, entity: routeID, message: "route_id defined twice; the first wins")
                continue
            }
            var agencyIndex: Int32 = feed.agencies.count == 1 ? 0 : -1
            if !t.isEmpty(agency) {
                if let found = feed.agencyIDs.find(t.bytes(agency)) {
                    agencyIndex = found
                } else {
                    t.unknownReference(
                        column: agency, to: ["agency.txt"], entity: routeID,
                        message: "agency_id names no agency; route kept without an agency")
                    agencyIndex = -1
                }
            }
            if let networkID = t.text(network) {
                // routes.txt's network_id defines the networks (networks.txt is then forbidden).
                feed.fareProducts.networkIDs.insert(networkID)
                feed.fareProducts.routeNetworks[Int32(feed.routes.count)] = networkID
            }
            let routeType = t.integer(type, in: 0...1702, default: 3, entity: routeID)
            if t.isEmpty(type) { t.warn(.missingValue, column: type, entity: routeID, message: "route_type is empty; using 3 (bus)") }
            feed.routes.append(
                .init(
                    agency: agencyIndex, shortName: t.text(short), longName: t.text(long), routeType: routeType,
                    color: hexColor(t, color, routeID), textColor: hexColor(t, textColor, routeID)))
        }
    }

    /// A six-digit hex colour, upper-cased; nil (with a warning) otherwise.
    private static func hexColor(_ t: CSVTable, _ column: Int, _ routeID: String) -> String? {
        guard let text = t.text(column) else { return nil }
        if text.count == 6, text.allSatisfy(\.isHexDigit) { return text.uppercased() }
        t.warn(.badValue, column: column, entity: routeID, message: "not a six-digit hex colour; left empty")
        return nil
    }
}
