import BundleFormat
import Foundation
import TransitSQLite

/// The bundle's timetable as the journey planner reads it: every pattern as a RAPTOR route
/// (a stop sequence whose trips share their time offsets, so none overtakes another), with
/// its trips by start time in flat integer arrays, and every stop with its coordinates,
/// station, accessibility, the routes through it and its `transfers.txt` rows.
///
/// Read once per bundle on the first journey query (the routes as the compiler planned
/// them, `planner_routes`), then shared by every query; immutable.
final class RoutingNetwork: Sendable {
    /// A `transfers.txt` rule from one stop to another (or the same) stop.
    struct TransferRule: Sendable {
        let to: Int32
        /// transfer_type as stored (`TransferType`'s raw value).
        let type: Int
        let minTime: Int?

        var kind: TransferType { TransferType(rawValue: type) }
    }

    /// The routes, their stops and trips.
    let tables: RouteTables

    /// Whether some route serves stop `sid`.
    func serves(_ sid: Int) -> Bool { tables.serves(sid) }
    let stopLatitude: [Double]
    let stopLongitude: [Double]
    let stopFid: [Int32]
    /// The station of a stop, 0 for none.
    let stopParent: [Int32]
    /// wheelchair_boarding, a platform's unknown (0) taking its station's value.
    let stopAccessible: [Bool]
    let transferRules: [Int32: [TransferRule]]
    /// pathways.txt: changes inside stations walk them.
    let pathways: StationPathways
    /// The served stops by cells ~1 km wide, for walks.
    let grid: StopWalkGrid
    /// `planner_walks`: the pairs of served stops within `storedWalks.metres` of each
    /// other, as the compiler stored them (checked when read), nil for a bundle without.
    let storedWalks: StoredWalks?

    /// The rows of `planner_walks`, kept packed (about a quarter of the bytes of arrays of
    /// sids) until the walks are measured.
    struct StoredWalks: Sendable {
        let metres: Double
        /// Each row's first stop and its packed walks (`PlannerWalksBlob`).
        let rows: [(firstSid: Int, walks: [UInt8])]
    }

    var stopCount: Int { stopFid.count }

    /// Reads the network with `db`; `spare` lends a second connection for reading part of
    /// it on another thread (`RouteTables.init(plannedIn:maxSid:feeds:windows:spare:)`).
    init(db: SQLiteDatabase, spare: RouteTables.SpareConnection? = nil) throws {
        // Stops.
        let maxSid = try db.scalarInt("SELECT MAX(sid) FROM stops") ?? 0
        var latitude = [Double](repeating: .nan, count: maxSid + 1)
        var longitude = [Double](repeating: .nan, count: maxSid + 1)
        var fid = [Int32](repeating: 0, count: maxSid + 1)
        var parent = [Int32](repeating: 0, count: maxSid + 1)
        var wheelchair = [Int](repeating: 0, count: maxSid + 1)
        let stops = try db.prepare("SELECT sid, fid, lat_e7, lon_e7, parent_sid, wheelchair_boarding FROM stops")
        while try stops.step() {
            let sid = stops.int(0)
            fid[sid] = Int32(stops.int(1))
            if let lat = stops.optionalInt(2), let lon = stops.optionalInt(3) {
                latitude[sid] = StopGrid.degrees(lat)
                longitude[sid] = StopGrid.degrees(lon)
            }
            parent[sid] = Int32(stops.optionalInt(4) ?? 0)
            wheelchair[sid] = stops.int(5)
        }
        stopAccessible = (0...maxSid).map { sid in
            let own = wheelchair[sid]
            return own == 1 || (own == 0 && parent[sid] != 0 && wheelchair[Int(parent[sid])] == 1)
        }
        stopLatitude = latitude
        stopLongitude = longitude
        stopFid = fid
        stopParent = parent

        // Frequency windows by trip, then the routes as the compiler planned them.
        let windows = try FrequencyTable.all(db: db).mapValues { list in
            list.map { (start: $0.startSecs, end: $0.endSecs, headway: max(1, $0.headwaySecs), exact: $0.exactTimes) }
        }
        let feeds = try db.scalarInt("SELECT COUNT(*) FROM feeds") ?? 0
        tables = try RouteTables(plannedIn: db, maxSid: maxSid, feeds: feeds, windows: windows, spare: spare)
        let tables = self.tables
        // Only stops some route serves are places to walk to.
        grid = StopWalkGrid(latitude: latitude, longitude: longitude) { tables.serves($0) }
        storedWalks = try Self.storedWalks(in: db, maxSid: maxSid)

        // transfers.txt: a row naming a station applies to each of its platforms. For a pair
        // of stops the most specific row counts: (stop, stop), then (stop, station),
        // (station, stop), (station, station).
        var rows: [Int32: [Int32: TransferRule]] = [:]
        if try db.hasTable("transfers") {
            let transfers = try db.prepare("SELECT from_sid, to_sid, transfer_type, min_transfer_time FROM transfers")
            while try transfers.step() {
                let to = Int32(transfers.int(1))
                rows[Int32(transfers.int(0)), default: [:]][to] = TransferRule(
                    to: to, type: transfers.int(2), minTime: transfers.optionalInt(3))
            }
        }
        var children: [Int32: [Int32]] = [:]
        for s in 1..<(maxSid + 1) where parent[s] != 0 { children[parent[s], default: []].append(Int32(s)) }
        var rules: [Int32: [TransferRule]] = [:]
        for from in Int32(1)..<Int32(maxSid + 1) {
            let station = parent[Int(from)]
            let named = Array((rows[from] ?? [:]).keys) + (station != 0 ? Array((rows[station] ?? [:]).keys) : [])
            guard !named.isEmpty else { continue }
            var targets = Set<Int32>()
            for to in named {
                targets.insert(to)
                for child in children[to] ?? [] { targets.insert(child) }
            }
            rules[from] = targets.sorted().compactMap { to in
                let toStation = parent[Int(to)]
                let rule =
                    rows[from]?[to] ?? (toStation != 0 ? rows[from]?[toStation] : nil)
                    ?? (station != 0 ? rows[station]?[to] : nil) ?? (station != 0 && toStation != 0 ? rows[station]?[toStation] : nil)
                return rule.map { TransferRule(to: to, type: $0.type, minTime: $0.minTime) }
            }
        }
        transferRules = rules
        pathways = try StationPathways(db: db, maxSid: maxSid) { Self.station(of: $0, parents: parent) }
    }

