import TransitStore

/// Inserts a checked city catalogue. `insertRows` fills the ordinary tables (cities,
/// alternate names, categories, attractions, images, links, grid cells) and
/// `insertFullText` the FTS index; `BundleWriter` runs them on two connections at once.
enum CityTables {
    static func insertFullText(_ model: CityModel, into db: SQLiteDatabase) throws {
        let fts = try db.prepare("INSERT INTO cities_fts (rowid, name, alternate_names, country_name) VALUES (?, ?, ?, ?)")
        for c in model.cities {
            fts.bind(1, c.cid)
            fts.bind(2, c.name)
            fts.bind(3, c.alternateNames.joined(separator: "\n"))
            fts.bind(4, c.countryName)
            try fts.run()
        }
    }

    static func insertRows(_ model: CityModel, into db: SQLiteDatabase) throws {
        let category = try db.prepare("INSERT INTO categories VALUES (?, ?)")
        var catOf: [String: Int] = [:]
        for (i, name) in model.categories.enumerated() {
            catOf[name] = i + 1
            category.bind(1, i + 1)
            category.bind(2, name)
            try category.run()
        }
        let city = try db.prepare("INSERT INTO cities VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let alternate = try db.prepare("INSERT INTO city_alternate_names VALUES (?, ?)")
        let categoryLink = try db.prepare("INSERT INTO city_categories VALUES (?, ?)")
        let attraction = try db.prepare("INSERT INTO city_attractions VALUES (?, ?, ?, ?, ?, ?, ?)")
        let image = try db.prepare("INSERT INTO city_images VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        let related = try db.prepare("INSERT INTO city_related VALUES (?, ?, ?)")
        let feed = try db.prepare("INSERT INTO city_feeds VALUES (?, ?)")
        for c in model.cities {
            city.bind(1, c.cid)
            city.bind(2, c.id)
            city.bind(3, c.name)
            city.bind(4, c.country)
            city.bind(5, c.countryName)
            city.bind(6, c.lat)
            city.bind(7, c.lng)
            city.bind(8, c.timezone)
            city.bind(9, c.population)
            city.bind(10, c.description)
            city.bind(11, c.costOfLiving)
            city.bind(12, c.internetSpeed)
            city.bind(13, c.safetyRating)
            city.bind(14, c.climate)
            try city.run()
            if !c.alternateNames.isEmpty {
                alternate.bind(1, c.cid)
                alternate.bind(2, c.alternateNames.joined(separator: "\n"))
                try alternate.run()
            }
            for cat in Set(c.categories.compactMap { catOf[$0] }).sorted() {
                categoryLink.bind(1, c.cid)
                categoryLink.bind(2, cat)
                try categoryLink.run()
            }
            for (i, a) in c.attractions.enumerated() {
                attraction.bind(1, c.cid)
                attraction.bind(2, i)
                attraction.bind(3, a.id)
                attraction.bind(4, a.name)
                attraction.bind(5, a.description)
                attraction.bind(6, a.lat)
                attraction.bind(7, a.lng)
                try attraction.run()
            }
            for (i, m) in c.images.enumerated() {
                image.bind(1, c.cid)
                image.bind(2, i)
                image.bind(3, m.id)
                image.bind(4, m.url)
                image.bind(5, m.type)
                image.bind(6, m.width)
                image.bind(7, m.height)
                image.bind(8, m.size)
                try image.run()
            }
            for (i, cid) in c.relatedCids.enumerated() {
                related.bind(1, c.cid)
                related.bind(2, i)
                related.bind(3, cid)
                try related.run()
            }
            for fid in c.fids.sorted() {
                feed.bind(1, c.cid)
                feed.bind(2, fid)
                try feed.run()
            }
        }
        let cell = try db.prepare("INSERT INTO city_cells VALUES (?, ?)")
        let cells = model.cities.map { (BundleSchema.cityCell(lat: $0.lat, lng: $0.lng), $0.cid) }.sorted { $0 < $1 }
        for (number, cid) in cells {
            cell.bind(1, number)
            cell.bind(2, cid)
            try cell.run()
        }
    }
}
