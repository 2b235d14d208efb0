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
            return try shapeCaches.routeShapes.value(match.id) { try lines(ofRoute: match, db: db) }
        }
    }

    /// A route's lines as `shapes(route:feed:)` gives them, built from its patterns' trips.
    private func lines(ofRoute match: (id: Int, feed: FeedCatalog.Feed), db: SQLiteDatabase) throws -> [Shape] {
        var shps = Set<Int>()
        var unshaped: [(tripID: String, pid: Int)] = []
        for pid in try patterns.pids(ofRoute: match.id, db: db) {
            var firstUnshaped: Int?
            var last: Int?  // trips in a row mostly follow one shape
            try patterns.forEachTrip(ofPattern: pid, db: db) { trip in
                guard trip.rid == match.id else { return }
                guard let shp = trip.shp else {
                    firstUnshaped = min(firstUnshaped ?? trip.tid, trip.tid)
                    return
                }
                if shp != last { shps.insert(shp) }
                last = shp
            }
            if let tid = firstUnshaped { unshaped.append((try patterns.trip(tid, db: db).tripID, pid)) }
        }
        // By shape id, in byte order; the keys are made once (comparing Strings' UTF-8 views
        // inside the sort was a tenth of a cold query on wmata).
        var keyed = try shps.map { shp -> (key: [UInt8], shape: Shape) in
            let line = try shape(shp, db: db)
            return (Array((line.shapeID ?? "").utf8), line)
        }
        keyed.sort { $0.key.lexicographicallyPrecedes($1.key) }
        var result = keyed.map(\.shape)
        for (tripID, pid) in unshaped.sorted(by: { $0.tripID.utf8.lexicographicallyPrecedes($1.tripID.utf8) }) {
            result.append(try stopLine(patterns.pattern(pid, db: db), tripID: tripID, feedID: match.feed.feedID, db: db))
        }
        return result
    }

    /// Shape `shp`: its edges joined, each run the way the shape runs it (kept once built).
    private func shape(_ shp: Int, db: SQLiteDatabase) throws -> Shape {
        try shapeCaches.shapes.value(shp) { try buildShape(shp, db: db) }
    }

    private func buildShape(_ shp: Int, db: SQLiteDatabase) throws -> Shape {
        let q = try db.cached("SELECT fid, shape_id, edges FROM shapes WHERE shp = ?1")
        q.bind([shp])
        guard try q.step() else { throw TransitError.corruptBundle(reason: "shape \(shp) is missing from the bundle") }
        let feedID = catalog.feed(fid: q.int(0)).feedID
        let shapeID = q.string(1)
        let steps = try PatternCache.damagedAsError("shape \(shapeID)") { try ShapeEdgesBlob.decode(q.blob(2)) }
        // Each step as a stretch of a row of edges; consecutive steps mostly lie in one row,
        // so rows are listed in the order of use and stretches name them by that order.
        var rows: [ShapeBlob.Row] = []
        var current = ShapeBlob.Row()
        var rowFirst = 0  // no row starts at 0 (eids count from 1)
        var stretches: [(row: Int, range: Range<Int>, reversed: Bool)] = []
        stretches.reserveCapacity(steps.count)
        var total = 0
        for step in steps {
            let first = ShapeBlob.firstEid(holding: step.eid)
            if first != rowFirst {
                current = try edgeRow(first, db: db)
                rows.append(current)
                rowFirst = first
            }
            guard step.eid - first < current.count else {
                throw TransitError.corruptBundle(reason: "shape edge \(step.eid) is missing from the bundle")
            }
            let range = current.range(ofEdge: step.eid - first)
            stretches.append((rows.count - 1, range, step.reversed))
            total += range.count
        }
        // Consecutive edges share the junction between them: every edge after the first
        // adds its points but its first. Each row is opened once for its run of stretches.
        let points = [Coordinate](unsafeUninitializedCapacity: total) { buffer, count in
            var n = 0
            var next = 0
            for (r, row) in rows.enumerated() {
                row.points.withUnsafeBufferPointer { edges in
                    while next < stretches.count && stretches[next].row == r {
                        let stretch = stretches[next]
                        next += 1
                        let range = stretch.range
                        let skip = n == 0 ? 0 : 1
                        guard range.count > skip else { continue }
                        for i in skip..<range.count {
                            let p = edges[stretch.reversed ? range.upperBound - 1 - i : range.lowerBound + i]
                            (buffer.baseAddress! + n).initialize(
                                to: Coordinate(latitude: Double(p.latE6) / 1_000_000, longitude: Double(p.lonE6) / 1_000_000))
                            n += 1
                        }
                    }
                }
            }
            count = n
        }
        return Shape(feedID: feedID, shapeID: shapeID, tripID: nil, points: points)
    }

    /// The row of `shape_edges` whose first edge is `first`, decoded (kept once decoded).
    private func edgeRow(_ first: Int, db: SQLiteDatabase) throws -> ShapeBlob.Row {
        try shapeCaches.edges.value(first) {
            let q = try db.cached("SELECT points FROM shape_edges WHERE first_eid = ?1")
            q.bind([first])
            guard try q.step() else { throw TransitError.corruptBundle(reason: "shape edge \(first) is missing from the bundle") }
            return try PatternCache.damagedAsError("shape edges from \(first)") { try ShapeBlob.decodeRow(q.blob(0)) }
        }
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
