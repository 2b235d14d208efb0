import FileIntegrity
import TransitSQLite

/// The SHA-256 of a bundle's logical content: every row of every ordinary table of the
/// schema, in a canonical order and encoding, so two bundles with the same content have the
/// same hash whatever their page layout, history or the SQLite that wrote them.
///
/// Left out: derived indexes (full-text, rebuilt from `stops` and `cities`),
/// SQLite's statistics (an optional table the bundle lacks counts as empty), and the metadata rows that describe the file rather than its content
/// (`content_sha256` itself and `compiler_version`).
///
/// ```swift
/// let hash = try ContentHash.compute(SQLiteDatabase(path: "city.db", writable: false))
/// ```
package enum ContentHash {
    package static let excludedMetadata: Set<String> = ["content_sha256", "compiler_version"]

    package static func compute(_ db: SQLiteDatabase) throws -> String {
        var hasher = BufferedSHA256()
        for table in BundleSchema.contentTables {
            hasher.append(byte: UInt8(ascii: "T"))
            SQLiteStatement.hashText(table, into: &hasher)
            // An optional table the bundle lacks hashes as an empty one.
            if BundleSchema.optionalTables.contains(table), try !db.hasTable(table) { continue }
            let columns = try db.prepare("SELECT * FROM \(table) LIMIT 0")
            let count = columns.columnCount
            // Ordering by every column gives one order for any content, whatever the keys.
            let order = (1...max(1, count)).map(String.init).joined(separator: ", ")
            let rows = try db.prepare("SELECT * FROM \(table) ORDER BY \(order)")
            while try rows.step() {
                if table == "metadata", excludedMetadata.contains(rows.string(0)) { continue }
                hasher.append(byte: UInt8(ascii: "R"))
                for column in 0..<Int32(count) { rows.hashValue(column, into: &hasher) }
            }
        }
        return hasher.finalizeHex()
    }
}
