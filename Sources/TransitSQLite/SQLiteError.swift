import CSQLite

/// A failed SQLite call: the result code, SQLite's message and the SQL that failed.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    package let code: Int32
    package let message: String
    package let sql: String?

    package init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// SQLITE_INTERRUPT: a step budget (`SQLiteDatabase.withStepBudget`) ran out.
    package static let interrupted: Int32 = SQLITE_INTERRUPT

    package var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql))" }
        return "SQLite error \(code): \(message)"
    }
}
