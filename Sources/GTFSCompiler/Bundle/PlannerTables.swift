import BundleFormat
import TransitSQLite

/// The journey planner's routes, worked out from the `patterns` rows just written (read
/// back as the runtime reads them, so both plan from the same decoded values) and written
/// to `planner_sequences` and `planner_routes` (see `RoutePlan`, `PlannerRoutesBlob`).
enum PlannerTables {
    static func insert(into db: SQLiteDatabase) throws {
        let plan = try RoutePlan(patternsIn: db, maxSid: Int(Int32.max))
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
