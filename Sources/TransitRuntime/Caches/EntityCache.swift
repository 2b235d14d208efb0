import BundleFormat
import TransitSQLite

/// Small, often-needed rows (stops, routes, headsigns, a station's platforms), read on first
/// use and kept, their names in the bundle's language where the feed translates them.
/// Safe to share between threads.
final class EntityCache: Sendable {
    /// The language tags names are looked up in, most specific first ("fr-ch", "fr");
    /// empty: the feeds' own names.
    let languages: [String]

    init(languages: [String] = []) {
        self.languages = languages
    }

    struct StopRow: Sendable {
        let sid: Int
        let fid: Int
        let stopID: String
        var name: String
        let code: String?
        let lat: Double?
        let lon: Double?
        let locationType: Int
        let parentSid: Int?
        let platformCode: String?
        let wheelchairBoarding: Int

        /// A row of `stopColumns`; a text longer than `BundleLimits.maxTextBytes` is a damaged bundle.
        init(row q: SQLiteStatement) throws {
            try EntityCache.checkTexts(q, ["stop_id", "name", "code", "platform_code"], of: "stops: stop \(q.int("sid"))")
            sid = q.int("sid")
            fid = q.int("fid")
            stopID = q.string("stop_id")
            name = q.string("name")
            code = q.optionalString("code")
            lat = q.optionalInt("lat_e7").map(StopGrid.degrees)
            lon = q.optionalInt("lon_e7").map(StopGrid.degrees)
            locationType = q.int("location_type")
            parentSid = q.optionalInt("parent_sid")
            platformCode = q.optionalString("platform_code")
            wheelchairBoarding = q.int("wheelchair_boarding")
        }

        /// What `init(row:)` reads from `stops`.
        static let columns = """
            sid, fid, stop_id, name, code, lat_e7, lon_e7, location_type, parent_sid, platform_code, wheelchair_boarding
            """
    }

    struct RouteRow: Sendable {
        let rid: Int
        let fid: Int
        let agencyID: String?
        /// The agency's aid, for its translated name.
        let aid: Int?
        var agencyName: String?
        let routeID: String
        var shortName: String?
        var longName: String?
        let routeType: RouteType
        let color: HexColor?
        let textColor: HexColor?

        /// A row of `columns` from `tables`; a text longer than `BundleLimits.maxTextBytes` is a
        /// damaged bundle.
        init(row q: SQLiteStatement) throws {
            try EntityCache.checkTexts(
                q, ["agency_id", "agency_name", "route_id", "short_name", "long_name"], of: "routes: route \(q.int("rid"))")
            rid = q.int("rid")
            fid = q.int("fid")
            agencyID = q.optionalString("agency_id")
            aid = q.optionalInt("aid")
            agencyName = q.optionalString("agency_name")
            routeID = q.string("route_id")
            shortName = q.optionalString("short_name")
            longName = q.optionalString("long_name")
            routeType = RouteType(rawValue: q.int("route_type"))
            color = q.optionalString("color").flatMap(HexColor.init)
            textColor = q.optionalString("text_color").flatMap(HexColor.init)
        }

        /// What `init(row:)` reads, from `tables`.
        static let columns =
            "r.rid, r.fid, a.agency_id, r.aid, a.name AS agency_name, d.route_id, r.short_name, r.long_name, r.route_type, r.color, r.text_color"
        static let tables = "routes r JOIN dict_route d ON d.rid = r.rid LEFT JOIN agencies a ON a.aid = r.aid"
    }

    /// Refuses a row whose `columns` hold more than `BundleLimits.maxTextBytes`, naming
    /// `what` (a 50 MB stop name made a trip's text 1.2 GB).
    static func checkTexts(_ q: SQLiteStatement, _ columns: [String], of what: @autoclosure () -> String) throws {
        for column in columns where q.byteCount(column) > BundleLimits.maxTextBytes {
            throw TransitError.corruptBundle(
                reason: "\(what()) has a \(column) of \(q.byteCount(column)) bytes (at most \(BundleLimits.maxTextBytes))")
        }
    }

    private let stops = LockedCache<Int, StopRow>()
    private let searchKeys = LockedCache<Int, String>()
    /// Read on the first stop search.
    private let nameLengths = Locked<StopNameLengths?>(nil)
    private let children = LockedCache<Int, [Int]>()
    private let routes = LockedCache<Int, RouteRow>()
    private let headsigns = LockedCache<Int, String>()
    /// Text stop ids already looked up (nil: the feed has none), per feed: a board names
    /// its stop by text id every time. Emptied past 100,000.
    private let sids = LockedCache<StopKey, Int?>(limit: 100_000)

