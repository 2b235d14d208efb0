import BundleFormat
import Foundation

/// A compiled transit bundle, opened read-only. Answers departures, stop searches,
/// trips and bundle facts offline. One instance may be shared by many threads.
///
/// ```swift
/// let bundle = try TransitBundle(path: "city.db")
/// let next = try bundle.departures(stop: "GARE_01", at: .local(LocalDate("2026-03-29")!, secondsOfDay: 8 * 3600))
/// for d in next { print(d.departureTime, d.routeShortName ?? "", d.headsign) }
/// ```
public final class TransitBundle: Sendable {
    public let path: String
    let pool: ConnectionPool
    let catalog: FeedCatalog
    let calendar: ServiceCalendar
    let entities = EntityCache()
    let patterns = PatternCache()
    let dayStarts = LockedCache<Int, Int>(limit: 4096)
    let templates = LockedCache<Int, [DepartureFinder.TemplateAtStop]>()
    /// Decoded `shape_edges` rows by first eid (an edge is shared by many shapes).
    let shapeEdges = LockedCache<Int, [[ShapeBlob.Point]]>(limit: 1024)
    /// Shapes built from their edges, by shp.
    let shapeCache = LockedCache<Int, Shape>(limit: 2048)

    /// Opens the bundle at `path` and checks its schema.
    /// - Throws: `TransitError.notABundle` (not SQLite, empty, truncated, a table missing) or
    ///   `TransitError.unsupportedSchemaVersion`.
    public init(path: String) throws {
        self.path = path
        let identity = FileIdentity(path: path)
        let db = try ConnectionPool.openChecked(path)
        do {
            catalog = try FeedCatalog(db: db)
            calendar = try ServiceCalendar(db: db)
        } catch let error as SQLiteError {
            throw TransitError.notABundle(path: path, reason: error.message)
        }
        pool = ConnectionPool(path: path, first: db, identity: identity)
    }

    /// Decodes every pattern and its trips into memory now (about 80 bytes a trip),
    /// so that no later departures query pays for reading them on first use. Worth it for
    /// servers and batch jobs answering many queries; apps can leave the loading lazy.
    ///
    /// ```swift
    /// let bundle = try TransitBundle(path: "city.db")
    /// try bundle.preload()
    /// ```
    public func preload() throws {
        try pool.with { db in try patterns.preload(db: db) }
    }

    /// The feeds in the bundle, by id.
    public var feedIDs: [String] { catalog.feeds.map(\.feedID) }

    // MARK: - Departures

    /// Departures from a stop (or, for a station, from its platforms) in `[at, at + window)`,
    /// ordered by instant, feed, stop_id, trip_id.
    ///
    /// ```swift
    /// let board = try bundle.departures(stop: "CENTRAL", at: try QueryTime.parse("2026-03-28T23:50"), windowMinutes: 90)
    /// ```
    /// - Parameters:
    ///   - stop: the stop_id; `feed` is needed only when several feeds use it.
    ///   - at: the window's start; a local time is read in the stop's feed timezone.
    ///   - windowMinutes: the window's length (default 60).
    ///   - limit: the most departures returned (default 20).
    /// - Throws: `TransitError.unknownStop`, `.ambiguousStop`, `.unknownFeed`, `.dateOutOfRange`.
    public func departures(
        stop: String, feed: String? = nil, at: QueryTime = .instant(Date()),
        windowMinutes: Int = 60, limit: Int = 20
    ) throws -> [Departure] {
        guard windowMinutes >= 0, windowMinutes <= 7 * 1440 else { throw TransitError.badArgument("window must be 0 to 10080 minutes") }
        guard limit >= 0 else { throw TransitError.badArgument("limit must not be negative") }
        return try pool.with { db in
            let sid = try resolve(.stop, stop, feed: feed, db: db).id
            let row = try entities.stop(sid, db: db)
            let source = catalog.feed(fid: row.fid)
            let from = instant(at, in: source)
            try checkRange(source, from: from, to: from + windowMinutes * 60)
            var sids = [sid]
            if row.locationType == 1 { sids += try entities.children(of: sid, db: db) }
            let finder = DepartureFinder(
                feed: source, calendar: calendar, dayStarts: dayStarts, templates: templates,
                patterns: patterns, entities: entities, db: db)
            let found = try finder.candidates(at: sids, from: from, to: from + windowMinutes * 60, limit: limit)
            return try found.map { try departure($0, feed: source, db: db) }
        }
    }

