/// SQL that states a rule of the bundle once, for every query that needs it.
enum BundleSQL {
    /// "A pattern stop is a departure": riders may board there (pickup_type is not 1) and it
    /// is not the pattern's last stop. Written over `pattern_stops ps JOIN patterns p`.
    static let patternStopIsDeparture = "ps.pickup_type <> 1 AND ps.idx < p.n_stops - 1"

    /// Regular (not frequency-based) trips as `(pid, start_time_secs, sv, tid)`, ordered by
    /// pattern and start; append `AND ...` conditions before `patternTripsOrder`.
    static let patternTrips = "SELECT pid, start_time_secs, sv, tid FROM trips INDEXED BY trips_by_pattern WHERE frequency = 0"
    static let patternTripsOrder = "ORDER BY pid, start_time_secs, tid"
}
