import BundleFormat
import Foundation
import TransitRuntime
import TransitSQLite

extension TransitBundle {
    /// Columns read for every city (`city(from:)` reads them by name).
    static let cityColumns = """
        c.cid, c.city_id, c.name, c.country, c.country_name, c.lat, c.lng, c.timezone, c.population, c.description,
        c.cost_of_living, c.internet_speed, c.safety_rating, c.climate
        """

    /// The filter as SQL over parameters ?11 to ?15 (the text is fixed; values are bound).
    static let cityFilterSQL = """
        (?11 IS NULL OR c.country = ?11)
        AND (?12 IS NULL OR EXISTS (SELECT 1 FROM city_categories cc JOIN categories k ON k.cat = cc.cat
                                    WHERE cc.cid = c.cid AND k.name = ?12))
        AND (?13 IS NULL OR c.internet_speed >= ?13) AND (?14 IS NULL OR c.cost_of_living <= ?14)
        AND (?15 IS NULL OR c.safety_rating >= ?15)
        """

    /// Everything the catalogue had for a city, with its related cities and feeds.
    ///
    /// ```swift
    /// let lisbon = try bundle.city(id: "2267057")
    /// print(lisbon.name, lisbon.alternateNames.count, lisbon.feeds)
    /// ```
    /// - Throws: `TransitError.unknownCity`.
    public func city(id: String) throws -> City {
        guard has("cities") else { throw TransitError.unknownCity(id) }
        return try pool.with { db in
            let q = try db.cached("SELECT \(Self.cityColumns) FROM cities c WHERE c.city_id = ?1")
            q.bind([id])
            guard try q.step() else { throw TransitError.unknownCity(id) }
            let cid = q.int("cid")
            var city = try Self.city(from: q)
            let names = try db.cached("SELECT names FROM city_alternate_names WHERE cid = ?1")
            names.bind([cid])
            if try names.step() { city.alternateNames = names.string(0).split(separator: "\n").map(String.init) }
            city.categories = try strings(
                db, "SELECT k.name FROM city_categories cc JOIN categories k ON k.cat = cc.cat WHERE cc.cid = ?1 ORDER BY k.name", cid)
            city.feeds = try strings(
                db, "SELECT f.feed_id FROM city_feeds cf JOIN feeds f ON f.fid = cf.fid WHERE cf.cid = ?1 ORDER BY f.fid", cid)
            let attractions = try db.cached(
                "SELECT attraction_id, name, description, lat, lng FROM city_attractions WHERE cid = ?1 ORDER BY idx")
            attractions.bind([cid])
            while try attractions.step() {
                let a = attractions
                city.attractions.append(
                    .init(
                        id: a.optionalString("attraction_id"), name: a.string("name"), description: a.optionalString("description"),
                        lat: Self.value(a.optionalDouble("lat"), in: -90...90), lon: Self.value(a.optionalDouble("lng"), in: -180...180)))
            }
            let images = try db.cached("SELECT image_id, url, type, width, height, size FROM city_images WHERE cid = ?1 ORDER BY idx")
            images.bind([cid])
            while try images.step() {
                city.images.append(
                    .init(
                        id: images.optionalString("image_id"), url: images.string("url"), type: images.string("type"),
                        width: images.optionalInt("width"), height: images.optionalInt("height"), size: images.optionalInt("size")))
            }
            let related = try db.cached(
                "SELECT c.city_id, c.name FROM city_related r JOIN cities c ON c.cid = r.related_cid WHERE r.cid = ?1 ORDER BY r.idx")
            related.bind([cid])
            while try related.step() { city.relatedCities.append(.init(id: related.string("city_id"), name: related.string("name"))) }
            return city
        }
    }

