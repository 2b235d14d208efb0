import CSQLite

/// One SQLite connection. Not thread-safe on its own: use one per thread or guard it.
package final class SQLiteDatabase {
    package let handle: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]

    /// Opens `path` read-only, or read-write (creating the file) when `writable` is true.
    package init(path: String, writable: Bool) throws {
        var db: OpaquePointer?
        let flags =
            writable
            ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
            : (SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message)
        }
        handle = db
    }

    /// Makes SQLite refuse (SQLITE_TOOBIG, code 18) to read or make any string or BLOB
    /// longer than `bytes`: a bound on what one value of a file from outside can cost.
    package func limitValueLength(to bytes: Int32) {
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, bytes)
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    /// A new prepared statement; finalized when released.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// `INSERT INTO table (columns...) VALUES (?1, ...)`: the columns are named, so a change of
    /// column order in the schema cannot shuffle data. `table` and `columns` are the code's own
    /// names, never input.
    package func prepareInsert(into table: String, columns: [String]) throws -> SQLiteStatement {
        let parameters = columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        return try prepare("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(parameters))")
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`): committed when it returns,
    /// rolled back when it throws.
    ///
    /// ```swift
    /// try db.writeTransaction { try insert.run(id, name) }
    /// ```
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether the database has a table named `table`, in its main or its temp schema.
    package func hasTable(_ table: String) throws -> Bool {
        let row = try prepare(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1 UNION ALL SELECT 1 FROM temp.sqlite_master WHERE type = 'table' AND name = ?1"
        )
        row.bind([table])
        return try row.step()
    }

    /// A prepared statement kept for reuse on this connection, reset and unbound.
    package func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// The integer in the first column of the first row, or nil.
    package func scalarInt(_ sql: String) throws -> Int? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.optionalInt(0) : nil
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    package var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs `body` with SQLite interrupted once it has taken about `steps` virtual-machine
    /// steps on this connection: the statement running then fails with `SQLiteError` code
    /// `SQLiteError.interrupted`. Bounds the time of queries over a file from outside.
    package func withStepBudget<T>(_ steps: Int64, _ body: () throws -> T) rethrows -> T {
        let every: Int32 = 10_000
        let budget = Unmanaged.passRetained(StepBudget(max(1, steps / Int64(every))))
        sqlite3_progress_handler(
            handle, every,
            { raw in
                guard let raw else { return 0 }
                let budget = Unmanaged<StepBudget>.fromOpaque(raw).takeUnretainedValue()
                budget.left -= 1
                return budget.left < 0 ? 1 : 0
            }, budget.toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            budget.release()
        }
        return try body()
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }
}

/// What is left of a step budget, in units of the progress handler's interval.
private final class StepBudget {
    var left: Int64
    init(_ left: Int64) { self.left = left }
}
