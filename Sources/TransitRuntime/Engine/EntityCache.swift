import BundleFormat

/// Small, often-needed rows (stops, routes, headsigns, pattern ends), read on first
/// use and kept. Safe to share between threads.
final class EntityCache: Sendable {
    struct StopRow: Sendable {
        let sid: Int
        let fid: Int
        let stopID: String
        let name: String
        let code: String?
        let lat: Double?
        let lon: Double?
        let locationType: Int
        let parentSid: Int?
        let platformCode: String?
        let wheelchairBoarding: Int

        /// A row of `stopColumns`.
        init(row q: SQLiteStatement) {
            sid = q.int("sid")
            fid = q.int("fid")
            stopID = q.string("stop_id")
            name = q.string("name")
            code = q.optionalString("code")
            lat = q.optionalDouble("lat")
            lon = q.optionalDouble("lon")
            locationType = q.int("location_type")
            parentSid = q.optionalInt("parent_sid")
            platformCode = q.optionalString("platform_code")
            wheelchairBoarding = q.int("wheelchair_boarding")
        }

        /// What `init(row:)` reads, over `stops s JOIN dict_stop d`.
        static let columns = """
            s.sid, s.fid, d.stop_id, s.name, s.code, s.lat, s.lon, s.location_type, s.parent_sid, s.platform_code, s.wheelchair_boarding
            """
    }

    struct RouteRow: Sendable {
        let routeID: String
        let shortName: String?
        let longName: String?
        let routeType: Int
        let color: String?
        let textColor: String?

        /// A row of `routes r JOIN dict_route d`.
        init(row q: SQLiteStatement) {
            routeID = q.string("route_id")
            shortName = q.optionalString("short_name")
            longName = q.optionalString("long_name")
            routeType = q.int("route_type")
            color = q.optionalString("color")
            textColor = q.optionalString("text_color")
        }
    }

    /// A pattern's stop where trips may be boarded (not its last stop, pickup_type not 1).
    struct DepartingStop: Sendable {
        let pid: Int
        let departureOffset: Int
        let pickupType: Int
        let stopHeadsign: Int?
    }

    /// A pattern's regular (not frequency-based) trips, sorted by start time.
    struct PatternTrips: Sendable {
        let starts: [Int32]
        let services: [Int32]
        let tids: [Int32]

