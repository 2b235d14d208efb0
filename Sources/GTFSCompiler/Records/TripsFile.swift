/// trips.txt: each trip's route, service, headsign and shape.
enum TripsFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("trip_id")
        let route = t.column("route_id")
        let service = t.column("service_id")
        let headsign = t.column("trip_headsign")
        let direction = t.column("direction_id")
        let wheelchair = t.column("wheelchair_accessible")
        let shape = t.column("shape_id")
        let shortName = t.column("trip_short_name")
        let bikes = t.column("bikes_allowed")
        while try t.next() {
            // Sized once from the first rows (a large feed's table would double five times,
            // and its trips, 1.2 million on 40 x Strasbourg, be copied and faulted in anew
            // each time).
            if t.rowCount == 50_000, let rows = t.estimatedRowCount {
                feed.tripIDs.reserve(rows)
                // Bounded: the estimate follows the zip's declared size (room only, faulted
                // in as rows arrive).
                feed.trips.reserveCapacity(min(rows, 10_000_000))
            }
            guard let key = t.requiredID(id, "trip_id") else { continue }
            // Text only for a message.
            var tripID: String { String(decoding: key, as: UTF8.self) }
            if feed.tripIDs.find(key) != nil {
                t.warn(.duplicateID, column: id, entity: tripID, message: "trip_id defined twice; the first wins")
                continue
            }
            guard let routeIndex = feed.routeIDs.find(t.bytes(route)) else {
                t.unknownReference(column: route, to: ["routes.txt"], entity: tripID, message: "route_id names no route; trip dropped")
                continue
            }
            guard let serviceIndex = feed.serviceIDs.find(t.bytes(service)) else {
                t.unknownReference(
                    column: service, to: ["calendar.txt", "calendar_dates.txt"], entity: tripID,
                    message: "service_id is in neither calendar.txt nor calendar_dates.txt; trip dropped")
                continue
            }
            _ = feed.tripIDs.intern(key)
            feed.trips.append(
                .init(
                    route: routeIndex, service: serviceIndex, headsign: t.text(headsign),
                    directionID: t.optionalInteger(direction, in: 0...1, entity: tripID),
                    wheelchairAccessible: t.integer(wheelchair, in: 0...2, default: 0, entity: tripID),
                    shape: t.isEmpty(shape) ? -1 : feed.shapeIDs.intern(t.bytes(shape)).id, shortName: t.text(shortName),
                    bikesAllowed: t.integer(bikes, in: 0...2, default: 0, entity: tripID), line: t.line))
        }
    }
}