    /// Cities whose name, alternate names or country name match `text` (case- and
    /// diacritics-insensitive; each word a prefix). Cities with a name or alternate name
    /// equal to the text come first, then the rest; each group by population, largest
    /// first, then id.
    ///
    /// ```swift
    /// try bundle.cities(matching: "lisboa").first?.name   // "Lisbon"
    /// try bundle.cities(matching: "san fr", limit: 5)
    /// ```
    /// - Throws: `TransitError.badArgument` for a query of more than 1,000 bytes or 16 words.
    public func cities(matching text: String, filter: CityFilter = CityFilter(), limit: Int = 20) throws -> [City] {
        let words = try FullTextQuery.words(text)
        guard !words.isEmpty, limit > 0, has("cities") else { return [] }
        let limit = min(limit, FullTextQuery.maxResults)
        let wanted = words.joined(separator: " ")
        return try pool.with { db in
            // Full-name matches: cities holding every word as a whole token, checked name by name.
            let exact = try db.cached(
                """
                SELECT c.cid, c.name, c.population, n.names FROM cities_fts f JOIN cities c ON c.cid = f.rowid
                LEFT JOIN city_alternate_names n ON n.cid = c.cid
                WHERE cities_fts MATCH ?1 AND \(Self.cityFilterSQL) LIMIT 2000
                """)
            exact.bind([words.map { "\"\($0)\"" }.joined(separator: " ")])
            bind(filter, to: exact)
            var full: [(population: Int, cid: Int)] = []
            while try exact.step() {
                let names = [exact.string(1)] + (exact.optionalString(3)?.split(separator: "\n").map(String.init) ?? [])
                if names.contains(where: { Self.mayEqual($0, wanted) && SearchKey.normalize($0) == wanted }) {
                    full.append((exact.optionalInt(2) ?? -1, exact.int(0)))
                }
            }
            full.sort { ($0.population, -$0.cid) > ($1.population, -$1.cid) }
            var cids = full.prefix(limit).map(\.cid)
            if cids.count < limit {
                let partial = try db.cached(
                    """
                    SELECT c.cid FROM cities_fts f JOIN cities c ON c.cid = f.rowid
                    WHERE cities_fts MATCH ?1 AND \(Self.cityFilterSQL)
                    ORDER BY c.population DESC, c.cid LIMIT ?2
                    """)
                partial.bind([words.map { "\"\($0)\"*" }.joined(separator: " "), limit + full.count])
                bind(filter, to: partial)
                let taken = Set(cids)
                while cids.count < limit, try partial.step() {
                    if !taken.contains(partial.int(0)) { cids.append(partial.int(0)) }
                }
            }
            return try cids.map { try cityRow(cid: $0, db: db) }
        }
    }

    /// Cities matching `filter` (by country, category, internet speed, cost, safety),
    /// by population, largest first, then id.
    ///
    /// ```swift
    /// try bundle.cities(filter: CityFilter(country: "FR"), limit: 3).map(\.name)
    /// ```
    public func cities(filter: CityFilter, limit: Int = 20) throws -> [City] {
        guard limit > 0, has("cities") else { return [] }
        return try pool.with { db in
            let q = try db.cached(
                """
                SELECT \(Self.cityColumns) FROM cities c WHERE \(Self.cityFilterSQL) ORDER BY c.population DESC, c.cid LIMIT ?1
                """)
            q.bind([limit])
            bind(filter, to: q)
            var result: [City] = []
            while try q.step() { result.append(try Self.city(from: q)) }
            return result
        }
    }

