import BundleFormat
import Foundation
import TransitSQLite

/// The bundle's timetable as the journey planner reads it: every pattern as a RAPTOR route
/// (a stop sequence whose trips share their time offsets, so none overtakes another), with
/// its trips by start time in flat integer arrays, and every stop with its coordinates,
/// station, accessibility, the routes through it and its `transfers.txt` rows.
///
/// Built once per bundle on the first journey query (nothing is added to the bundle file),
/// then shared by every query; immutable.
final class RoutingNetwork: Sendable {
    struct Route: Sendable {
        let pid: Int
        let fid: Int
        /// First index of the route's stops in the `routeStop*` arrays, and their count.
        let firstStop: Int
        let stopCount: Int
        /// First index of the route's regular trips (by start time) in the `trip*` arrays.
        let firstTrip: Int
        let tripCount: Int
        /// The route's frequency templates, indexes into `templates`.
        let templateRange: Range<Int>
        /// The earliest start of any trip (templates included) and the latest regular start,
        /// GTFS seconds: for skipping days with nothing left or nothing soon enough.
        let firstStart: Int
        let lastStart: Int
    }

    /// A frequencies.txt trip: its windows on any day it runs.
    struct Template: Sendable {
        let tid: Int
        let sv: Int
        let accessible: Bool
        /// (start, end, headway, exact_times) in GTFS seconds, end excluded, by start.
        let windows: [(start: Int, end: Int, headway: Int, exact: Bool)]
    }

    /// A `transfers.txt` rule from one stop to another (or the same) stop.
    struct TransferRule: Sendable {
        let to: Int32
        let type: Int
        let minTime: Int?
    }

    let routes: [Route]
    let routeStopSid: [Int32]
    let routeStopDeparture: [Int32]
    let routeStopArrival: [Int32]
    let routeStopBoards: [Bool]
    let routeStopAlights: [Bool]
    let tripStart: [Int32]
    let tripService: [Int32]
    let tripTid: [Int32]
    let tripAccessible: [Bool]
    let templates: [Template]

    /// Stops by sid (index 0 unused): the routes through each (route, index in the route).
    let stopRoutes: [[(route: Int32, idx: Int32)]]
    let stopLatitude: [Double]
    let stopLongitude: [Double]
    let stopFid: [Int32]
    /// The station of a stop, 0 for none.
    let stopParent: [Int32]
    /// wheelchair_boarding, a platform's unknown (0) taking its station's value.
    let stopAccessible: [Bool]
    let transferRules: [Int32: [TransferRule]]
    /// The stops of each feed near each stop, for walks: a grid of cells ~1 km wide.
    let grid: [Int: [Int32]]

    var stopCount: Int { stopFid.count }

    static let gridCellDegrees = 0.01
    /// The first start of a route without trips: later than any instant of a search.
    static let noStart = Int(Int32.max)

