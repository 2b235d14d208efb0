import BundleFormat
import TransitSQLite

/// Rows of a table asked for by ascending integer key, read by one statement that steps
/// forward over rows lying close together and seeks anew past a gap: the compiler numbers
/// a route's patterns together and a feed's trips in the order of their text ids, so a
/// stop's patterns (a cold board), a realtime message's trips grouped by pattern and the
/// trip blocks of its sorted ids mostly lie in runs, and a seek costs about three times a
/// step. A key asked for below the last one seeks too, so any order answers right.
///
/// ```swift
/// var rows = try ForwardRows.patterns(db)
/// defer { rows.finish() }
/// if let row = try rows.row(12) { decode(row.blob(1), row.blob(2)) }
/// ```
struct ForwardRows {
    private let statement: SQLiteStatement
    /// The farthest key ahead reached by stepping (farther: a new seek).
    private let reach: Int
    /// The key of the row the statement is on; nil before the first row or past the last.
    private var current: Int?

    /// `sql` selects the key as its first column, from the key bound as `?1` on, ordered by it.
    private init(_ sql: String, reach: Int, db: SQLiteDatabase) throws {
        statement = try db.cached(sql)
        self.reach = reach
    }

    /// The `patterns` table's rows: pid, stops, trips (four rows stepped over at most).
    static func patterns(_ db: SQLiteDatabase) throws -> ForwardRows {
        try ForwardRows("SELECT pid, stops, trips FROM patterns WHERE pid >= ?1 ORDER BY pid", reach: 4, db: db)
    }

    /// The `trip_blocks` table's rows: first_tid, entries (four blocks stepped over at most).
    static func tripBlocks(_ db: SQLiteDatabase) throws -> ForwardRows {
        try ForwardRows(
            "SELECT first_tid, entries FROM trip_blocks WHERE first_tid >= ?1 ORDER BY first_tid",
            reach: 4 * TripBlock.capacity, db: db)
    }

    /// The statement on the row of `key` (its columns until the next call), nil when the
    /// table has no such row.
    mutating func row(_ key: Int) throws -> SQLiteStatement? {
        if var at = current, key >= at, key - at <= reach {
            while at < key {
                guard try statement.step() else {
                    current = nil
                    return nil
                }
                at = statement.int(0)
            }
            current = at
            return at == key ? statement : nil
        }
        statement.bind([key])  // resets it first
        guard try statement.step() else {
            current = nil
            return nil
        }
        current = statement.int(0)
        return current == key ? statement : nil
    }

    /// Leaves the statement reset for its next user.
    func finish() { statement.reset() }
}
