import BundleFormat
import TransitSQLite

/// The journey planner's routes, worked out from the `patterns` rows just written (read
/// back as the runtime reads them, so both plan from the same decoded values) and written
/// to `planner_sequences` and `planner_routes` (see `RoutePlan`, `PlannerRoutesBlob`).
enum PlannerTables {
    static func insert(into db: SQLiteDatabase) throws {
        var plan = RoutePlan()
        let patterns = try db.prepare("SELECT pid, fid, stops, trips FROM patterns ORDER BY pid")
        while try patterns.step() {
            let stops = try PatternStopsBlob.decode(patterns.blob(2))
            guard stops.count >= 2 else { continue }
            var trips: [RoutePlan.Trip] = []
            try PatternTripsBlob.forEach(in: patterns.blob(3)) { trips.append(RoutePlan.Trip($0)) }
            plan.add(pid: patterns.int(0), fid: patterns.int(1), stops: stops, trips: trips)
        }
        let sequences = try db.prepareInsert(into: "planner_sequences", columns: ["qid", "fid", "stops"])
        for (q, sequence) in plan.sequences.enumerated() {
            try sequences.run(q + 1, sequence.fid, PlannerRoutesBlob.encodeStops(sequence))
        }
        let routes = try db.prepareInsert(into: "planner_routes", columns: ["prid", "qid", "sv", "trips"])
        var prid = 0
        try plan.forEachRoute { route in
            func entry(_ m: RoutePlan.Member) -> PlannerRoutesBlob.Entry {
                .init(tid: Int(m.trip.tid), start: Int(m.trip.start), pid: plan.patternPid[m.pattern], accessible: m.trip.accessible)
            }
            prid += 1
            try routes.run(
                prid, route.sequence + 1, route.sv,
                PlannerRoutesBlob.encodeTrips(route.trips.map(entry), templates: route.templates.map(entry)))
        }
    }
}
