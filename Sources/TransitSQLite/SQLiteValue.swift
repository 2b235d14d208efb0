import CSQLite

private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A Swift value that binds to a statement parameter. `nil` binds NULL. `bind` returns
/// SQLite's result code; `SQLiteStatement` keeps the first failure and throws it at the
/// next step, so a value SQLite refuses (too big, out of memory, no such parameter) is an
/// error, never a silently unbound parameter.
///
/// ```swift
/// let insert = try db.prepareInsert(into: "headsigns", columns: ["hid", "headsign"])
/// try insert.run([1, "Tiefenbrunnen"])
/// ```
package protocol SQLiteValue {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Int: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension Int32: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension UInt8: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }
}

/// Stored as 0 or 1.
extension Bool: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self ? 1 : 0) }
}

extension Double: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_double(statement, index, self) }
}

extension String: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_text(statement, index, self, -1, transientDestructor)
    }
}

/// Stored as a BLOB.
extension Array: SQLiteValue where Element == UInt8 {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withUnsafeBytes { raw in
            // An empty blob still binds a BLOB, not NULL: SQLite wants a non-null pointer for it.
            sqlite3_bind_blob(
                statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), transientDestructor)
        }
    }
}

extension Optional: SQLiteValue where Wrapped: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        if let value = self { return value.bind(to: statement, at: index) }
        return sqlite3_bind_null(statement, index)
    }
}
