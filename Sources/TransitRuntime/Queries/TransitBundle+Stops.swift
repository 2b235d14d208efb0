import BundleFormat
import Foundation
import TransitSQLite

extension TransitBundle {
    /// One stop by its stop_id (a station, a platform, an entrance).
    ///
    /// ```swift
    /// let gare = try bundle.stop("GARE", feed: "cts")
    /// ```
    /// - Throws: `TransitError.unknownStop`, `.ambiguousStop` (give `feed`), `.unknownFeed`.
    public func stop(_ id: String, feed: String? = nil) throws -> Stop {
        try pool.with { db in
            try publicStop(try entities.stop(try resolve(.stop, id, feed: feed, db: db).id, db: db), distance: nil, db: db)
        }
    }

    /// Stops whose names match `text`: case- and diacritics-insensitive, each word a
    /// prefix ("hauptb" finds "Hauptbahnhof"). Best matches first: names equal to the
    /// query, then names starting with it, then shorter names; a station before its
    /// platforms; then by feed and stop_id.
    ///
    /// ```swift
    /// let hits = try bundle.stops(matching: "zurich hb")
    /// ```
    /// An empty or punctuation-only query returns no stops. `limit` defaults to 20 (at most
    /// 10,000 are returned).
    /// - Throws: `TransitError.badArgument` for a query of more than 1,000 bytes or 16 words.
    public func stops(matching text: String, limit: Int = 20) throws -> [Stop] {
        guard let match = try FullTextQuery.prefixMatch(text) else { return [] }
        let wanted = SearchKey.normalize(text)
        return try pool.with { db in
            // The shortest matching names (an exact match is never longer than the other
            // matches), re-ranked: exact names, names starting with the query, shorter names.
            let candidates = try shortestMatches(match, count: max(100, min(limit, FullTextQuery.maxResults) * 5), db: db)
            // Each candidate's rank as one integer (closeness, name length, station first,
            // feed, in that order of bits): sorting compares integers, not rows.
            var stops: [EntityCache.StopRow] = []
            var ranked: [(rank: Int, index: Int)] = []
            for sid in candidates {
                // Ranked by the name the answer shows (in the bundle's language, if any).
                let stop = try entities.stop(sid, db: db)
                let name = entities.searchKey(stop.sid, name: stop.name)
                let closeness = name == wanted ? 0 : name.hasPrefix(wanted) ? 1 : 2
                let rank =
                    closeness << 60 | min(name.utf8.count, 1 << 28 - 1) << 32 | (stop.locationType == 1 ? 0 : 1) << 31
                    | min(max(stop.fid, 0), 1 << 31 - 1)
                ranked.append((rank, stops.count))
                stops.append(stop)
            }
            // Ties by feed, then stop_id's bytes (made once per stop: many stops may share a
            // name, and so a rank).
            let idBytes = stops.map { Array($0.stopID.utf8) }
            ranked.sort { $0.rank != $1.rank ? $0.rank < $1.rank : ByteOrder.precedes(idBytes[$0.index], idBytes[$1.index]) }
            return try ranked.prefix(max(0, limit)).map { try publicStop(stops[$0.index], distance: nil, db: db) }
        }
    }

    /// The sids of the `count` stops with the shortest names among those the full-text
    /// query `match` finds, by name length then sid (the index's matches ranked by the
    /// stops' name lengths in memory).
    private func shortestMatches(_ match: String, count: Int, db: SQLiteDatabase) throws -> [Int] {
        let lengths = try entities.stopNameLengths(db: db)
        let q = try db.cached("SELECT rowid FROM stops_fts WHERE stops_fts MATCH ?1")
        q.bind([match])
        var hits: [(length: Int32, sid: Int)] = []
        while try q.step() {
            let sid = q.int(0)
            if let length = lengths.length(of: sid) { hits.append((length, sid)) }
        }
        // Only the shortest `count` are sorted: the longest length they need is found by
        // counting the hits of each length (a common word finds thousands of stops).
        if hits.count > count {
            // Lengths of 255 bytes and more share the last count.
            var perLength = [Int](repeating: 0, count: 256)
            for hit in hits { perLength[Int(min(max(hit.length, 0), 255))] += 1 }
            var (longest, kept) = (0, perLength[0])
            while kept < count && longest < 255 {
                longest += 1
                kept += perLength[longest]
            }
            if longest < 255 { hits.removeAll { $0.length > longest } }
        }
        hits.sort { ($0.length, $0.sid) < ($1.length, $1.sid) }
        return hits.prefix(count).map(\.sid)
    }

