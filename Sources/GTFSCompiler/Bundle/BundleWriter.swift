import BundleFormat
import FileIntegrity
import Foundation
import TransitSQLite

/// Writes a `BundleModel` as a SQLite bundle, atomically: everything goes to a
/// temporary file beside the output, which is renamed over it only when complete.
/// On any failure the output path is untouched and the temporary file removed.
struct BundleWriter {
    let outputPath: String

    func write(_ model: BundleModel, cities: CityModel?) throws {
        let url = URL(fileURLWithPath: outputPath)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw FatalDiagnostic(.outputFailed, file: outputPath, message: "cannot write the bundle: folder \(folder) does not exist")
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            try fill(temporary, model, cities)
            // The pages reach the disk before the name does, and the rename itself is made
            // durable: after a power loss the output path holds the old file or the new one.
            try Self.sync(temporary)
            guard rename(temporary, outputPath) == 0 else {
                throw FatalDiagnostic(
                    .outputFailed, file: outputPath, message: "cannot move the bundle into place: \(String(cString: strerror(errno)))")
            }
            try Self.sync(folder)
        } catch let error as SQLiteError {
            try? FileManager.default.removeItem(atPath: temporary)
            throw FatalDiagnostic(
                .outputFailed, file: outputPath, message: "cannot write the bundle (temporary file \(temporary)): \(error.message)")
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    private static func sync(_ path: String) throws {
        do { try FileSync.sync(path) } catch let failure as FileSync.Failure {
            throw FatalDiagnostic(.outputFailed, file: path, message: failure.description)
        }
    }

    static let sideTables: Set<String> = [
        "patterns", "planner_sequences", "planner_routes", "planner_walks", "stop_patterns", "route_patterns", "shapes", "shape_edges",
        "trip_names",
        "trip_blocks", "trip_ids", "cities",
        "city_alternate_names",
        "categories", "city_categories",
        "city_attractions", "city_images", "city_related", "city_feeds", "city_cells",
    ]

    private func fill(_ path: String, _ model: BundleModel, _ cities: CityModel?) throws {
        let cities = cities.flatMap { $0.cities.isEmpty ? nil : $0 }
        let statements = BundleSchema.statements.filter { cities != nil || BundleSchema.tableName($0) != "cities_fts" }
        let isIndex = { (sql: String) in sql.hasPrefix("CREATE INDEX") || sql.hasPrefix("CREATE UNIQUE INDEX") }
        // Patterns, the planner's routes and the city tables (all but their full-text
        // index) are written on a second core, into a side file that is copied in afterwards.
        let sideStatements = statements.filter { Self.sideTables.contains(BundleSchema.tableName($0)) }
        let sideTablesPath = path + "-side-tables"
        try? FileManager.default.removeItem(atPath: sideTablesPath)
        let side = BackgroundResult<Int> {
            let db = try SQLiteDatabase(path: sideTablesPath, writable: true)
            try Self.configure(db, pageSize: 4096)
            try db.execute("BEGIN")
            for sql in sideStatements { try db.execute(sql) }
            let tripsOfPattern = BundleTables.tripsOfPattern(model)
            try BundleTables.insertPatterns(model, tripsOfPattern: tripsOfPattern, into: db)
            let patternStops = try PlannerTables.insert(model, tripsOfPattern: tripsOfPattern, into: db)
            if let cities { try CityTables.insertRows(cities, into: db) }
            try db.execute("COMMIT")
            return patternStops
        }
        defer {
            // Whatever happened here, the side thread is finished before its file is removed.
            _ = try? side.value()
            try? FileManager.default.removeItem(atPath: sideTablesPath)
        }
        let db = try SQLiteDatabase(path: path, writable: true)
        try Self.configure(db, pageSize: Self.pageSize(model, cities))
        // WITHOUT ROWID tables and optional tables are filled in the in-memory temp schema
        // first (unqualified inserts land there), then copied into main in key order, an
        // optional table only when it has rows: SQLite's transfer copy packs their pages
        // full, as a VACUUM would, at a fraction of its cost.
        let staged = statements.filter { sql in
            sql.hasPrefix("CREATE TABLE") && !sideStatements.contains(sql)
                && (sql.hasSuffix("WITHOUT ROWID") || BundleSchema.optionalTables.contains(BundleSchema.tableName(sql)))
        }
        try db.execute("BEGIN")
        for sql in statements where !isIndex(sql) && !staged.contains(sql) && !sideStatements.contains(sql) { try db.execute(sql) }
        for sql in staged { try db.execute(sql.replacingOccurrences(of: "CREATE TABLE ", with: "CREATE TEMP TABLE ")) }
        // Full-text indexes are merged once at the end ('optimize'), not while rows arrive.
        try db.execute("INSERT INTO stops_fts(stops_fts, rank) VALUES('automerge', 0)")
        if let cities {
            try db.execute("INSERT INTO cities_fts(cities_fts, rank) VALUES('automerge', 0)")
            try CityTables.insertFullText(cities, into: db)
        }
        try BundleTables.insert(model, into: db)
        for sql in staged {
            let name = BundleSchema.tableName(sql)
            if try !BundleSchema.optionalTables.contains(name) || Self.hasRows("temp.\(name)", db) {
                try db.execute(sql)
                try db.execute("INSERT INTO main.\(name) SELECT * FROM temp.\(name)")
            }
            try db.execute("DROP TABLE temp.\(name)")
        }
        // How many stops the patterns hold: the runtime makes room for their offsets at once.
        try db.prepareInsert(into: "metadata", columns: ["key", "value"]).run(RoutePlan.patternStopsKey, String(try side.value()))
        try db.execute("COMMIT")
        let attach = try db.prepare("ATTACH DATABASE ?1 AS side")
        attach.bind([sideTablesPath])
        try attach.run()
        try db.execute("BEGIN")
        for sql in sideStatements {
            let name = BundleSchema.tableName(sql)
            // The city tables go together, with a catalogue; other optional tables with rows.
            let kept =
                BundleSchema.cityTables.contains(name)
                ? cities != nil : try !BundleSchema.optionalTables.contains(name) || Self.hasRows("side.\(name)", db)
            guard kept else { continue }
            try db.execute(sql)
            try db.execute("INSERT INTO main.\(name) SELECT * FROM side.\(name)")
        }
        try db.execute("COMMIT; DETACH DATABASE side; BEGIN")
        for sql in statements where isIndex(sql) {
            if let table = BundleSchema.indexedTable(sql), try db.hasTable(table) { try db.execute(sql) }
        }
        try db.execute("INSERT INTO stops_fts(stops_fts) VALUES('optimize')")
        if cities != nil { try db.execute("INSERT INTO cities_fts(cities_fts) VALUES('optimize')") }
        // The content's fingerprint, over every table written above (it leaves itself out).
        try db.prepareInsert(into: "metadata", columns: ["key", "value"]).run("content_sha256", try ContentHash.compute(db))
        try db.execute("PRAGMA application_id = \(BundleSchema.applicationID); PRAGMA user_version = \(BundleSchema.version)")
        try db.execute("COMMIT")
        try db.execute("PRAGMA analysis_limit = 1000; ANALYZE")
        // Pages are packed on insert; only free pages (left by FTS merges) need a VACUUM.
        if try db.scalarInt("PRAGMA freelist_count") ?? 0 > 0 { try db.execute("VACUUM") }
    }

    /// Whether `table` (schema-qualified, a name from the schema) has a row.
    private static func hasRows(_ table: String, _ db: SQLiteDatabase) throws -> Bool {
        try db.scalarInt("SELECT EXISTS (SELECT 1 FROM \(table))") == 1
    }

    /// 1 KB pages for a town or a city (a table takes at least a page, and packed rows waste
    /// less at page ends); 8 KB pages, and shallower trees, for the largest bundles (their
    /// packed rows span pages, and a chain of larger pages has fewer ends to waste).
    static func pageSize(_ model: BundleModel, _ cities: CityModel?) -> Int {
        model.stopTimeCount < 2_000_000 && (cities?.cities.count ?? 0) < 10_000 ? 1024 : 8192
    }

    /// Settings for writing a file nobody else reads until it is renamed into place.
    private static func configure(_ db: SQLiteDatabase, pageSize: Int) throws {
        try db.execute(
            "PRAGMA page_size = \(pageSize); PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -262144"
        )
    }
}
