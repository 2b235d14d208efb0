import CSQLite

/// One value of a column, of any SQLite type: what a patch carries, compares and binds.
package enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    /// SQLite's order for values of a key (BINARY collation): NULL, numbers, text, blobs;
    /// text and blobs by their bytes.
    package static func precedes(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.integer(let x), .real(let y)): return Double(x) < y
        case (.real(let x), .integer(let y)): return x < Double(y)
        case (.real(let x), .real(let y)): return x < y
        case (.text(let x), .text(let y)), (.blob(let x), .blob(let y)): return x.lexicographicallyPrecedes(y)
        default: return a.rank < b.rank
        }
    }

    /// Keys compared column by column.
    package static func precedes(_ a: [SQLValue], _ b: [SQLValue]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return precedes(x, y) }
        return a.count < b.count
    }

    private var rank: Int {
        switch self {
        case .null: return 0
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        }
    }
}

extension SQLValue: SQLiteValue {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null: return sqlite3_bind_null(statement, index)
        case .integer(let v): return sqlite3_bind_int64(statement, index, v)
        case .real(let v): return sqlite3_bind_double(statement, index, v)
        case .text(let bytes):
            return bytes.withUnsafeBufferPointer { raw in
                raw.withMemoryRebound(to: CChar.self) {
                    sqlite3_bind_text(
                        statement, index, $0.baseAddress ?? UnsafePointer(bitPattern: 1), Int32(raw.count),
                        unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            }
        case .blob(let bytes): return bytes.bind(to: statement, at: index)
        }
    }
}
