import TransitSQLite

/// The length of every stop's name (in characters, as SQLite's `length()` counts them),
/// by sid, for stop search: the matches of a common word are ranked by it without reading
/// each one's row (a common word matches thousands of stops on a large bundle, and joining
/// each to its row was most of the search). Read once per bundle, 4 bytes a sid: sids run from 1
/// to at most `BundleCheck.maxStops` (checked when the bundle opens), so at most 8 MB.
struct StopNameLengths: Sendable {
    /// By sid; -1 where there is no stop.
    private let lengths: [Int32]

    /// Every stop's name length.
    /// - Throws: `TransitError.corruptBundle` for a sid outside 1...`BundleCheck.maxStops`.
    init(db: SQLiteDatabase) throws {
        let maxSid = try db.scalarInt("SELECT MAX(sid) FROM stops") ?? 0
        guard maxSid >= 0, maxSid <= BundleCheck.maxStops else {
            throw TransitError.corruptBundle(reason: "stops: sid \(maxSid) is out of range")
        }
        var lengths = [Int32](repeating: -1, count: maxSid + 1)
        let q = try db.prepare("SELECT sid, length(name) FROM stops WHERE sid BETWEEN 0 AND ?1")
        q.bind([maxSid])
        while try q.step() { lengths[q.int(0)] = Int32(clamping: q.int(1)) }
        self.lengths = lengths
    }

    /// The name length of stop `sid`, nil when there is no such stop.
    func length(of sid: Int) -> Int32? {
        guard sid >= 0, sid < lengths.count, lengths[sid] >= 0 else { return nil }
        return lengths[sid]
    }
}
