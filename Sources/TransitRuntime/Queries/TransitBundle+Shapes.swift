import BundleFormat
import TransitSQLite

extension TransitBundle {
    /// The line trip `trip` follows: its shape, or the line through its stops when it has none.
    ///
    /// ```swift
    /// let line = try bundle.shape(trip: "T1")
    /// print(line.shapeID ?? "through the stops", line.points.count)
    /// ```
    /// - Throws: `TransitError.unknownTrip`, `.ambiguousTrip`, `.unknownFeed`.
    public func shape(trip: String, feed: String? = nil) throws -> Shape {
        try pool.with { db in
            let match = try resolve(.trip, trip, feed: feed, db: db)
            let pattern = try patterns.pattern(patterns.trip(match.id, db: db).pid, db: db)
            guard let record = pattern.trip(match.id) else { throw TransitError.unknownTrip(trip) }
            if let shp = record.shp { return try shape(shp, db: db) }
            return try stopLine(pattern, tripID: trip, feedID: match.feed.feedID, db: db)
        }
    }

    /// The lines a route's trips follow: each distinct shape once, by shape_id, then a line
    /// through the stops for each stop pattern whose trips have no shape (named by its first
    /// trip).
    ///
    /// ```swift
    /// for line in try bundle.shapes(route: "A") { draw(line.points) }
    /// ```
    /// - Throws: `TransitError.unknownRoute`, `.ambiguousRoute`, `.unknownFeed`.
    public func shapes(route: String, feed: String? = nil) throws -> [Shape] {
        try pool.with { db in
            let match = try resolve(.route, route, feed: feed, db: db)
            var shps = Set<Int>()
            var unshaped: [(tripID: String, pattern: PatternCache.Pattern)] = []
            for pattern in try patterns.patterns(ofRoute: match.id, db: db) {
                var firstUnshaped: Int?
                for trip in pattern.allTrips where trip.rid == match.id {
                    if let shp = trip.shp { shps.insert(shp) } else { firstUnshaped = min(firstUnshaped ?? trip.tid, trip.tid) }
                }
                if let tid = firstUnshaped { unshaped.append((try patterns.trip(tid, db: db).tripID, pattern)) }
            }
            var result = try shps.map { try shape($0, db: db) }
            result.sort { ($0.shapeID ?? "").utf8.lexicographicallyPrecedes(($1.shapeID ?? "").utf8) }
            for (tripID, pattern) in unshaped.sorted(by: { $0.tripID.utf8.lexicographicallyPrecedes($1.tripID.utf8) }) {
                result.append(try stopLine(pattern, tripID: tripID, feedID: match.feed.feedID, db: db))
            }
            return result
        }
    }

    /// Shape `shp`: its edges joined, each run the way the shape runs it (kept once built).
    private func shape(_ shp: Int, db: SQLiteDatabase) throws -> Shape {
        try shapeCache.value(shp) { try buildShape(shp, db: db) }
    }

    private func buildShape(_ shp: Int, db: SQLiteDatabase) throws -> Shape {
        let q = try db.cached("SELECT fid, shape_id, edges FROM shapes WHERE shp = ?1")
        q.bind([shp])
        guard try q.step() else { throw TransitError.corruptBundle(reason: "shape \(shp) is missing from the bundle") }
        let feedID = catalog.feed(fid: q.int(0)).feedID
        let shapeID = q.string(1)
        let steps = try PatternCache.damagedAsError("shape \(shapeID)") { try ShapeEdgesBlob.decode(q.blob(2)) }
        var points: [Coordinate] = []
        for step in steps {
            let edge = try edgePoints(step.eid, db: db)
            points.reserveCapacity(points.count + edge.count)
            // Consecutive edges share the junction between them.
            for i in (points.isEmpty ? 0 : 1)..<edge.count {
                let p = edge[step.reversed ? edge.count - 1 - i : i]
                points.append(Coordinate(latitude: Double(p.latE6) / 1_000_000, longitude: Double(p.lonE6) / 1_000_000))
            }
        }
        return Shape(feedID: feedID, shapeID: shapeID, tripID: nil, points: points)
    }

    private func edgePoints(_ eid: Int, db: SQLiteDatabase) throws -> [ShapeBlob.Point] {
        let first = ShapeBlob.firstEid(holding: eid)
        let row = try shapeEdges.value(first) {
            let q = try db.cached("SELECT points FROM shape_edges WHERE first_eid = ?1")
            q.bind([first])
            guard try q.step() else { throw TransitError.corruptBundle(reason: "shape edge \(eid) is missing from the bundle") }
            return try PatternCache.damagedAsError("shape edges from \(first)") { try ShapeBlob.decodeRow(q.blob(0)) }
        }
        guard eid - first < row.count else { throw TransitError.corruptBundle(reason: "shape edge \(eid) is missing from the bundle") }
        return row[eid - first]
    }

    /// The line through a pattern's stops that have coordinates.
    private func stopLine(_ pattern: PatternCache.Pattern, tripID: String, feedID: String, db: SQLiteDatabase) throws -> Shape {
        let points = try pattern.stops.compactMap { row -> Coordinate? in
            let stop = try entities.stop(row.sid, db: db)
            guard let lat = stop.lat, let lon = stop.lon else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
        return Shape(feedID: feedID, shapeID: nil, tripID: tripID, points: points)
    }
}
