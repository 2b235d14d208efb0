import TransitSQLite

/// frequencies.txt as the bundle keeps it (one row per window of a trip template): the one
/// place its rows are read, by the boards, the trip answers, the live matcher and the
/// planner. A bundle without the table (no feed has frequencies) has no windows.
///
/// ```swift
/// let windows = try FrequencyTable.windows(of: tid, db: db, in: bundle)
/// ```
enum FrequencyTable {
    /// The most windows a bundle's planner reads at once (a real feed has hundreds to
    /// thousands): more is a damaged bundle.
    static let maxRows = 1_000_000

    /// The windows of trip `tid`, in start order.
    static func windows(of tid: Int, db: SQLiteDatabase, in bundle: TransitBundle) throws -> [TripDetails.FrequencyWindow] {
        guard bundle.has("frequencies") else { return [] }
        let q = try db.cached(
            "SELECT start_time_secs, end_time_secs, headway_secs, exact_times FROM frequencies WHERE tid = ?1 ORDER BY start_time_secs")
        q.bind([tid])
        var windows: [TripDetails.FrequencyWindow] = []
        while try q.step() { windows.append(window(q)) }
        return windows
    }

    /// Every trip's windows, by tid, in start order; at most `maxRows` of them.
    static func all(db: SQLiteDatabase) throws -> [Int: [TripDetails.FrequencyWindow]] {
        guard try db.hasTable("frequencies") else { return [:] }
        let rows = try db.scalarInt("SELECT COUNT(*) FROM frequencies") ?? 0
        guard rows <= maxRows else { throw TransitError.corruptBundle(reason: "frequencies: \(rows) rows (at most \(maxRows))") }
        let q = try db.prepare(
            "SELECT tid, start_time_secs, end_time_secs, headway_secs, exact_times FROM frequencies ORDER BY tid, start_time_secs")
        var windows: [Int: [TripDetails.FrequencyWindow]] = [:]
        while try q.step() { windows[q.int(0), default: []].append(window(q, from: 1)) }
        return windows
    }

    /// The window in columns `from`...`from + 3` of the row `q` is on.
    private static func window(_ q: SQLiteStatement, from: Int32 = 0) -> TripDetails.FrequencyWindow {
        .init(startSecs: q.int(from), endSecs: q.int(from + 1), headwaySecs: q.int(from + 2), exactTimes: q.int(from + 3) != 0)
    }
}
