import BundleFormat
import TransitSQLite

/// Inserts a checked city catalogue. `insertRows` fills the ordinary tables (cities,
/// alternate names, categories, attractions, images, links, grid cells) and
/// `insertFullText` the FTS index; `BundleWriter` runs them on two connections at once.
enum CityTables {
    static func insertFullText(_ model: CityModel, into db: SQLiteDatabase) throws {
        let fts = try db.prepareInsert(into: "cities_fts", columns: ["rowid", "name", "alternate_names", "country_name"])
        for c in model.cities { try fts.run(c.cid, c.name, c.alternateNames.joined(separator: "\n"), c.countryName) }
    }

    static func insertRows(_ model: CityModel, into db: SQLiteDatabase) throws {
        let category = try db.prepareInsert(into: "categories", columns: ["cat", "name"])
        var catOf: [String: Int] = [:]
        for (i, name) in model.categories.enumerated() {
            catOf[name] = i + 1
            try category.run(i + 1, name)
        }
        let city = try db.prepareInsert(
            into: "cities",
            columns: [
                "cid", "city_id", "name", "country", "country_name", "lat", "lng", "timezone", "population", "description",
                "cost_of_living", "internet_speed", "safety_rating", "climate",
            ])
        let alternate = try db.prepareInsert(into: "city_alternate_names", columns: ["cid", "names"])
        let categoryLink = try db.prepareInsert(into: "city_categories", columns: ["cid", "cat"])
        let attraction = try db.prepareInsert(
            into: "city_attractions", columns: ["cid", "idx", "attraction_id", "name", "description", "lat", "lng"])
        let image = try db.prepareInsert(
            into: "city_images", columns: ["cid", "idx", "image_id", "url", "type", "width", "height", "size"])
        let related = try db.prepareInsert(into: "city_related", columns: ["cid", "idx", "related_cid"])
        let feed = try db.prepareInsert(into: "city_feeds", columns: ["cid", "fid"])
        for c in model.cities {
            try city.run(
                c.cid, c.id, c.name, c.country, c.countryName, c.lat, c.lng, c.timezone, c.population, c.description, c.costOfLiving,
                c.internetSpeed, c.safetyRating, c.climate)
            if !c.alternateNames.isEmpty { try alternate.run(c.cid, c.alternateNames.joined(separator: "\n")) }
            for cat in Set(c.categories.compactMap { catOf[$0] }).sorted() { try categoryLink.run(c.cid, cat) }
            for (i, a) in c.attractions.enumerated() { try attraction.run(c.cid, i, a.id, a.name, a.description, a.lat, a.lng) }
            for (i, m) in c.images.enumerated() { try image.run(c.cid, i, m.id, m.url, m.type, m.width, m.height, m.size) }
            for (i, cid) in c.relatedCids.enumerated() { try related.run(c.cid, i, cid) }
            for fid in c.fids.sorted() { try feed.run(c.cid, fid) }
        }
        let cell = try db.prepareInsert(into: "city_cells", columns: ["cell", "cid"])
        let cells = model.cities.map { (BundleSchema.cityCell(lat: $0.lat, lng: $0.lng), $0.cid) }.sorted { $0 < $1 }
        for (number, cid) in cells { try cell.run(number, cid) }
    }
}
