/// stops.txt: stops, stations and their platforms.
enum StopsFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("stop_id")
        let name = t.column("stop_name")
        let code = t.column("stop_code")
        let lat = t.column("stop_lat")
        let lon = t.column("stop_lon")
        let type = t.column("location_type")
        let parent = t.column("parent_station")
        let platform = t.column("platform_code")
        let wheelchair = t.column("wheelchair_boarding")
        let zone = t.column("zone_id")
        let level = t.column("level_id")
        while try t.next() {
            guard let key = t.requiredID(id, "stop_id") else { continue }
            let stopID = String(decoding: key, as: UTF8.self)
            guard feed.stopIDs.intern(key).added else {
                t.warn(.duplicateID, column: id, entity: stopID, message: "stop_id defined twice; the first wins")
                continue
            }
            let locationType = t.integer(type, in: 0...4, default: 0, entity: stopID)
            let (latitude, longitude) = coordinates(t, lat, lon, locationType: locationType, stopID: stopID)
            feed.stops.append(
                .init(
                    name: t.text(name) ?? "", code: t.text(code), lat: latitude, lon: longitude,
                    locationType: locationType, parentText: t.text(parent),
                    platformCode: t.text(platform),
                    wheelchairBoarding: t.integer(wheelchair, in: 0...2, default: 0, entity: stopID),
                    line: t.line))
            if level >= 0 { feed.stopLevels.append(t.isEmpty(level) ? -1 : feed.levelIDs.intern(t.bytes(level)).id) }
            if zone >= 0 {
                // Every stop's zone, also for stops before the first with one.
                feed.stopZones.append(t.isEmpty(zone) ? -1 : feed.zoneIDs.intern(t.bytes(zone)).id)
            }
        }
        linkParents(feed, log: t.log)
    }

    /// The stop's coordinates, or nil (with a warning) when missing, unparsable, out of range
    /// or at 0,0: such a stop must not stand for a place (interpolation measures distances
    /// between stops). Coordinates are required for stops, stations and entrances.
    private static func coordinates(_ t: CSVTable, _ lat: Int, _ lon: Int, locationType: Int, stopID: String) -> (Double?, Double?) {
        if t.isEmpty(lat) && t.isEmpty(lon) {
            if locationType <= 2 {
                t.warn(
                    .badStopLocation, column: lat, entity: stopID, message: "stop_lat and stop_lon are empty; stop kept without coordinates"
                )
            }
            return (nil, nil)
        }
        guard let la = FieldParser.double(t.bytes(lat)), let lo = FieldParser.double(t.bytes(lon)),
            (-90...90).contains(la), (-180...180).contains(lo)
        else {
            t.warn(
                .badStopLocation, column: lat, entity: stopID,
                message: "stop_lat/stop_lon missing, not a number or out of range; stop kept without coordinates")
            return (nil, nil)
        }
        if la == 0 && lo == 0 {
            t.warn(
                .badStopLocation, column: lat, entity: stopID,
                message: "coordinates 0,0 (a placeholder, in the Gulf of Guinea); stop kept without coordinates")
            return (nil, nil)
        }
        return (la, lo)
    }

    /// Resolves parent_station once every stop is known: a platform's parent must be a
    /// station, a boarding area's parent a platform; stations have none.
    private static func linkParents(_ feed: FeedData, log: DiagnosticLog) {
        for index in feed.stops.indices {
            guard let parentText = feed.stops[index].parentText else { continue }
            let stop = feed.stops[index]
            let stopID = feed.stopIDs.string(Int32(index))
            func reject(_ message: String) {
                log.add(
                    Diagnostic(
                        .badParentStation, feed: feed.name, file: "stops.txt", line: stop.line, field: "parent_station",
                        entityID: stopID, value: parentText, message: message))
            }
            guard let parent = feed.stopIDs.find(parentText) else {
                reject("parent_station names no stop; link dropped")
                continue
            }
            let parentType = feed.stops[Int(parent)].locationType
            if stop.locationType == 1 {
                reject("a station cannot have a parent_station; link dropped")
            } else if stop.locationType == 4 && parentType != 0 {
                reject("a boarding area's parent must be a platform (location_type 0); link dropped")
            } else if stop.locationType != 4 && parentType != 1 {
                reject("parent_station is not a station (location_type 1); link dropped")
            } else {
                feed.stops[index].parent = parent
            }
        }
    }
}
