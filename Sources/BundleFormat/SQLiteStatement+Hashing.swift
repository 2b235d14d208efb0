import CSQLite
import FileIntegrity
import TransitSQLite

/// How rows enter a bundle's content hash (`ContentHash`).
extension SQLiteStatement {
    /// Feeds a column's value to `hasher` with its type, compactly: NULL as `n`; an integer as
    /// `i` and its zigzag LEB128 varint; a real as `f` and its IEEE bits (big-endian); text or
    /// a blob as `t`/`b`, its length as a varint, then its bytes.
    package func hashValue(_ column: Int32, into hasher: inout BufferedSHA256) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            hasher.append(byte: UInt8(ascii: "i"))
            let value = sqlite3_column_int64(statement, column)
            hasher.appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        case SQLITE_FLOAT:
            hasher.append(byte: UInt8(ascii: "f"))
            withUnsafeBytes(of: sqlite3_column_double(statement, column).bitPattern.bigEndian) { hasher.append($0) }
        case let type where type == SQLITE_TEXT || type == SQLITE_BLOB:
            hasher.append(byte: type == SQLITE_TEXT ? UInt8(ascii: "t") : UInt8(ascii: "b"))
            let count = Int(sqlite3_column_bytes(statement, column))
            hasher.appendVarint(UInt64(count))
            if count > 0, let bytes = sqlite3_column_blob(statement, column) {
                hasher.append(UnsafeRawBufferPointer(start: bytes, count: count))
            }
        default:
            hasher.append(byte: UInt8(ascii: "n"))
        }
    }

    /// Feeds text to `hasher` as its length, then its UTF-8 bytes.
    package static func hashText(_ text: String, into hasher: inout BufferedSHA256) {
        var text = text
        text.withUTF8 { bytes in
            hasher.appendVarint(UInt64(bytes.count))
            hasher.append(UnsafeRawBufferPointer(bytes))
        }
    }
}
