import TransitSQLite

/// A patch: the row changes that turn one bundle into another, named by the content hashes
/// it goes from and to. Written by `gtfs-compile diff`, applied by `PatchApplier`.
///
/// The file, every number a LEB128 varint:
///
///     "TRNBPATCH\n"  magic, then the format version (1) and the schema version
///     from, to       the content hashes, as 64 hex characters each (length first)
///     sections       per changed table: 'T', its name, its column names, how many of the
///                    first columns form the key, the count of operations, then each:
///                      'D' key              delete the row
///                      'P' row              insert or replace the whole row
///                      'U' key n changes    change n columns of a row: column index, then
///                                           'v' value, or 'e' edits of the old text or
///                                           blob: their count, then each as skip, delete,
///                                           a length and the bytes to insert (`ByteEdits`)
///     'Z'            the end
///     checksum       SHA-256 of every byte before it, 64 hex characters
///
/// A value is 'n' (NULL), 'i' zigzag integer, 'f' 8 bytes big-endian, 't' or 'b' a length
/// then bytes. Only ordinary tables travel; full-text and R*Tree indexes are rebuilt from
/// them after applying.
package struct BundlePatch: Sendable {
    package static let magic = Array("TRNBPATCH\n".utf8)
    package static let formatVersion = 1

    package enum Change: Sendable, Equatable {
        case value(SQLValue)
        /// Edits of the old text or blob.
        case edits(ByteEdits)
    }

    package enum Operation: Sendable, Equatable {
        case delete(key: [SQLValue])
        case put(row: [SQLValue])
        case update(key: [SQLValue], changes: [(column: Int, change: Change)])

        package static func == (a: Operation, b: Operation) -> Bool {
            switch (a, b) {
            case (.delete(let x), .delete(let y)): return x == y
            case (.put(let x), .put(let y)): return x == y
            case (.update(let k1, let c1), .update(let k2, let c2)):
                return k1 == k2 && c1.map(\.column) == c2.map(\.column) && c1.map(\.change) == c2.map(\.change)
            default: return false
            }
        }
    }

    package struct Section: Sendable, Equatable {
        package var table: String
        package var columns: [String]
        /// The first `keyCount` columns (in `columns` order) are the table's key.
        package var keyCount: Int
        package var operations: [Operation]

        package init(table: String, columns: [String], keyCount: Int, operations: [Operation]) {
            self.table = table
            self.columns = columns
            self.keyCount = keyCount
            self.operations = operations
        }
    }

    package var schemaVersion: Int
    package var fromHash: String
    package var toHash: String
    package var sections: [Section]

    package init(schemaVersion: Int, fromHash: String, toHash: String, sections: [Section]) {
        self.schemaVersion = schemaVersion
        self.fromHash = fromHash
        self.toHash = toHash
        self.sections = sections
    }
}
