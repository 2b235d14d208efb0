import BundleFormat
import Foundation
import TransitSQLite

/// What a bundle must hold before the runtime trusts it, checked once when it is opened
/// (`TransitBundle(path:)`, and so the store's install). A bundle is a file from outside: a
/// value that sizes an allocation, bounds a loop or indexes an array is checked here, with
/// SQL aggregates over its plain tables, so that the queries can rely on it:
///
/// - every required table, and every optional one the bundle has, is an ordinary table (a
///   view could compute anything: an endless recursive query, a gigabyte value), and the
///   FTS5 indexes are virtual tables;
/// - feeds are numbered 1...n (at most `maxFeeds`), each with a `max_time_secs` of 0 to
///   `maxTimeSecs` (7 days) and a known time zone name;
/// - stops are numbered from 1 to at most `maxStops` (ids may have gaps: a bundle compiled
///   against an earlier version keeps its ids), each in a feed, with its station among the
///   stops and its coordinates on Earth;
/// - every row that names a feed (agencies, routes, patterns, shapes, id lookups, cities)
///   names one, route, pattern, agency and shape ids stay within `maxIDs` and service ids
///   within `maxServices`;
/// - frequencies have a headway of 1 s to 1 day and windows within `maxTimeSecs`;
/// - transfers join stops that exist, with types 0 to 5 and times of 0 to 1 day;
/// - metadata values are at most 64 KB.
///
/// Packed columns (pattern stops and trips, trip id blocks, ...) are checked where they are
/// decoded, against the bounds checked here. The whole check runs under a budget of SQLite
/// steps (`stepBudget`): a bundle that makes it run longer is refused, never waited for.
///
/// ```swift
/// let bounds = try BundleCheck.run(db)   // throws TransitError.corruptBundle naming table and value
/// ```
package enum BundleCheck {
    static let maxFeeds = 1_000
    static let maxStops = 2_000_000
    static let maxIDs = 50_000_000
    static let maxServices = 1_000_000
    static let maxTimeSecs = 7 * 86_400
    static let maxMetadataBytes = 65_536
    /// SQLite virtual-machine steps the check may take: about two seconds on a phone; a
    /// valid bundle of 2 million stops takes about a tenth of it.
    static let stepBudget: Int64 = 400_000_000

    /// The bounds a valid bundle gave, for the queries to check decoded values against.
    package struct Bounds: Sendable {
        var feeds: Int
        /// The largest sid (0 for none).
        var stops: Int
        /// The optional tables the bundle has (`BundleSchema.optionalTables`): a query of one
        /// it lacks answers as if it were empty.
        var optionalTables: Set<String>
    }

    /// Checks the values (`ConnectionPool.openChecked` has checked the tables and schema).
    package static func run(_ db: SQLiteDatabase) throws -> Bounds {
        try withBudget(db) {
            var tables = Set<String>()
            let list = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            while try list.step() {
                let name = list.string(0)
                if BundleSchema.optionalTables.contains(name) { tables.insert(name) }
            }
            try checkMetadata(db)
            let feeds = try checkFeeds(db)
            let stops = try checkStops(db, feeds: feeds)
            try checkReferences(db, feeds: feeds, hasCities: tables.contains("city_feeds"))
            if tables.contains("frequencies") { try checkFrequencies(db) }
            if tables.contains("transfers") { try checkTransfers(db, stops: stops) }
            return Bounds(feeds: feeds, stops: stops, optionalTables: tables)
        }
    }

    private static func damaged(_ what: String) -> TransitError { .corruptBundle(reason: what) }

    /// Required tables are tables; the FTS indexes are FTS5 virtual tables.
    static func checkTables(_ db: SQLiteDatabase, path: String) throws {
        var kinds: [String: (type: String, sql: String)] = [:]
        let list = try db.prepare("SELECT name, type, coalesce(sql, '') FROM sqlite_master WHERE type IN ('table', 'view')")
        while try list.step() { kinds[list.string(0)] = (list.string(1), list.string(2)) }
        // Optional tables may be missing (BundleSchema.optionalTables); when there, they are
        // checked as the required ones.
        for name in BundleSchema.requiredTables + BundleSchema.optionalTables.sorted() {
            guard let kind = kinds[name] else {
                // The city tables are there all together or not at all.
                if BundleSchema.optionalTables.contains(name),
                    !BundleSchema.cityTables.contains(name) || !BundleSchema.cityTables.contains(where: { kinds[$0] != nil })
                {
                    continue
                }
                // A bundle of an earlier schema lacks the tables added since: say so.
                if kinds["metadata"]?.type == "table", let found = try? olderSchemaVersion(db) {
                    throw TransitError.notABundle(
                        path: path, reason: "schema version \(found) is older than this runtime reads (\(BundleSchema.version))")
                }
                throw TransitError.notABundle(path: path, reason: "table \(name) is missing")
            }
            guard kind.type == "table" else { throw damaged("\(name) is a \(kind.type), not a table") }
            let isVirtual = kind.sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE")
            let shouldBeVirtual = name.hasSuffix("_fts")
            if isVirtual != shouldBeVirtual {
                throw damaged(
                    "\(name) is \(isVirtual ? "a virtual table" : "an ordinary table"), not \(shouldBeVirtual ? "FTS5" : "a plain table")")
            }
            if isVirtual && !kind.sql.lowercased().contains("using fts5") { throw damaged("\(name) is not an FTS5 table") }
        }
    }

    /// The schema version `metadata` records when it is below this runtime's, else nil.
    private static func olderSchemaVersion(_ db: SQLiteDatabase) throws -> Int? {
        let version = try db.prepare("SELECT value FROM metadata WHERE key = 'schema_version'")
        guard try version.step(), let found = Int(version.string(0)), found < BundleSchema.version else { return nil }
        return found
    }

    /// Runs `body` within `stepBudget` SQLite steps.
    private static func withBudget<T>(_ db: SQLiteDatabase, _ body: () throws -> T) throws -> T {
        do {
            return try db.withStepBudget(stepBudget, body)
        } catch let error as SQLiteError where error.code == SQLiteError.interrupted {
            throw damaged("checking the bundle took more than \(stepBudget) SQLite steps")
        }
    }

    /// Throws `corruptBundle` with `describe`'s text for the first row `sql` finds, if any.
    private static func refuseFirstRow(_ db: SQLiteDatabase, _ sql: String, describe: (SQLiteStatement) -> String) throws {
        let row = try db.prepare(sql)
        if try row.step() { throw damaged(describe(row)) }
    }

    /// An integer aggregate; NULL (no rows) is nil.
    private static func value(_ db: SQLiteDatabase, _ sql: String) throws -> Int? { try db.scalarInt(sql) }

    private static func checkMetadata(_ db: SQLiteDatabase) throws {
        if let longest = try value(db, "SELECT max(length(CAST(value AS BLOB))) FROM metadata"), longest > maxMetadataBytes {
            throw damaged("a metadata value of \(longest) bytes (at most \(maxMetadataBytes))")
        }
        if let keys = try value(db, "SELECT count(*) FROM metadata"), keys > 1_000 { throw damaged("\(keys) metadata keys") }
    }

    /// Feeds numbered 1...n; their largest times and time zones. Returns n.
    private static func checkFeeds(_ db: SQLiteDatabase) throws -> Int {
        let count = try value(db, "SELECT count(*) FROM feeds") ?? 0
        guard count <= maxFeeds else { throw damaged("feeds: \(count) rows (at most \(maxFeeds))") }
        if count > 0 {
            let low = try value(db, "SELECT min(fid) FROM feeds") ?? 0
            let high = try value(db, "SELECT max(fid) FROM feeds") ?? 0
            guard low == 1, high == count else { throw damaged("feeds: fid runs from \(low) to \(high) for \(count) feeds") }
        }
        let times = try db.prepare("SELECT fid, max_time_secs, timezone FROM feeds")
        while try times.step() {
            let (fid, maxTime, zone) = (times.int(0), times.int(1), times.string(2))
            guard (0...maxTimeSecs).contains(maxTime) else {
                throw damaged("feeds: feed \(fid) has max_time_secs \(maxTime) (0 to \(maxTimeSecs))")
            }
            guard zone.utf8.count <= 64, TimeZone(identifier: zone) != nil else {
                throw damaged("feeds: feed \(fid) has time zone \"\(zone.prefix(64))\", not a known zone name")
            }
        }
        return count
    }

    /// Stops numbered from 1, each in a feed, its station a stop, its place on Earth. Returns
    /// the largest sid.
    private static func checkStops(_ db: SQLiteDatabase, feeds: Int) throws -> Int {
        let count = try value(db, "SELECT count(*) FROM stops") ?? 0
        guard count <= maxStops else { throw damaged("stops: \(count) rows (at most \(maxStops))") }
        guard count > 0 else { return 0 }
        // Ids may have gaps (a bundle compiled against an earlier version keeps its ids), but
        // the largest sizes the planner's arrays.
        let low = try value(db, "SELECT min(sid) FROM stops") ?? 0
        let high = try value(db, "SELECT max(sid) FROM stops") ?? 0
        guard low >= 1, high <= maxStops else { throw damaged("stops: sid runs from \(low) to \(high) (1 to \(maxStops))") }
        // One pass over the table for its feeds, stations and coordinates (a pass each was
        // half the opening of a 54,000-stop bundle).
        let bad = """
            SELECT sid, fid, parent_sid FROM stops
            WHERE fid NOT BETWEEN 1 AND \(feeds) OR parent_sid NOT BETWEEN 1 AND \(high)
               OR lat_e7 NOT BETWEEN -900000000 AND 900000000 OR lon_e7 NOT BETWEEN -1800000000 AND 1800000000
            LIMIT 1
            """
        try refuseFirstRow(db, bad) { row in
            let (fid, parent) = (row.int(1), row.optionalInt(2))
            if fid < 1 || fid > feeds { return "stops: fid \(fid) names no feed" }
            if let parent, parent < 1 || parent > high { return "stops: parent_sid \(parent) names no stop" }
            return "stops: stop \(row.int(0)) lies outside latitude ±90 or longitude ±180"
        }
        return high
    }

    /// Routes, agencies and service ids within their ranges and feeds; patterns' ids within
    /// theirs.
    private static func checkReferences(_ db: SQLiteDatabase, feeds: Int, hasCities: Bool) throws {
        // One pass over each table for its feed and its key. A pattern's feed is never read
        // (its trips and stops carry what the runtime uses): only its pid is checked, from
        // the key's ends (a pass over the 82,160 patterns of 40 x Strasbourg was 13 ms of the
        // opening). Code that comes to read `patterns.fid` checks it here first.
        let ends = try db.prepare("SELECT min(pid), max(pid) FROM patterns")
        if try ends.step(), let low = ends.optionalInt(0), let high = ends.optionalInt(1), low < 1 || high > maxIDs {
            throw damaged("patterns: pid \(low < 1 ? low : high) is out of range (1 to \(maxIDs))")
        }
        let keys = ["routes": "rid", "dict_route": "rid", "agencies": "aid", "shapes": "shp"]
        for table in ["agencies", "dict_route", "stop_ids", "routes", "shapes", "trip_ids"] + (hasCities ? ["city_feeds"] : []) {
            let key = keys[table] ?? "NULL"
            let bad = "SELECT fid, \(key) FROM \(table) WHERE fid NOT BETWEEN 1 AND \(feeds) OR \(key) NOT BETWEEN 1 AND \(maxIDs) LIMIT 1"
            try refuseFirstRow(db, bad) { row in
                let fid = row.int(0)
                if fid < 1 || fid > feeds { return "\(table): fid \(fid) names no feed" }
                return "\(table): \(key) \(row.int(1)) is out of range (1 to \(maxIDs))"
            }
        }
        // The largest sv sizes each date's set of running services (kept for 512 dates).
        for table in ["calendar", "service_dates"] {
            if let sv = try value(db, "SELECT sv FROM \(table) WHERE sv NOT BETWEEN 0 AND \(maxServices) LIMIT 1") {
                throw damaged("\(table): sv \(sv) is out of range (0 to \(maxServices))")
            }
        }
        let badDates =
            "SELECT sv FROM calendar WHERE start_date NOT BETWEEN 10000101 AND 99991231 OR end_date NOT BETWEEN 10000101 AND 99991231 LIMIT 1"
        if let sv = try value(db, badDates) { throw damaged("calendar: service \(sv) has a date outside years 1000 to 9999") }
    }

    private static func checkFrequencies(_ db: SQLiteDatabase) throws {
        let bad = """
            SELECT tid, start_time_secs, end_time_secs, headway_secs FROM frequencies
            WHERE headway_secs NOT BETWEEN 1 AND 86400 OR start_time_secs NOT BETWEEN 0 AND \(maxTimeSecs)
               OR end_time_secs NOT BETWEEN 0 AND \(maxTimeSecs) OR tid NOT BETWEEN 1 AND \(maxIDs)
            LIMIT 1
            """
        try refuseFirstRow(db, bad) { row in
            "frequencies: trip \(row.int(0)) has the window \(row.int(1))-\(row.int(2)) s every \(row.int(3)) s "
                + "(headway 1 s to 1 day, times 0 to \(maxTimeSecs) s)"
        }
    }

    private static func checkTransfers(_ db: SQLiteDatabase, stops: Int) throws {
        let bad = """
            SELECT from_sid, to_sid, transfer_type, min_transfer_time FROM transfers
            WHERE from_sid NOT BETWEEN 1 AND \(stops) OR to_sid NOT BETWEEN 1 AND \(stops) OR transfer_type NOT BETWEEN 0 AND 5
               OR min_transfer_time NOT BETWEEN 0 AND 86400
            LIMIT 1
            """
        try refuseFirstRow(db, bad) { row in
            "transfers: the row from stop \(row.int(0)) to stop \(row.int(1)) (type \(row.int(2))) names a missing stop, "
                + "an unknown type or a time outside 0 to 86,400 s"
        }
    }
}