        /// The first index whose start is >= `value`.
        func lowerBound(_ value: Int) -> Int {
            var low = 0
            var high = starts.count
            while low < high {
                let mid = (low + high) / 2
                if Int(starts[mid]) < value { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    private let stops = LockedCache<Int, StopRow>()
    private let searchKeys = LockedCache<Int, String>()
    private let departing = LockedCache<Int, [DepartingStop]>()
    private let patternTrips = LockedCache<Int, PatternTrips>()
    private let children = LockedCache<Int, [Int]>()
    private let routes = LockedCache<Int, RouteRow>()
    private let headsigns = LockedCache<Int, String>()
    private let lastStops = LockedCache<Int, Int>()

    func stop(_ sid: Int, db: SQLiteDatabase) throws -> StopRow {
        try stops.value(sid) {
            let q = try db.cached("SELECT \(StopRow.columns) FROM stops s JOIN dict_stop d ON d.sid = s.sid WHERE s.sid = ?1")
            q.bind([sid])
            guard try q.step() else { throw TransitError.sqlite(code: 0, message: "stop \(sid) is missing from the bundle") }
            return StopRow(row: q)
        }
    }

    /// The pattern stops at `sid` that are departures.
    func departingStops(at sid: Int, db: SQLiteDatabase) throws -> [DepartingStop] {
        try departing.value(sid) {
            let q = try db.cached(
                """
                SELECT ps.pid, ps.departure_offset_secs, ps.pickup_type, ps.hid FROM pattern_stops ps
                JOIN patterns p ON p.pid = ps.pid
                WHERE ps.sid = ?1 AND \(BundleSQL.patternStopIsDeparture)
                """)
            q.bind([sid])
            var result: [DepartingStop] = []
            while try q.step() {
                result.append(DepartingStop(pid: q.int(0), departureOffset: q.int(1), pickupType: q.int(2), stopHeadsign: q.optionalInt(3)))
            }
            try loadTrips(ofPatternsAt: sid, pids: result.map(\.pid), db: db)
            return result
        }
    }

    /// Reads every pattern's trips and every stop's departing pattern stops in two scans.
    func preloadDepartures(db: SQLiteDatabase) throws {
        let trips = try db.prepare("\(BundleSQL.patternTrips) \(BundleSQL.patternTripsOrder)")
        try cachePatternTrips(from: trips, only: nil)
        let stops = try db.prepare(
            """
            SELECT ps.sid, ps.pid, ps.departure_offset_secs, ps.pickup_type, ps.hid FROM pattern_stops ps
            JOIN patterns p ON p.pid = ps.pid WHERE \(BundleSQL.patternStopIsDeparture)
            """)
        var bySid: [Int: [DepartingStop]] = [:]
        while try stops.step() {
            bySid[stops.int(0), default: []].append(
                DepartingStop(
                    pid: stops.int(1), departureOffset: stops.int(2),
                    pickupType: stops.int(3), stopHeadsign: stops.optionalInt(4)))
        }
        for (sid, list) in bySid { departing.insert(sid, list) }
    }

    /// Reads the trips of every pattern at `sid` not yet cached, in one statement.
    private func loadTrips(ofPatternsAt sid: Int, pids: [Int], db: SQLiteDatabase) throws {
        let missing = Set(pids.filter { !patternTrips.contains($0) })
        guard missing.count > 1 else { return }
        let q = try db.cached(
            "\(BundleSQL.patternTrips) AND pid IN (SELECT pid FROM pattern_stops WHERE sid = ?1) \(BundleSQL.patternTripsOrder)")
        q.bind([sid])
        try cachePatternTrips(from: q, only: missing)
    }

    /// Caches the rows of `(pid, start_time_secs, sv, tid)` ordered by pid and start, one
    /// `PatternTrips` per pid (only for pids in `only`, when given).
    private func cachePatternTrips(from q: SQLiteStatement, only: Set<Int>?) throws {
        try Self.readPatternTrips(q) { pid, trips in
            if only?.contains(pid) != false { patternTrips.insert(pid, trips) }
        }
    }

    /// Groups rows of `(pid, start_time_secs, sv, tid)`, ordered by pid, into one `PatternTrips` per pid.
    private static func readPatternTrips(_ q: SQLiteStatement, each: (Int, PatternTrips) -> Void) throws {
        var pid = -1
        var starts: [Int32] = []
        var services: [Int32] = []
        var tids: [Int32] = []
        func flush() {
            if pid >= 0 { each(pid, PatternTrips(starts: starts, services: services, tids: tids)) }
            starts = []
            services = []
            tids = []
        }
        while try q.step() {
            if q.int(0) != pid {
                flush()
                pid = q.int(0)
            }
            starts.append(Int32(q.int(1)))
            services.append(Int32(q.int(2)))
            tids.append(Int32(q.int(3)))
        }
        flush()
    }

    /// The regular trips of pattern `pid` by start time, read once.
    func trips(ofPattern pid: Int, db: SQLiteDatabase) throws -> PatternTrips {
        try patternTrips.value(pid) {
            let q = try db.cached("\(BundleSQL.patternTrips) AND pid = ?1 \(BundleSQL.patternTripsOrder)")
            q.bind([pid])
            var result = PatternTrips(starts: [], services: [], tids: [])
            try Self.readPatternTrips(q) { result = $1 }
            return result
        }
    }

    /// The normalized name of stop `sid` (see `SearchKey`), computed once.
    func searchKey(_ sid: Int, name: String) -> String {
        searchKeys.value(sid) { SearchKey.normalize(name) }
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
            let q = try db.cached(
                """
                SELECT d.route_id, r.short_name, r.long_name, r.route_type, r.color, r.text_color
                FROM routes r JOIN dict_route d ON d.rid = r.rid WHERE r.rid = ?1
                """)
            q.bind([rid])
            guard try q.step() else { throw TransitError.sqlite(code: 0, message: "route \(rid) is missing from the bundle") }
            return RouteRow(row: q)
        }
    }

    func headsign(_ hid: Int, db: SQLiteDatabase) throws -> String {
        try headsigns.value(hid) {
            let q = try db.cached("SELECT text FROM headsigns WHERE hid = ?1")
            q.bind([hid])
            return try q.step() ? q.string(0) : ""
        }
    }

    /// The sid of a pattern's last stop (the fallback headsign).
    func lastStop(ofPattern pid: Int, db: SQLiteDatabase) throws -> Int {
        try lastStops.value(pid) {
            let q = try db.cached("SELECT sid FROM pattern_stops WHERE pid = ?1 ORDER BY idx DESC LIMIT 1")
            q.bind([pid])
            return try q.step() ? q.int(0) : 0
        }
    }
}
