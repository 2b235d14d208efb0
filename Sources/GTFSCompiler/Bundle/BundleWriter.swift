import Foundation
import TransitStore

/// Writes a `BundleModel` as a SQLite bundle, atomically: everything goes to a
/// temporary file beside the output, which is renamed over it only when complete.
/// On any failure the output path is untouched and the temporary file removed.
struct BundleWriter {
    let outputPath: String

    func write(_ model: BundleModel, cities: CityModel?) throws {
        let url = URL(fileURLWithPath: outputPath)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            try fill(temporary, model, cities)
            guard rename(temporary, outputPath) == 0 else {
                throw Diagnostic(.unreadableInput, file: outputPath, message: "cannot write the bundle: \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    private func fill(_ path: String, _ model: BundleModel, _ cities: CityModel?) throws {
        let db = try SQLiteDatabase(path: path, writable: true)

        try db.execute("PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -262144")
        let statements = BundleSchema.statements
        let isIndex = { (sql: String) in sql.hasPrefix("CREATE INDEX") || sql.hasPrefix("CREATE UNIQUE INDEX") }
        try db.execute("BEGIN")
        for sql in statements where !isIndex(sql) { try db.execute(sql) }
        try BundleTables.insert(model, into: db)
        if let cities { try CityTables.insert(cities, into: db) }
        for sql in statements where isIndex(sql) { try db.execute(sql) }
        try db.execute("INSERT INTO stops_fts(stops_fts) VALUES('optimize')")
        try db.execute("INSERT INTO cities_fts(cities_fts) VALUES('optimize')")
        try db.execute("COMMIT")
        try db.execute("ANALYZE")
        // Rows are appended in key order, so pages are already full; only free pages need a VACUUM.
        if try db.scalarInt("PRAGMA freelist_count") ?? 0 > 0 { try db.execute("VACUUM") }
    }
}