    /// The same network run backwards in time, for arrive-by queries (`RouteTables.mirrored`),
    /// with each transfers.txt rule from A to B listed at B. The earliest arrival in the
    /// mirror is the latest departure.
    func mirrored() -> RoutingNetwork { RoutingNetwork(mirroring: self) }

    private init(mirroring o: RoutingNetwork) {
        tables = o.tables.mirrored()
        stopLatitude = o.stopLatitude
        stopLongitude = o.stopLongitude
        stopFid = o.stopFid
        stopParent = o.stopParent
        stopAccessible = o.stopAccessible
        grid = o.grid
        storedWalks = o.storedWalks
        var into: [Int32: [TransferRule]] = [:]
        for (from, rules) in o.transferRules {
            for rule in rules { into[rule.to, default: []].append(TransferRule(to: from, type: rule.type, minTime: rule.minTime)) }
        }
        transferRules = into.mapValues { $0.sorted { $0.to < $1.to } }
        pathways = o.pathways.reversed()
    }

    /// Whether a walk from `a` to `b` goes along pathways: both are nodes of the pathways of
    /// one station (journey-semantics.md, "Inside stations").
    func walksInside(from a: Int, to b: Int) -> Bool {
        pathways.contains(a) && pathways.contains(b) && station(of: a) == station(of: b)
    }

    /// The station `sid` belongs to (itself for a stop without one; a boarding area's
    /// platform's station).
    func station(of sid: Int) -> Int { Self.station(of: sid, parents: stopParent) }

    /// The station of `sid` given each stop's parent (0 for none).
    private static func station(of sid: Int, parents: [Int32]) -> Int {
        let parent = Int(parents[sid])
        guard parent != 0 else { return sid }
        let grand = Int(parents[parent])
        return grand != 0 ? grand : parent
    }

    /// Straight-line metres between two stops, 0 when either has no coordinates.
    func metres(between a: Int, _ b: Int) -> Double {
        guard !stopLatitude[a].isNaN, !stopLatitude[b].isNaN else { return 0 }
        return GeoDistance.metres(stopLatitude[a], stopLongitude[a], stopLatitude[b], stopLongitude[b])
    }

    /// Stops within `radius` metres of a point, with their straight-line distance, by sid.
    func stops(near latitude: Double, _ longitude: Double, within radius: Double) -> [(sid: Int, distance: Double)] {
        var found: [(sid: Int, distance: Double)] = []
        grid.forEachCandidate(near: latitude, longitude, within: radius) { s in
            let d = GeoDistance.metres(latitude, longitude, stopLatitude[s], stopLongitude[s])
            if d <= radius { found.append((s, d)) }
        }
        return found.sorted { $0.sid < $1.sid }
    }

    /// `planner_walks` checked: one distance, rows of stops in order, not overlapping,
    /// every sid within 1...`maxSid`; nil without rows.
    private static func storedWalks(in db: SQLiteDatabase, maxSid: Int) throws -> StoredWalks? {
        func damaged(_ what: String) -> TransitError { .corruptBundle(reason: "the planner's walks: \(what)") }
        var metres: Int?
        var rows: [(firstSid: Int, walks: [UInt8])] = []
        var next = 1
        let query = try db.prepare("SELECT first_sid, within_metres, walks FROM planner_walks ORDER BY first_sid")
        while try query.step() {
            let (first, within) = (query.int(0), query.int(1))
            guard within == metres ?? within, (0...5000).contains(within) else {
                throw damaged("a row of stop \(first) is for \(within) m")
            }
            guard first >= next else { throw damaged("the row of stop \(first) overlaps the one before") }
            let walks = query.blob(2)
            let covered = try PatternCache.damagedAsError("the planner's walk row of stop \(first)") {
                try PlannerWalksBlob.decode(walks, firstSid: first, maxSid: maxSid).stops
            }
            (metres, next) = (within, first + covered)
            rows.append((first, walks))
        }
        return metres.map { StoredWalks(metres: Double($0), rows: rows) }
    }
}
