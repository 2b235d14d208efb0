import BundleFormat
import TransitSQLite

/// A content table's columns in order and how many leading ones form its primary key:
/// what a patch section must agree with. Every table of `schemas/bundle.sql` puts its key
/// columns first (a test checks it), so a key is a prefix of a row.
package struct TableShape: Equatable {
    package let table: String
    package let columns: [String]
    package let keyCount: Int

    /// Reads `table`'s shape from `db`; nil when the table is not an ordinary table of the
    /// schema or its key is not made of its leading columns.
    package init?(_ table: String, in db: SQLiteDatabase) throws {
        guard BundleSchema.contentTables.contains(table) else { return nil }
        let info = try db.prepare("SELECT name, pk FROM pragma_table_info(?1) ORDER BY cid")
        info.bind([table])
        var columns: [String] = []
        var keyPositions: [Int] = []
        while try info.step() {
            columns.append(info.string(0))
            keyPositions.append(info.int(1))
        }
        let keyCount = keyPositions.filter { $0 > 0 }.count
        guard keyCount > 0, keyPositions.prefix(keyCount) == ArraySlice(1...keyCount) else { return nil }
        self.table = table
        self.columns = columns
        self.keyCount = keyCount
    }

    /// `"name"` quoted for SQL (the names come from the schema, never from a patch).
    package static func quoted(_ name: String) -> String { "\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"" }

    /// `SELECT every column FROM table ORDER BY its key`.
    package var selectAllInKeyOrder: String {
        "SELECT \(columns.map(Self.quoted).joined(separator: ", ")) FROM \(Self.quoted(table)) ORDER BY \(keyColumns)"
    }

    /// `WHERE k1 = ?1 AND k2 = ?2` over the key columns.
    package var whereKey: String {
        "WHERE " + (0..<keyCount).map { "\(Self.quoted(columns[$0])) = ?\($0 + 1)" }.joined(separator: " AND ")
    }

    private var keyColumns: String { columns.prefix(keyCount).map(Self.quoted).joined(separator: ", ") }
}
