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
    /// The bundle file's path.
    public let path: String
    package let pool: ConnectionPool
    /// The counts checked when the bundle was opened (`BundleCheck`).
    let bounds: BundleCheck.Bounds
    let catalog: FeedCatalog
    let calendar: ServiceCalendar
    let entities: EntityCache
    /// The language names are answered in, as given to `init(path:language:)`; nil: the
    /// feeds' own names.
    public let language: String?
    let patterns = PatternCache()
    /// The other caches, one holder per feature, each clearing its own in `purge()`.
    let boardCaches = BoardCaches()
    let shapeCaches = ShapeCaches()
    let journeyCaches = JourneyCaches()
    let liveCaches = LiveCaches()
    let hasTripNames: Bool
    /// Whether some stop names a level (stop_levels has rows): only then does a stop answer
    /// read its level.
    let hasStopLevels: Bool
    /// The content hash the compiler recorded (`content_sha256`; empty if none): two
    /// bundles with the same one number their stops, trips and patterns alike, so live data
    /// matched against one holds for the other.
    package let contentHash: String

    /// Whether the bundle has `table`, one of `BundleSchema.optionalTables` (the compiler
    /// leaves out a table without rows): a query of a table it lacks answers nothing.
    package func has(_ table: String) -> Bool { bounds.optionalTables.contains(table) }

    /// Opens the bundle at `path` and checks its schema and the values that steer the
    /// queries (`BundleCheck`: a few milliseconds for a city). With a `language` (a BCP 47
    /// tag such as "fr" or "de-CH"), every answer names stops, routes, headsigns and
    /// agencies in that language where the feed translates them (translations.txt; "de-CH"
    /// falls back to "de"), and in the feed's own words elsewhere.
    ///
    /// ```swift
    /// let bundle = try TransitBundle(path: "geneva.db", language: Locale.preferredLanguages.first)
    /// ```
    /// - Throws: `TransitError.notABundle` (not SQLite, empty, truncated, a table missing),
    ///   `TransitError.unsupportedSchemaVersion`, or `TransitError.corruptBundle` naming the
    ///   table and value that cannot be trusted (a view for a table, a stop in no feed, ...).
    public init(path: String, language: String? = nil) throws {
        self.path = path
        self.language = language
        let identity = FileIdentity(path: path)
        let db = try ConnectionPool.openChecked(path)
        do {
            bounds = try BundleCheck.run(db)
            catalog = try FeedCatalog(db: db)
            calendar = try ServiceCalendar(db: db)
            let tables = bounds.optionalTables
            hasTripNames = tables.contains("trip_names")
            hasStopLevels = tables.contains("stop_levels") && tables.contains("levels")
            // Without translations no name is looked up in any language.
            let translated = tables.contains("translations")
            entities = EntityCache(languages: translated ? language.map(LanguageTag.fallbacks) ?? [] : [])
            let hash = try db.prepare("SELECT value FROM metadata WHERE key = 'content_sha256'")
            contentHash = try hash.step() ? hash.string(0) : ""
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
        boardCaches.purge()
        shapeCaches.purge()
        journeyCaches.purge()
        liveCaches.purge()
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
            var feeds = catalog.feeds.map {
                BundleInfo.Feed(
                    feedID: $0.feedID, timezone: $0.timezone, version: $0.version, firstServiceDate: $0.firstDate.map(ServiceDate.init),
                    lastServiceDate: $0.lastDate.map(ServiceDate.init), lastTripDate: $0.lastTripDate.map(ServiceDate.init),
                    sha256: $0.sha256)
            }
            try addPublishers(to: &feeds, db: db)
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

extension TransitBundle {
    /// feed_info's publisher, languages and contacts, and attributions.txt, into `feeds`
    /// (in catalog order, as `info()` builds them).
    fileprivate func addPublishers(to feeds: inout [BundleInfo.Feed], db: SQLiteDatabase) throws {
        let index = Dictionary(uniqueKeysWithValues: catalog.feeds.enumerated().map { ($1.fid, $0) })
        let info = try db.cached(
            "SELECT fid, publisher_name, publisher_url, feed_lang, default_lang, contact_email, contact_url FROM feeds")
        while try info.step() {
            guard let i = index[info.int(0)] else { continue }
            feeds[i].publisherName = info.optionalString(1)
            feeds[i].publisherURL = info.optionalString(2)
            feeds[i].language = info.optionalString(3)
            feeds[i].defaultLanguage = info.optionalString(4)
            feeds[i].contactEmail = info.optionalString(5)
            feeds[i].contactURL = info.optionalString(6)
        }
        guard has("attributions") else { return }
        let credits = try db.cached(
            """
            SELECT a.fid, a.organization_name, a.is_producer, a.is_operator, a.is_authority, g.agency_id, r.route_id, a.trip_id,
                   a.url, a.email, a.phone
            FROM attributions a LEFT JOIN agencies g ON g.aid = a.aid LEFT JOIN dict_route r ON r.rid = a.rid
            ORDER BY a.attribution
            """)
        while try credits.step() {
            guard let i = index[credits.int(0)] else { continue }
            feeds[i].attributions.append(
                Attribution(
                    organizationName: credits.string(1), isProducer: credits.int(2) == 1, isOperator: credits.int(3) == 1,
                    isAuthority: credits.int(4) == 1, agencyID: credits.optionalString(5), routeID: credits.optionalString(6),
                    tripID: credits.optionalString(7), url: credits.optionalString(8), email: credits.optionalString(9),
                    phone: credits.optionalString(10)))
        }
    }
}