    /// Stops within `radius` metres (0 to 100 km, default 500 m) of a point, nearest first,
    /// with their distance; at most `limit` (default 20).
    ///
    /// ```swift
    /// let near = try bundle.stops(near: Coordinate(latitude: 48.5839, longitude: 7.7455), within: 300)
    /// ```
    public func stops(near point: Coordinate, within radius: Double = 500, limit: Int = 20) throws -> [Stop] {
        let (lat, lon) = (point.latitude, point.longitude)
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw TransitError.badArgument("coordinate \(lat),\(lon) is out of range")
        }
        guard radius >= 0, radius <= 100_000 else { throw TransitError.badArgument("radius must be 0 to 100000 metres") }
        return try pool.with { db in
            let box = BoundingBox(lat: lat, lon: lon, radius: radius)
            // One range of grid cells per grid row of the box, each read from the index.
            let q = try db.cached(
                """
                SELECT sid FROM stops WHERE \(StopGrid.cellSQL) BETWEEN ?1 AND ?2
                  AND lat_e7 IS NOT NULL AND lon_e7 IS NOT NULL
                """)
            var hits: [(Double, EntityCache.StopRow)] = []
            for cells in StopGrid.cellRanges(minLat: box.minLat, maxLat: box.maxLat, minLon: box.minLon, maxLon: box.maxLon) {
                q.bind([cells.lowerBound, cells.upperBound])
                while try q.step() {
                    let row = try entities.stop(q.int(0), db: db)
                    guard let slat = row.lat, let slon = row.lon else { continue }
                    let distance = GeoDistance.metres(lat, lon, slat, slon)
                    if distance <= radius { hits.append((distance, row)) }
                }
            }
            hits.sort { ($0.0, $0.1.sid) < ($1.0, $1.1.sid) }
            return try hits.prefix(max(0, limit)).map { try publicStop($0.1, distance: $0.0, db: db) }
        }
    }

    /// A stop as the library shows it. A stop in a station whose wheelchair_boarding is
    /// empty (0) takes its station's, as GTFS says.
    func publicStop(_ row: EntityCache.StopRow, distance: Double?, db: SQLiteDatabase) throws -> Stop {
        let parent = try row.parentSid.map { try entities.stop($0, db: db) }
        let wheelchair = row.wheelchairBoarding == 0 ? parent?.wheelchairBoarding ?? 0 : row.wheelchairBoarding
        return Stop(
            feedID: catalog.feed(fid: row.fid).feedID, stopID: row.stopID, name: row.name, code: row.code, latitude: row.lat,
            longitude: row.lon, locationType: LocationType(rawValue: row.locationType), parentStation: parent?.stopID,
            platformCode: row.platformCode, wheelchairBoarding: Accessibility(rawValue: wheelchair), distanceMetres: distance,
            level: hasStopLevels ? try level(of: row.sid, db: db) : nil)
    }

    /// The level stop `sid` names (stop_levels), nil when none.
    private func level(of sid: Int, db: SQLiteDatabase) throws -> StopLevel? {
        let q = try db.cached(
            "SELECT l.level_id, l.level_index, l.level_name FROM stop_levels s JOIN levels l ON l.level = s.level WHERE s.sid = ?1")
        q.bind([sid])
        return try q.step() ? StopLevel(levelID: q.string(0), index: q.double(1), name: q.optionalString(2)) : nil
    }
}

/// A latitude/longitude box around a circle (wider near the poles, clipped at ±180°).
struct BoundingBox {
    let minLat: Double, maxLat: Double, minLon: Double, maxLon: Double

    init(lat: Double, lon: Double, radius: Double) {
        let dLat = radius / GeoDistance.earthRadius * 180 / .pi
        minLat = max(-90, lat - dLat)
        maxLat = min(90, lat + dLat)
        let cosine = cos(min(89.9, abs(lat) + dLat) * .pi / 180)
        let dLon = min(180, dLat / max(cosine, 1e-6))
        minLon = dLon >= 180 ? -180 : lon - dLon
        maxLon = dLon >= 180 ? 180 : lon + dLon
    }
}

extension TransitBundle {
    /// The `count` stops nearest a point, nearest first, with their distance, looking no
    /// farther than `maxDistance` metres (fewer stops when fewer are that close).
    ///
    /// ```swift
    /// let closest = try bundle.nearestStops(to: Coordinate(latitude: 48.5839, longitude: 7.7455), count: 10)
    /// ```
    public func nearestStops(to point: Coordinate, count: Int = 10, maxDistance: Double = 50_000) throws -> [Stop] {
        guard count >= 0 else { throw TransitError.badArgument("count must not be negative") }
        guard maxDistance >= 0, maxDistance <= 100_000 else { throw TransitError.badArgument("maxDistance must be 0 to 100000 metres") }
        // A circle holding `count` stops holds the `count` nearest: widen it until it does.
        var radius = min(250, maxDistance)
        while true {
            let found = try stops(near: point, within: radius, limit: count)
            if found.count >= count || radius >= maxDistance { return found }
            radius = min(maxDistance, radius * 4)
        }
    }
}
