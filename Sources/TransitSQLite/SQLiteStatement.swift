import CSQLite

/// A compiled SQL statement. Parameters are bound from a list of `SQLiteValue`s, in the
/// order the SQL names them. Columns are read by name (`row.int("sid")`), or by 0-based
/// position in scans that read millions of rows from a SELECT written beside them.
package final class SQLiteStatement {
    /// The sqlite3_stmt, for readers in other modules that need the C API (content hashing).
    package let statement: OpaquePointer
    private unowned let database: SQLiteDatabase
    package let sql: String
    /// The first bind SQLite refused since the last reset: thrown by the next `step`.
    private var bindFailure: (code: Int32, index: Int32)?

    init(database: SQLiteDatabase, sql: String) throws {
        var pointer: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard rc == SQLITE_OK, let pointer else {
            throw SQLiteError(code: rc, message: database.lastMessage, sql: sql)
        }
        self.statement = pointer
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(statement) }

    /// Result column positions by name (`SELECT s.fid` is named `fid`), read once.
    private lazy var columnIndexes: [String: Int32] = {
        var names: [String: Int32] = [:]
        for index in 0..<sqlite3_column_count(statement) {
            if let name = sqlite3_column_name(statement, index) { names[String(cString: name)] = index }
        }
        return names
    }()

    /// The position of result column `name`. A name the SELECT lacks is a programming error,
    /// caught by the tests; in release it reads as NULL.
    private func column(_ name: String) -> Int32 {
        guard let index = columnIndexes[name] else {
            assertionFailure("no column \(name) in \(sql)")
            return sqlite3_column_count(statement)
        }
        return index
    }

    package func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        bindFailure = nil
    }

    /// Binds `values` to parameters 1, 2, ... (after clearing earlier bindings).
    package func bind(_ values: [any SQLiteValue]) {
        reset()
        for (offset, value) in values.enumerated() { check(value.bind(to: statement, at: Int32(offset + 1)), Int32(offset + 1)) }
    }

    /// Binds one parameter (1-based), leaving the others as they are.
    package func bind(_ index: Int32, _ value: some SQLiteValue) {
        check(value.bind(to: statement, at: index), index)
    }

    private func check(_ rc: Int32, _ index: Int32) {
        if rc != SQLITE_OK && bindFailure == nil { bindFailure = (rc, index) }
    }

    /// Advances to the next row; false when done. A bind SQLite refused is thrown here.
    @discardableResult
    package func step() throws -> Bool {
        if let failure = bindFailure {
            bindFailure = nil
            sqlite3_reset(statement)
            let reason = String(cString: sqlite3_errstr(failure.code))
            throw SQLiteError(code: failure.code, message: "cannot bind parameter \(failure.index): \(reason)", sql: sql)
        }
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw SQLiteError(code: rc, message: database.lastMessage, sql: sql)
    }

    /// Runs a statement that returns no rows, then resets it for reuse.
    package func run() throws {
        defer { sqlite3_reset(statement) }
        _ = try step()
    }

    /// Binds `values` to parameters 1, 2, ... and runs the statement (an insert, an update).
    /// A parameter pack, not an array: inserts run once per row, and each value binds
    /// without being boxed.
    package func run<each Value: SQLiteValue>(_ values: repeat each Value) throws {
        sqlite3_reset(statement)
        bindFailure = nil
        var index: Int32 = 0
        for value in repeat each values {
            index += 1
            check(value.bind(to: statement, at: index), index)
        }
        try run()
    }

    package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    package func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    package func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }

    package func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    package func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    package func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

    /// A column's value with its type.
    package func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, column) else { return .text([]) }
            return .text(Array(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))))
        case SQLITE_BLOB: return .blob(blob(column))
        default: return .null
        }
    }

    /// A BLOB column's bytes (empty for NULL or an empty blob).
    package func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(statement, column) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    package var columnCount: Int { Int(sqlite3_column_count(statement)) }

    /// The bytes of a column's text or BLOB, without making a value of them.
    package func byteCount(_ column: Int32) -> Int { Int(sqlite3_column_bytes(statement, column)) }
    package func byteCount(_ name: String) -> Int { byteCount(column(name)) }

    package func int(_ name: String) -> Int { int(column(name)) }
    package func double(_ name: String) -> Double { double(column(name)) }
    package func string(_ name: String) -> String { string(column(name)) }
    package func optionalInt(_ name: String) -> Int? { optionalInt(column(name)) }
    package func optionalDouble(_ name: String) -> Double? { optionalDouble(column(name)) }
    package func optionalString(_ name: String) -> String? { optionalString(column(name)) }
    package func blob(_ name: String) -> [UInt8] { blob(column(name)) }
}
