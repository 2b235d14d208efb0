import BundleFormat

extension TransitBundle {
    /// The agencies of every feed (or of `feed`), by feed, then agency_id.
    ///
    /// ```swift
    /// let names = try bundle.agencies().map(\.name)
    /// ```
    /// - Throws: `TransitError.unknownFeed`.
    public func agencies(feed: String? = nil) throws -> [Agency] {
        try pool.with { db in
            let fid = try feed.map { try catalog.feed(named: $0).fid }
            let q = try db.cached(
                """
                SELECT fid, agency_id, name, url, timezone, lang, phone, aid FROM agencies
                WHERE ?1 IS NULL OR fid = ?1 ORDER BY fid, agency_id
                """)
            q.bind([fid])
            var result: [Agency] = []
            while try q.step() {
                result.append(
                    Agency(
                        feedID: catalog.feed(fid: q.int(0)).feedID, agencyID: q.string(1),
                        name: try entities.translation(.agencyName, q.int(7), db: db) ?? q.string(2), url: q.optionalString(3),
                        timezone: q.string(4), language: q.optionalString(5), phone: q.optionalString(6)))
            }
            return result
        }
    }

    /// The routes of every feed (or of `feed`, or of one agency), by feed, then route_id.
    ///
    /// ```swift
    /// let trams = try bundle.routes().filter { $0.routeType == 0 }
    /// ```
    /// - Throws: `TransitError.unknownFeed`, `.unknownAgency`.
    public func routes(feed: String? = nil, agency: String? = nil) throws -> [Route] {
        try pool.with { db in
            let fid = try feed.map { try catalog.feed(named: $0).fid }
            if let agency {
                let known = try db.cached("SELECT 1 FROM agencies WHERE agency_id = ?1 AND (?2 IS NULL OR fid = ?2)")
                known.bind([agency, fid])
                guard try known.step() else { throw TransitError.unknownAgency(agency) }
            }
            let q = try db.cached(
                """
                SELECT \(EntityCache.RouteRow.columns) FROM \(EntityCache.RouteRow.tables)
                WHERE (?1 IS NULL OR r.fid = ?1) AND (?2 IS NULL OR a.agency_id = ?2) ORDER BY r.fid, d.route_id
                """)
            q.bind([fid, agency])
            var result: [Route] = []
            while try q.step() { result.append(publicRoute(try entities.translated(try EntityCache.RouteRow(row: q), db: db))) }
            return result
        }
    }

    /// The routes whose trips call at a stop (for a station, at any of its platforms),
    /// arriving or departing, by feed, then route_id.
    ///
    /// ```swift
    /// let lines = try bundle.routes(servingStop: "GARE")
    /// ```
    /// - Throws: `TransitError.unknownStop`, `.ambiguousStop`, `.unknownFeed`.
    public func routes(servingStop stop: String, feed: String? = nil) throws -> [Route] {
        try pool.with { db in
            let sid = try resolve(.stop, stop, feed: feed, db: db).id
            var sids = [sid]
            if try entities.stop(sid, db: db).locationType == 1 { sids += try entities.children(of: sid, db: db) }
            var rids = Set<Int>()
            for sid in sids {
                for place in try patterns.places(at: sid, db: db) { rids.formUnion(place.pattern.allTrips.map(\.rid)) }
            }
            return try rids.map { try entities.route($0, db: db) }.sorted(by: Self.routeOrder).map(publicRoute)
        }
    }

    /// A route and its stops in order per direction.
    ///
    /// ```swift
    /// let details = try bundle.route("A")
    /// details.directions.first?.stops.map(\.name)
    /// ```
    /// - Throws: `TransitError.unknownRoute`, `.ambiguousRoute`, `.unknownFeed`.
    public func route(_ id: String, feed: String? = nil) throws -> RouteDetails {
        try pool.with { db in
            let match = try resolve(.route, id, feed: feed, db: db)
            let row = try entities.route(match.id, db: db)
            // Per direction: the patterns with their trips of this route, and the headsigns shown.
            var byDirection: [Int: [(pattern: PatternCache.Pattern, trips: Int)]] = [:]
            var headsigns: [Int: [String: Int]] = [:]
            for pattern in try patterns.patterns(ofRoute: match.id, db: db) {
                var counts: [Int: Int] = [:]
                for trip in pattern.allTrips where trip.rid == match.id {
                    let direction = trip.directionID ?? -1
                    counts[direction, default: 0] += 1
                    let text =
                        try trip.hid.map { try entities.headsign($0, db: db) }
                        ?? (try pattern.stops.last.map { try entities.stop($0.sid, db: db).name } ?? "")
                    headsigns[direction, default: [:]][text, default: 0] += 1
                }
                for (direction, trips) in counts { byDirection[direction, default: []].append((pattern, trips)) }
            }
            let directions = try byDirection.keys.sorted { ($0 < 0 ? 1 : 0, $0) < ($1 < 0 ? 1 : 0, $1) }.map { direction in
                let members = byDirection[direction] ?? []
                let sids = Self.mergedStops(members.map { ($0.pattern.stops.map(\.sid), $0.trips) })
                let headsign = headsigns[direction]?.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
                return RouteDetails.Direction(
                    directionID: direction < 0 ? nil : direction, headsign: headsign,
                    stops: try sids.map { try publicStop(entities.stop($0, db: db), distance: nil, db: db) },
                    tripCount: members.reduce(0) { $0 + $1.trips })
            }
            return RouteDetails(route: publicRoute(row), directions: directions)
        }
    }

    /// One order for the stops of several patterns: the longest (then busiest) pattern's
    /// stops, and each other pattern's stops, from the longest down: a stop placed after
    /// the pattern's previous stop is met there, any other is inserted right after it.
    static func mergedStops(_ patterns: [(sids: [Int], trips: Int)]) -> [Int] {
        let ordered = patterns.sorted { ($0.sids.count, $0.trips) > ($1.sids.count, $1.trips) }
        var merged: [Int] = []
        for pattern in ordered {
            var last = -1
            for sid in pattern.sids {
                if let found = merged[(last + 1)...].firstIndex(of: sid) {
                    last = found
                } else {
                    merged.insert(sid, at: last + 1)
                    last += 1
                }
            }
        }
        return merged
    }

    func publicRoute(_ row: EntityCache.RouteRow) -> Route {
        Route(
            feedID: catalog.feed(fid: row.fid).feedID, routeID: row.routeID, agencyID: row.agencyID, shortName: row.shortName,
            longName: row.longName, routeType: row.routeType, color: row.color, textColor: row.textColor)
    }

    /// By feed, then route_id in byte order.
    static func routeOrder(_ a: EntityCache.RouteRow, _ b: EntityCache.RouteRow) -> Bool {
        a.fid != b.fid ? a.fid < b.fid : a.routeID.utf8.lexicographicallyPrecedes(b.routeID.utf8)
    }
}
