import BundleFormat
import Foundation
import TransitSQLite

/// A compiled transit bundle, opened read-only. Answers departures, stop searches,
/// trips and bundle facts offline. One instance may be shared by many threads.
///
/// ```swift
/// let bundle = try TransitBundle(path: "city.db")
/// let next = try bundle.departures(from: "GARE_01", at: .local(LocalDate("2026-03-29")!, secondsOfDay: 8 * 3600))
/// for d in next { print(d.departureTime, d.routeShortName ?? "", d.headsign) }
/// ```
public final class TransitBundle: Sendable {
    public let path: String
    package let pool: ConnectionPool
    /// The counts checked when the bundle was opened (`BundleCheck`).
    let bounds: BundleCheck.Bounds
    let catalog: FeedCatalog
    let calendar: ServiceCalendar
    let entities = EntityCache()
    let patterns = PatternCache()
    let dayStarts = LockedCache<Int, Int>(limit: 4096)
    let templates = LockedCache<Int, [DepartureFinder.TemplateAtStop]>()
    /// Decoded `shape_edges` rows by first eid (an edge is shared by many shapes).
    let shapeEdges = LockedCache<Int, ShapeBlob.Row>(limit: 1024)
    /// Shapes built from their edges, by shp.
    let shapeCache = LockedCache<Int, Shape>(limit: 2048)
    /// Each route's lines, by rid (their points are the arrays `shapeCache` holds).
    let routeShapes = LockedCache<Int, [Shape]>(limit: 512)
    /// trip_short_name by tid, read on first use; `hasTripNames` is false when no trip has one.
    let tripNames = LockedCache<Int, String?>(limit: 65_536)
    let hasTripNames: Bool
    /// The timetable as the journey planner reads it, built on the first journey query.
    let routing = Locked<RoutingNetwork?>(nil)
    /// The same run backwards, for arrive-by journeys, built on the first one.
    let mirroredRouting = Locked<RoutingNetwork?>(nil)
    /// Walks between stops, by transfer distance (decimetres).
    let footpaths = LockedCache<Int, TransferTimes.Footpaths>(limit: 4)
    /// Transfers with their times, by the options they depend on.
    let transferGraphs = LockedCache<TransferGraphKey, TransferGraph>(limit: 8)
    /// Label arrays of finished journey searches, for the next ones (a few at a time).
    let labelPool = Locked<[RaptorSearch.Labels]>([])
    /// Trips' schedules as live data asked for them, by trip id (`tripSchedule`).
    let tripSchedules = LockedCache<TripScheduleKey, TripSchedule>(limit: 100_000)

    /// Opens the bundle at `path` and checks its schema and the values that steer the
    /// queries (`BundleCheck`: a few milliseconds for a city).
    /// - Throws: `TransitError.notABundle` (not SQLite, empty, truncated, a table missing),
    ///   `TransitError.unsupportedSchemaVersion`, or `TransitError.corruptBundle` naming the
    ///   table and value that cannot be trusted (a view for a table, a stop in no feed, ...).
    public init(path: String) throws {
        self.path = path
        let identity = FileIdentity(path: path)
        let db = try ConnectionPool.openChecked(path)
        do {
            bounds = try BundleCheck.run(db)
            catalog = try FeedCatalog(db: db)
            calendar = try ServiceCalendar(db: db)
            hasTripNames = try db.scalarInt("SELECT EXISTS (SELECT 1 FROM trip_names)") == 1
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

    /// Frees the memory of everything decoded so far (patterns, stops, routes, shapes, trip
    /// names): call it when the system warns of low memory. Later questions read again what
    /// they need, and answer the same; questions running meanwhile finish normally.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil) { _ in
    ///     bundle.purge()
    /// }
    /// ```
    public func purge() {
        entities.purge()
        patterns.purge()
        dayStarts.removeAll()
        templates.removeAll()
        shapeEdges.removeAll()
        shapeCache.removeAll()
        routeShapes.removeAll()
        tripNames.removeAll()
        routing.withLock { $0 = nil }
        mirroredRouting.withLock { $0 = nil }
        footpaths.removeAll()
        transferGraphs.removeAll()
        labelPool.withLock { $0 = [] }
        tripSchedules.removeAll()
    }

    /// The feeds in the bundle, by id.
    public var feedIDs: [String] { catalog.feeds.map(\.feedID) }

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