    private struct StopKey: Hashable, Sendable {
        var fid: Int
        var stopID: String
    }

    /// Forgets every row read so far.
    func purge() {
        stops.removeAll()
        searchKeys.removeAll()
        nameLengths.withLock { $0 = nil }
        children.removeAll()
        routes.removeAll()
        headsigns.removeAll()
        sids.removeAll()
    }

    /// The sid of text stop id `stopID` in feed `fid` (nil: none), found by `lookUp` the
    /// first time and kept.
    func sid(of stopID: String, fid: Int, lookUp: () throws -> Int?) rethrows -> Int? {
        try sids.value(StopKey(fid: fid, stopID: stopID), compute: lookUp)
    }

    /// Stop `sid` if it has been read already.
    func cachedStop(_ sid: Int) -> StopRow? { stops.cached(sid) }

    func stop(_ sid: Int, db: SQLiteDatabase) throws -> StopRow {
        try stops.value(sid) {
            let q = try db.cached("SELECT \(StopRow.columns) FROM stops WHERE sid = ?1")
            q.bind([sid])
            guard try q.step() else { throw TransitError.corruptBundle(reason: "stop \(sid) is missing from the bundle") }
            var row = try StopRow(row: q)
            if let name = try translation(.stopName, sid, db: db) { row.name = name }
            return row
        }
    }

    /// The normalized name of stop `sid` (see `SearchKey`), computed once.
    func searchKey(_ sid: Int, name: String) -> String {
        searchKeys.value(sid) { SearchKey.normalize(name) }
    }

    /// Every stop's name length, read on first use.
    func stopNameLengths(db: SQLiteDatabase) throws -> StopNameLengths {
        if let known = nameLengths.withLock({ $0 }) { return known }
        let read = try StopNameLengths(db: db)
        nameLengths.withLock { $0 = $0 ?? read }
        return read
    }

    /// The stops whose parent_station is `sid`, in id order.
    func children(of sid: Int, db: SQLiteDatabase) throws -> [Int] {
        try children.value(sid) {
            let q = try db.cached("SELECT sid FROM stops WHERE parent_sid = ?1 ORDER BY sid")
            q.bind([sid])
            var result: [Int] = []
            while try q.step() { result.append(q.int(0)) }
            return result
        }
    }

    func route(_ rid: Int, db: SQLiteDatabase) throws -> RouteRow {
        try routes.value(rid) {
            let q = try db.cached("SELECT \(RouteRow.columns) FROM \(RouteRow.tables) WHERE r.rid = ?1")
            q.bind([rid])
            guard try q.step() else { throw TransitError.corruptBundle(reason: "route \(rid) is missing from the bundle") }
            return try translated(try RouteRow(row: q), db: db)
        }
    }

    /// `row` with its names (route short and long name, agency name) in the bundle's
    /// language where the feed translates them.
    func translated(_ row: RouteRow, db: SQLiteDatabase) throws -> RouteRow {
        guard !languages.isEmpty else { return row }
        var row = row
        if let name = try translation(.routeShortName, row.rid, db: db) { row.shortName = name }
        if let name = try translation(.routeLongName, row.rid, db: db) { row.longName = name }
        if let aid = row.aid, let name = try translation(.agencyName, aid, db: db) { row.agencyName = name }
        return row
    }

    /// Field `field` of `record` in the first of `languages` the bundle translates it to.
    func translation(_ field: TranslationField, _ record: Int, db: SQLiteDatabase) throws -> String? {
        guard !languages.isEmpty else { return nil }
        let q = try db.cached("SELECT translation FROM translations WHERE field = ?1 AND record = ?2 AND language = ?3")
        for language in languages {
            q.bind([field.rawValue, record, language])
            if try q.step() {
                try Self.checkTexts(q, ["translation"], of: "translations: record \(record)'s \(language)")
                return q.string(0)
            }
        }
        return nil
    }

    func headsign(_ hid: Int, db: SQLiteDatabase) throws -> String {
        try headsigns.value(hid) {
            if let text = try translation(.headsign, hid, db: db) { return text }
            let q = try db.cached("SELECT text FROM headsigns WHERE hid = ?1")
            q.bind([hid])
            guard try q.step() else { return "" }
            try Self.checkTexts(q, ["text"], of: "headsigns: headsign \(hid)")
            return q.string(0)
        }
    }
}
