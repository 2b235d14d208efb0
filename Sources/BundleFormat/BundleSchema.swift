import TransitSQLite

/// The bundle format version and schema shared by the compiler and the runtime.
/// The SQL lives in `schemas/bundle.sql`; `BundleSchema+SQL.swift` is generated from it.
package enum BundleSchema {
    /// Bumped on any change a reader must know about.
    package static let version = 9

    /// `PRAGMA application_id` of every bundle: "TRNB".
    package static let applicationID: Int32 = 0x5452_4E42

    /// The CREATE statements of `schemas/bundle.sql`, one per element, comments outside them dropped.
    package static var statements: [String] { splitStatements(sql) }

    /// The schema version in `db`'s header (`PRAGMA user_version`), nil when its
    /// `application_id` is not a bundle's.
    package static func headerVersion(of db: SQLiteDatabase) throws -> Int? {
        guard try db.scalarInt("PRAGMA application_id") == Int(applicationID) else { return nil }
        return try db.scalarInt("PRAGMA user_version") ?? 0
    }

    /// Tables every bundle has; a reader checks them before trusting a file.
    package static let requiredTables = [
        "metadata", "feeds", "agencies", "dict_route", "service_blocks", "stops", "stop_ids", "routes", "headsigns", "patterns",
        "planner_sequences", "planner_routes", "planner_walks", "route_patterns", "shapes", "shape_edges", "stop_patterns",
        "trip_blocks", "trip_ids", "calendar", "service_dates", "stops_fts",
    ]

    /// Tables the compiler writes only when they have rows (a feed without the file, a
    /// bundle compiled without cities), with their indexes: a reader takes a missing one
    /// for an empty one, and `ContentHash` hashes it so.
    package static let optionalTables: Set<String> = [
        "trip_names", "frequencies", "transfers", "fare_classes", "currencies", "fare_zone_names", "fare_zones", "fare_ids", "fare_media",
        "rider_categories", "fare_products", "fare_leg_rules", "fare_transfer_rules", "timeframes", "stop_areas", "route_networks",
        "translations", "pathways", "levels", "stop_levels", "attributions", "cities", "city_alternate_names", "categories",
        "city_categories", "city_attractions", "city_images", "city_related", "city_feeds", "cities_fts", "city_cells",
    ]

    /// The city tables: optional as one, there when the bundle was compiled with a
    /// catalogue (every one of them, with rows or not), missing otherwise.
    package static let cityTables: Set<String> = [
        "cities", "city_alternate_names", "categories", "city_categories", "city_attractions", "city_images", "city_related",
        "city_feeds", "cities_fts", "city_cells",
    ]

    /// The tables made with `table` when a bundle lacks it: the city tables together, any
    /// other alone.
    package static func group(of table: String) -> [String] {
        cityTables.contains(table) ? cityTables.sorted() : [table]
    }

    /// The CREATE statements of `table` and of its indexes, in the schema's order: what
    /// makes an optional table that a bundle lacks (the patch applier, when a patch fills it).
    package static func createStatements(of table: String) -> [String] {
        statements.filter { sql in
            tableName(sql) == table
                || (sql.hasPrefix("CREATE INDEX ") || sql.hasPrefix("CREATE UNIQUE INDEX ")) && indexedTable(sql) == table
        }
    }

    /// The table in `CREATE [UNIQUE] INDEX name ON table (...`.
    package static func indexedTable(_ sql: String) -> String? {
        guard let on = sql.range(of: " ON ") else { return nil }
        return String(sql[on.upperBound...].prefix { $0 != " " && $0 != "(" })
    }

    /// The ordinary tables (not FTS5 or R*Tree, whose content is derived), sorted by name:
    /// what `ContentHash` reads.
    package static var contentTables: [String] {
        statements.filter { $0.hasPrefix("CREATE TABLE ") }.map(tableName).sorted()
    }

    /// The table name in `CREATE TABLE name (` or `CREATE VIRTUAL TABLE name USING`.
    package static func tableName(_ sql: String) -> String {
        let rest =
            sql.hasPrefix("CREATE VIRTUAL TABLE ") ? sql.dropFirst("CREATE VIRTUAL TABLE ".count) : sql.dropFirst("CREATE TABLE ".count)
        return String(rest.prefix { $0 != " " && $0 != "(" })
    }

    /// The `city_cells` cell of a coordinate: one-degree squares numbered row by row from the south-west.
    package static func cityCell(lat: Double, lng: Double) -> Int {
        cityCell(row: min(179, max(0, Int((lat + 90).rounded(.down)))), column: min(359, max(0, Int((lng + 180).rounded(.down)))))
    }

    package static func cityCell(row: Int, column: Int) -> Int { row * 360 + column }

    /// Splits SQL text into statements at `;` ending a line, dropping `--` comment lines between them.
    package static func splitStatements(_ text: String) -> [String] {
        var statements: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current.isEmpty && (line.hasPrefix("--") || line.allSatisfy(\.isWhitespace)) { continue }
            if line.hasSuffix(";") {
                current.append(line.dropLast())
                statements.append(current.joined(separator: "\n"))
                current = []
            } else {
                current.append(line)
            }
        }
        return statements
    }
}
