/// fare_rules.txt (GTFS fares v1): which rides each fare class applies to, by route and by
/// the zones (stops.zone_id) of the boarding stop, the alighting stop and the stops passed.
/// A row naming an unknown fare, route or zone is dropped: kept, it would widen or narrow
/// the fare's reach from a typing error.
enum FareRulesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        guard t.hasColumns(["fare_id"]) else { return }
        let fare = t.column("fare_id")
        let route = t.column("route_id")
        let origin = t.column("origin_id")
        let destination = t.column("destination_id")
        let contains = t.column("contains_id")
        while try t.next() {
            guard let key = t.requiredID(fare, "fare_id") else { continue }
            guard let fareIndex = feed.fareIDs.find(key) else {
                t.unknownReference(column: fare, to: ["fare_attributes.txt"], message: "fare_id names no fare; row dropped")
                continue
            }
            let fareID = feed.fareIDs.string(fareIndex)
            feed.fares[Int(fareIndex)].hasRuleRows = true
            var rid: Int32 = -1
            if !t.isEmpty(route) {
                guard let found = feed.routeIDs.find(t.bytes(route)) else {
                    t.unknownReference(column: route, to: ["routes.txt"], entity: fareID, message: "route_id names no route; row dropped")
                    continue
                }
                rid = found
            }
            var zones: [Int32] = []
            var known = true
            for column in [origin, destination, contains] {
                guard !t.isEmpty(column) else {
                    zones.append(-1)
                    continue
                }
                guard let zone = feed.zoneIDs.find(t.bytes(column)) else {
                    t.unknownReference(
                        column: column, to: ["stops.txt"], entity: fareID, message: "no stop has this zone_id; row dropped")
                    known = false
                    break
                }
                zones.append(zone)
            }
            guard known else { continue }
            feed.fareRules.append(.init(fare: fareIndex, route: rid, origin: zones[0], destination: zones[1], contains: zones[2]))
        }
    }
}
