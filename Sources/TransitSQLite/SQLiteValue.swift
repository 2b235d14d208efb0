import CSQLite

private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A Swift value that binds to a statement parameter. `nil` binds NULL.
///
/// ```swift
/// let insert = try db.prepareInsert(into: "headsigns", columns: ["hid", "headsign"])
/// try insert.run([1, "Tiefenbrunnen"])
/// ```
package protocol SQLiteValue {
    func bind(to statement: OpaquePointer, at index: Int32)
}

extension Int: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension Int32: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension UInt8: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, Int64(self)) }
}

/// Stored as 0 or 1.
extension Bool: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, self ? 1 : 0) }
}

extension Double: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_double(statement, index, self) }
}

extension String: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) {
        sqlite3_bind_text(statement, index, self, -1, transientDestructor)
    }
}

/// Stored as a BLOB.
extension Array: SQLiteValue where Element == UInt8 {
    package func bind(to statement: OpaquePointer, at index: Int32) {
        withUnsafeBytes { raw in
            // An empty blob still binds a BLOB, not NULL: SQLite wants a non-null pointer for it.
            _ = sqlite3_bind_blob(
                statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), transientDestructor)
        }
    }
}

extension Optional: SQLiteValue where Wrapped: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) {
        if let value = self { value.bind(to: statement, at: index) } else { sqlite3_bind_null(statement, index) }
    }
}