    func instant(_ time: QueryTime, in feed: FeedCatalog.Feed) -> Int {
        switch time {
        case .instant(let date): return Int(date.timeIntervalSince1970.rounded(.down))
        case .local(let day, let seconds): return feed.clock.instant(localDay: day.civil, secondsOfDay: seconds)
        }
    }

    /// Refuses windows that no service day of the feed can reach.
    private func checkRange(_ feed: FeedCatalog.Feed, from: Int, to: Int) throws {
        guard let first = feed.firstDate, let last = feed.lastDate else { return }
        let earlierDays = (feed.maxTimeSecs + 86_399) / 86_400
        let startDay = feed.clock.localDay(of: from)
        let endDay = feed.clock.localDay(of: max(from, to - 1))
        if endDay < first.adding(days: -1) || startDay > last.adding(days: earlierDays) {
            throw TransitError.dateOutOfRange(startDay.iso, feed: feed.feedID, first: first.iso, last: last.iso)
        }
    }

    private func departure(_ c: DepartureFinder.Candidate, feed: FeedCatalog.Feed, db: SQLiteDatabase) throws -> Departure {
        let stop = try entities.stop(c.sid, db: db)
        let trip = c.trip
        let tripID = try patterns.trip(trip.tid, db: db).tripID
        let route = try entities.route(trip.rid, db: db)
        let headsign: String
        if let hid = c.stopHeadsign ?? trip.hid {
            headsign = try entities.headsign(hid, db: db)
        } else {
            headsign = try entities.stop(c.pattern.stops.last?.sid ?? c.sid, db: db).name
        }
        return Departure(
            feedID: feed.feedID, stopID: stop.stopID, stopName: stop.name, platformCode: stop.platformCode,
            tripID: tripID, routeID: route.routeID, routeShortName: route.shortName,
            routeLongName: route.longName, routeType: route.routeType, routeColor: route.color,
            routeTextColor: route.textColor, headsign: headsign, serviceDate: ServiceDate(c.serviceDay),
            departureSecs: c.departureSecs, departure: Date(timeIntervalSince1970: TimeInterval(c.instant)),
            departureLocal: feed.clock.local(c.instant), pickupType: c.pickupType,
            frequencyBased: c.frequencyBased, wheelchairAccessible: trip.wheelchairAccessible)
    }

    // MARK: - Info

    /// The bundle's identity (id, label, compiler, content hash), feeds and their coverage,
    /// counts and the schema version.
    public func info() throws -> BundleInfo {
        try pool.with { db in
            var values: [String: String] = [:]
            let meta = try db.cached("SELECT key, value FROM metadata")
            while try meta.step() { values[meta.string("key")] = meta.string("value") }
            let count = { (key: String) in values[key].flatMap { Int($0) } ?? 0 }
            let feeds = catalog.feeds.map {
                BundleInfo.Feed(
                    feedID: $0.feedID, timezone: $0.timezone, version: $0.version, firstServiceDate: $0.firstDate.map(ServiceDate.init),
                    lastServiceDate: $0.lastDate.map(ServiceDate.init), lastTripDate: $0.lastTripDate.map(ServiceDate.init),
                    sha256: $0.sha256)
            }
            let coverage = BundleInfo.Coverage(
                firstServiceDate: feeds.compactMap(\.firstServiceDate).min(), lastServiceDate: feeds.compactMap(\.lastServiceDate).max(),
                lastTripDate: feeds.compactMap(\.lastTripDate).max())
            return BundleInfo(
                bundleID: values["bundle_id"] ?? "", label: values["label"], compilerVersion: values["compiler_version"],
                schemaVersion: BundleSchema.version, contentHash: values["content_sha256"] ?? "", coverage: coverage, feeds: feeds,
                stops: count("stops"), routes: count("routes"), trips: count("trips"), patterns: count("patterns"),
                stopTimes: count("stop_times"), cities: count("cities"))
        }
    }

    /// Recomputes the content hash from the rows and compares it with the one the bundle
    /// records: false when the file was altered after it was compiled. Reads every row
    /// (about 0.1 s per 500,000 stop_times); for checks after a download, not for every open.
    public func verifyContentHash() throws -> Bool {
        let recorded = try info().contentHash
        return try pool.with { db in try ContentHash.compute(db) == recorded }
    }
}
