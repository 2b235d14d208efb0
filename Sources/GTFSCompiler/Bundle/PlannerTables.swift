import BundleFormat
import TransitSQLite

/// The journey planner's routes, worked out once from the model's patterns and their trips
/// (`tripsOfPattern`, as the `patterns` rows keep them) and written to `planner_sequences`
/// and `planner_routes` (see `RoutePlan`, `PlannerRoutesBlob`); and the walks between the
/// stops those routes serve, to `planner_walks` (`PlannerWalksBlob`). The tests plan again
/// from the rows read back (`RoutePlan(patternsIn:maxSid:)`) and compare.
enum PlannerTables {
    /// Returns how many stops the patterns of two stops or more hold (their offsets).
    static func insert(_ model: BundleModel, tripsOfPattern: [Int: [PatternTripRecord]], into db: SQLiteDatabase) throws -> Int {
        var plan = RoutePlan()
        // By ascending pid, as `RoutePlan.add` takes them; a pattern of one stop has no route.
        for pattern in model.patterns.sorted(by: { $0.pid < $1.pid }) where pattern.stops.count >= 2 {
            plan.add(
                pid: pattern.pid, fid: pattern.fid, stops: pattern.stops.map(\.record),
                trips: (tripsOfPattern[pattern.pid] ?? []).map(RoutePlan.Trip.init))
        }
        let sequences = try db.prepareInsert(into: "planner_sequences", columns: ["qid", "fid", "stops"])
        for (q, sequence) in plan.sequences.enumerated() {
            try sequences.run(q + 1, sequence.fid, PlannerRoutesBlob.encodeStops(sequence))
        }
        let routes = try db.prepareInsert(into: "planner_routes", columns: ["prid", "qid", "sv", "trips"])
        var prid = 0
        // The sequences some route rides: their stops are the ones served (many routes, one
        // per service and chain, share a sequence).
        var ridden = Set<Int>()
        try plan.forEachRoute { route in
            ridden.insert(route.sequence)
            func entry(_ m: RoutePlan.Member) -> PlannerRoutesBlob.Entry {
                .init(tid: m.trip.tid.int, start: Int(m.trip.start), pid: plan.patternPid[m.pattern].int, accessible: m.trip.accessible)
            }
            prid += 1
            try routes.run(
                prid, route.sequence + 1, route.sv.int,
                PlannerRoutesBlob.encodeTrips(route.trips.map(entry), templates: route.templates.map(entry)))
        }
        let served = Set(ridden.flatMap { plan.sequences[$0].sids })
        try insertWalks(model, served: served, into: db)
        return plan.offsetDeparture.count
    }

    /// The pairs of served stops within `PlannerWalksBlob.metres` of each other, measured
    /// on the coordinates as the bundle stores them (to 1e-7 degree) with the runtime's
    /// grid and distance, so the runtime finds the same pairs it would have searched for.
    private static func insertWalks(_ model: BundleModel, served: Set<Int32>, into db: SQLiteDatabase) throws {
        let maxSid = model.stops.map(\.sid).max() ?? 0
        var latitude = [Double](repeating: .nan, count: maxSid + 1)
        var longitude = [Double](repeating: .nan, count: maxSid + 1)
        for stop in model.stops {
            guard let lat = stop.record.lat, let lon = stop.record.lon else { continue }
            latitude[stop.sid] = StopGrid.degrees(StopGrid.e7(lat))
            longitude[stop.sid] = StopGrid.degrees(StopGrid.e7(lon))
        }
        var above = [[Int32]](repeating: [], count: maxSid + 1)
        StopWalkGrid(latitude: latitude, longitude: longitude) { served.contains(Int32($0)) }
            .forEachPair(within: Double(PlannerWalksBlob.metres)) { a, b, _ in above[a].append(Int32(b)) }
        let rows = try db.prepareInsert(into: "planner_walks", columns: ["first_sid", "within_metres", "walks"])
        for first in stride(from: 1, through: maxSid, by: PlannerWalksBlob.stopsPerRow) {
            let lists = above[first..<min(maxSid + 1, first + PlannerWalksBlob.stopsPerRow)].map { $0.sorted() }
            try rows.run(first, PlannerWalksBlob.metres, PlannerWalksBlob.encode(lists, firstSid: first))
        }
    }
}