    /// The `limit` cities nearest a coordinate by great-circle distance, nearest first
    /// (ties by id), each with `distanceMetres`; `limit` defaults to 10.
    ///
    /// ```swift
    /// let paris = try bundle.nearestCities(to: Coordinate(latitude: 48.8566, longitude: 2.3522), limit: 1)
    /// ```
    public func nearestCities(to point: Coordinate, filter: CityFilter = CityFilter(), limit: Int = 10) throws -> [City] {
        let (lat, lon) = (point.latitude, point.longitude)
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw TransitError.badArgument("coordinate \(lat),\(lon) is out of range")
        }
        guard limit > 0, has("cities") else { return [] }
        return try pool.with { db in
            let search = NearestCitySearch(lat: lat, lon: lon, limit: limit)
            let found = try search.run { first, last in
                let q = try db.cached(
                    """
                    SELECT c.cid, c.lat, c.lng FROM city_cells g JOIN cities c ON c.cid = g.cid
                    WHERE g.cell BETWEEN ?1 AND ?2 AND \(Self.cityFilterSQL)
                    """)
                q.bind([first, last])
                bind(filter, to: q)
                var rows: [(cid: Int, lat: Double, lon: Double)] = []
                // A city off the globe (a damaged bundle) is nobody's nearest.
                while try q.step() {
                    if let lat = Self.value(q.double(1), in: -90...90), let lon = Self.value(q.double(2), in: -180...180) {
                        rows.append((q.int(0), lat, lon))
                    }
                }
                return rows
            }
            return try found.map { hit in
                var city = try cityRow(cid: hit.cid, db: db)
                city.distanceMetres = hit.distance
                return city
            }
        }
    }

    private func bind(_ filter: CityFilter, to q: SQLiteStatement) {
        q.bind(11, filter.country)
        q.bind(12, filter.category)
        q.bind(13, filter.minInternetSpeed)
        q.bind(14, filter.maxCostOfLiving)
        q.bind(15, filter.minSafetyRating)
    }

    private func cityRow(cid: Int, db: SQLiteDatabase) throws -> City {
        let q = try db.cached("SELECT \(Self.cityColumns) FROM cities c WHERE c.cid = ?1")
        q.bind([cid])
        guard try q.step() else { throw TransitError.corruptBundle(reason: "city \(cid) is missing from the bundle") }
        return try Self.city(from: q)
    }

    private func strings(_ db: SQLiteDatabase, _ sql: String, _ cid: Int) throws -> [String] {
        let q = try db.cached(sql)
        q.bind([cid])
        var result: [String] = []
        while try q.step() { result.append(q.string(0)) }
        return result
    }

    /// A row of `cityColumns`, its numbers checked as the compiler writes them: a cost of
    /// living, internet speed or safety rating outside its range (0 to 10,000,000 USD, 0 to
    /// 1,000,000 Mbps, 0 to 5) or not finite is unknown (nil); a position off the globe is
    /// a damaged bundle.
    static func city(from q: SQLiteStatement) throws -> City {
        let (lat, lon) = (q.double("lat"), q.double("lng"))
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw TransitError.corruptBundle(reason: "cities: city \(q.int("cid")) lies at \(lat),\(lon), off the globe")
        }
        return City(
            id: q.string("city_id"), name: q.string("name"), country: q.string("country"), countryName: q.optionalString("country_name"),
            lat: lat, lon: lon, timezone: q.optionalString("timezone"), population: q.optionalInt("population"),
            description: q.optionalString("description"), costOfLiving: value(q.optionalDouble("cost_of_living"), in: 0...10_000_000),
            internetSpeed: value(q.optionalDouble("internet_speed"), in: 0...1_000_000),
            safetyRating: value(q.optionalDouble("safety_rating"), in: 0...5), climate: q.optionalString("climate"))
    }

    /// `value` when it lies in `range` (so is finite), else nil: shown as unknown.
    static func value(_ value: Double?, in range: ClosedRange<Double>) -> Double? {
        value.flatMap { range.contains($0) ? $0 : nil }
    }

    /// A cheap test before normalizing: an ASCII query can only equal a name written in
    /// Latin letters (possibly with diacritics).
    static func mayEqual(_ name: String, _ wanted: String) -> Bool {
        guard wanted.utf8.allSatisfy({ $0 < 0x80 }) else { return true }
        return name.unicodeScalars.allSatisfy { $0.value < 0x2000 && !(0x0370..<0x1E00).contains($0.value) }
    }
}

extension TransitBundle {
    /// Every picture the bundle's catalogue lists, with the id of its city, in the
    /// catalogue's order: what the store keeps on the device for an offline city page.
    ///
    /// ```swift
    /// for (cityID, image) in try bundle.cityImages() where image.type == "hero" { print(cityID, image.url) }
    /// ```
    public func cityImages() throws -> [(cityID: String, image: City.Image)] {
        guard has("cities") else { return [] }
        return try pool.with { db in
            let q = try db.cached(
                """
                SELECT c.city_id, i.image_id, i.url, i.type, i.width, i.height, i.size FROM city_images i
                JOIN cities c ON c.cid = i.cid ORDER BY c.cid, i.idx
                """)
            var list: [(cityID: String, image: City.Image)] = []
            while try q.step() {
                list.append(
                    (
                        q.string(0),
                        City.Image(
                            id: q.optionalString(1), url: q.string(2), type: q.string(3), width: q.optionalInt(4),
                            height: q.optionalInt(5), size: q.optionalInt(6))
                    ))
            }
            return list
        }
    }
}