    init(db: SQLiteDatabase) throws {
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

        // Frequency windows by trip.
        var windows: [Int: [(start: Int, end: Int, headway: Int, exact: Bool)]] = [:]
        let frequencies = try db.prepare(
            "SELECT tid, start_time_secs, end_time_secs, headway_secs, exact_times FROM frequencies ORDER BY tid, start_time_secs")
        while try frequencies.step() {
            windows[frequencies.int(0), default: []].append(
                (frequencies.int(1), frequencies.int(2), max(1, frequencies.int(3)), frequencies.int(4) != 0))
        }

        // Patterns as routes.
        var routes: [Route] = []
        var sid: [Int32] = []
        var departure: [Int32] = []
        var arrival: [Int32] = []
        var boards: [Bool] = []
        var alights: [Bool] = []
        var start: [Int32] = []
        var service: [Int32] = []
        var tid: [Int32] = []
        var accessible: [Bool] = []
        var templates: [Template] = []
        var stopRoutes = [[(route: Int32, idx: Int32)]](repeating: [], count: maxSid + 1)
        let patterns = try db.prepare("SELECT pid, fid, stops, trips FROM patterns ORDER BY pid")
        while try patterns.step() {
            let pid = patterns.int(0)
            let (stopRecords, tripRecords) = try PatternCache.damagedAsError("pattern \(pid)") {
                (try PatternStopsBlob.decode(patterns.blob(2)), try PatternTripsBlob.decode(patterns.blob(3)))
            }
            guard stopRecords.count >= 2 else { continue }
            let routeIndex = Int32(routes.count)
            let firstStop = sid.count
            for (idx, s) in stopRecords.enumerated() {
                guard s.sid > 0, s.sid <= maxSid else { throw TransitError.corruptBundle(reason: "pattern \(pid) names a missing stop") }
                sid.append(Int32(s.sid))
                departure.append(Int32(s.departureOffset))
                arrival.append(Int32(s.arrivalOffset))
                boards.append(s.pickupType != 1 && idx < stopRecords.count - 1)
                alights.append(s.dropOffType != 1 && idx > 0)
                stopRoutes[s.sid].append((routeIndex, Int32(idx)))
            }
            let firstTrip = start.count
            let firstTemplate = templates.count
            for trip in tripRecords {
                if trip.frequency {
                    templates.append(
                        Template(tid: trip.tid, sv: trip.sv, accessible: trip.wheelchairAccessible == 1, windows: windows[trip.tid] ?? []))
                } else {
                    start.append(Int32(trip.startTime))
                    service.append(Int32(trip.sv))
                    tid.append(Int32(trip.tid))
                    accessible.append(trip.wheelchairAccessible == 1)
                }
            }
            routes.append(
                Route(
                    pid: pid, fid: patterns.int(1), firstStop: firstStop, stopCount: stopRecords.count, firstTrip: firstTrip,
                    tripCount: start.count - firstTrip, templateRange: firstTemplate..<templates.count,
                    firstStart: min(
                        start.count > firstTrip ? Int(start[firstTrip]) : Self.noStart,
                        templates[firstTemplate...].flatMap { $0.windows.map(\.start) }.min() ?? Self.noStart),
                    lastStart: start.count > firstTrip ? Int(start[start.count - 1]) : 0))
        }
        self.routes = routes
        routeStopSid = sid
        routeStopDeparture = departure
        routeStopArrival = arrival
        routeStopBoards = boards
        routeStopAlights = alights
        tripStart = start
        tripService = service
        tripTid = tid
        tripAccessible = accessible
        self.templates = templates
        self.stopRoutes = stopRoutes
        // Only stops some route serves are places to walk to.
        var grid: [Int: [Int32]] = [:]
        for sid in 1..<(maxSid + 1) where !latitude[sid].isNaN && !stopRoutes[sid].isEmpty {
            grid[Self.cell(latitude[sid], longitude[sid]), default: []].append(Int32(sid))
        }
        self.grid = grid

        // transfers.txt: a row naming a station applies to each of its platforms. For a pair
        // of stops the most specific row counts: (stop, stop), then (stop, station),
        // (station, stop), (station, station).
        var rows: [Int32: [Int32: TransferRule]] = [:]
        let transfers = try db.prepare("SELECT from_sid, to_sid, transfer_type, min_transfer_time FROM transfers")
        while try transfers.step() {
            let to = Int32(transfers.int(1))
            rows[Int32(transfers.int(0)), default: [:]][to] = TransferRule(to: to, type: transfers.int(2), minTime: transfers.optionalInt(3))
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
    }

    /// The same timetable run backwards in time, for arrive-by queries: each route's stops in
    /// reverse order with instants negated (a departure at t becomes an arrival at -t), its
    /// trips in reverse order, boarding and alighting swapped, and each transfers.txt rule
    /// from A to B listed at B. The earliest arrival in the mirror is the latest departure.
    func mirrored() -> RoutingNetwork { RoutingNetwork(mirroring: self) }

    private init(mirroring o: RoutingNetwork) {
        var sid: [Int32] = []
        var departure: [Int32] = []
        var arrival: [Int32] = []
        var boards: [Bool] = []
        var alights: [Bool] = []
        var routes: [Route] = []
        var stopRoutes = [[(route: Int32, idx: Int32)]](repeating: [], count: o.stopCount)
        for (r, route) in o.routes.enumerated() {
            let firstStop = sid.count
            for idx in 0..<route.stopCount {
                let g = route.firstStop + route.stopCount - 1 - idx
                sid.append(o.routeStopSid[g])
                departure.append(-o.routeStopArrival[g])
                arrival.append(-o.routeStopDeparture[g])
                boards.append(o.routeStopAlights[g])
                alights.append(o.routeStopBoards[g])
                stopRoutes[Int(o.routeStopSid[g])].append((Int32(r), Int32(idx)))
            }
            let trips = route.firstTrip..<(route.firstTrip + route.tripCount)
            let lastTemplateStart = o.templates[route.templateRange].flatMap { $0.windows.map { Self.lastStart(of: $0) } }.max()
            routes.append(
                Route(
                    pid: route.pid, fid: route.fid, firstStop: firstStop, stopCount: route.stopCount, firstTrip: route.firstTrip,
                    tripCount: route.tripCount, templateRange: route.templateRange,
                    firstStart: min(
                        route.tripCount > 0 ? -Int(o.tripStart[trips.upperBound - 1]) : Self.noStart,
                        lastTemplateStart.map { -$0 } ?? Self.noStart),
                    lastStart: route.tripCount > 0 ? -Int(o.tripStart[route.firstTrip]) : 0))
        }
        var start = o.tripStart
        var service = o.tripService
        var tid = o.tripTid
        var accessible = o.tripAccessible
        for route in o.routes {
            let trips = route.firstTrip..<(route.firstTrip + route.tripCount)
            start[trips].reverse()
            service[trips].reverse()
            tid[trips].reverse()
            accessible[trips].reverse()
        }
        self.routes = routes
        routeStopSid = sid
        routeStopDeparture = departure
        routeStopArrival = arrival
        routeStopBoards = boards
        routeStopAlights = alights
        tripStart = start.map { -$0 }
        tripService = service
        tripTid = tid
        tripAccessible = accessible
        templates = o.templates.map { t in
            Template(
                tid: t.tid, sv: t.sv, accessible: t.accessible,
                windows: t.windows.map { w in (-Self.lastStart(of: w), -w.start + 1, w.headway, w.exact) }.sorted { $0.start < $1.start })
        }
        self.stopRoutes = stopRoutes
        stopLatitude = o.stopLatitude
        stopLongitude = o.stopLongitude
        stopFid = o.stopFid
        stopParent = o.stopParent
        stopAccessible = o.stopAccessible
        grid = o.grid
        var into: [Int32: [TransferRule]] = [:]
        for (from, rules) in o.transferRules {
            for rule in rules { into[rule.to, default: []].append(TransferRule(to: from, type: rule.type, minTime: rule.minTime)) }
        }
        transferRules = into.mapValues { $0.sorted { $0.to < $1.to } }
    }

    /// The last start a frequencies window makes.
    static func lastStart(of w: (start: Int, end: Int, headway: Int, exact: Bool)) -> Int {
        w.start + (w.end - 1 - w.start) / w.headway * w.headway
    }

    /// The grid cell of a coordinate.
    static func cell(_ latitude: Double, _ longitude: Double) -> Int {
        let row = Int((latitude / gridCellDegrees).rounded(.down))
        let column = Int((longitude / gridCellDegrees).rounded(.down))
        return row &* 100_000 &+ column
    }

    /// Straight-line metres between two stops, 0 when either has no coordinates.
    func metres(between a: Int, _ b: Int) -> Double {
        guard !stopLatitude[a].isNaN, !stopLatitude[b].isNaN else { return 0 }
        return GeoDistance.metres(stopLatitude[a], stopLongitude[a], stopLatitude[b], stopLongitude[b])
    }

    /// Stops within `radius` metres of a point, with their straight-line distance, by sid.
    func stops(near latitude: Double, _ longitude: Double, within radius: Double) -> [(sid: Int, distance: Double)] {
        guard !latitude.isNaN, radius >= 0 else { return [] }
        let latitudeSpan = radius / 111_000 + Self.gridCellDegrees
        let cosine = max(0.01, cos(min(89, abs(latitude) + latitudeSpan) * .pi / 180))
        let longitudeSpan = radius / (111_000 * cosine) + Self.gridCellDegrees
        let rows = Int(((latitude - latitudeSpan) / Self.gridCellDegrees).rounded(.down))...Int(
            ((latitude + latitudeSpan) / Self.gridCellDegrees).rounded(.down))
        let columns = Int(((longitude - longitudeSpan) / Self.gridCellDegrees).rounded(.down))...Int(
            ((longitude + longitudeSpan) / Self.gridCellDegrees).rounded(.down))
        var found: [(sid: Int, distance: Double)] = []
        for row in rows {
            for column in columns {
                for sid in grid[row &* 100_000 &+ column] ?? [] {
                    let s = Int(sid)
                    let d = GeoDistance.metres(latitude, longitude, stopLatitude[s], stopLongitude[s])
                    if d <= radius { found.append((s, d)) }
                }
            }
        }
        return found.sorted { $0.sid < $1.sid }
    }
}
