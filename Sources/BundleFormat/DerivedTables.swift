import TransitSQLite

/// The search indexes derived from ordinary tables, filled by one piece of SQL that the
/// compiler and the patch applier share, so a patched bundle searches exactly like a
/// compiled one. They are left out of the content hash and out of patches.
package enum DerivedTables {
    /// The indexes derived from `table`, if any.
    package static func derived(from table: String) -> [String] {
        switch table {
        case "stops", "translations": return ["stops_fts"]
        case "cities", "city_alternate_names": return ["cities_fts"]
        default: return []
        }
    }

    /// Empties and refills `index` from its tables.
    package static func rebuild(_ index: String, in db: SQLiteDatabase) throws {
        switch index {
        case "stops_fts":
            // The name and its translations, plus the words that find them the ways people
            // type them (StopSearchText).
            try StopSearchText.register(on: db)
            // translations is an optional table (BundleSchema.optionalTables).
            let translated =
                try db.hasTable("translations")
                ? "coalesce(' ' || (SELECT group_concat(t.translation, ' ') FROM translations t WHERE t.field = 1 AND t.record = s.sid), '')"
                : "''"
            try db.execute(
                """
                INSERT INTO stops_fts(stops_fts) VALUES('delete-all');
                INSERT INTO stops_fts(rowid, name)
                  SELECT s.sid, stop_search_text(s.name || \(translated)) FROM stops s WHERE s.name <> '' ORDER BY s.sid;
                INSERT INTO stops_fts(stops_fts) VALUES('optimize')
                """)
        case "cities_fts":
            // A patch that brings the first cities brings their index too.
            if try !db.hasTable("cities_fts") {
                for sql in BundleSchema.createStatements(of: "cities_fts") { try db.execute(sql) }
            }
            let named = try db.hasTable("city_alternate_names")
            try db.execute(
                """
                INSERT INTO cities_fts(cities_fts) VALUES('delete-all');
                INSERT INTO cities_fts(rowid, name, alternate_names, country_name)
                  SELECT c.cid, c.name, \(named ? "coalesce(a.names, '')" : "''"), c.country_name
                  FROM cities c \(named ? "LEFT JOIN city_alternate_names a ON a.cid = c.cid" : "") ORDER BY c.cid;
                INSERT INTO cities_fts(cities_fts) VALUES('optimize')
                """)
        default:
            return
        }
    }
}
