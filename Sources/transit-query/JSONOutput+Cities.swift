import TransitRuntime

extension JSONOutput {
    /// A city; the lists are written only when `full` (lookups by id).
    static func write(_ c: City, full: Bool, to w: inout JSONWriter) {
        w.beginObject()
        w.field("id", c.id)
        w.field("name", c.name)
        w.field("country", c.country)
        w.field("country_name", c.countryName)
        w.field("lat", c.lat)
        w.field("lng", c.lon)
        w.field("timezone", c.timezone)
        w.field("population", c.population)
        w.field("description", c.description)
        w.field("cost_of_living", c.costOfLiving)
        w.field("internet_speed", c.internetSpeed)
        w.field("safety_rating", c.safetyRating)
        w.field("climate", c.climate)
        if full {
            w.key("alternate_names")
            w.beginArray()
            for name in c.alternateNames { w.value(name) }
            w.endArray()
            w.key("categories")
            w.beginArray()
            for name in c.categories { w.value(name) }
            w.endArray()
            w.key("attractions")
            w.beginArray()
            for a in c.attractions {
                w.beginObject()
                w.field("id", a.id)
                w.field("name", a.name)
                w.field("description", a.description)
                w.field("lat", a.lat)
                w.field("lng", a.lon)
                w.endObject()
            }
            w.endArray()
            w.key("images")
            w.beginArray()
            for m in c.images {
                w.beginObject()
                w.field("id", m.id)
                w.field("url", m.url)
                w.field("type", m.type)
                w.field("width", m.width)
                w.field("height", m.height)
                w.field("size", m.size)
                w.endObject()
            }
            w.endArray()
            w.key("related_cities")
            w.beginArray()
            for r in c.relatedCities {
                w.beginObject()
                w.field("id", r.id)
                w.field("name", r.name)
                w.endObject()
            }
            w.endArray()
            w.key("feeds")
            w.beginArray()
            for feed in c.feeds { w.value(feed) }
            w.endArray()
        }
        if let distance = c.distanceMetres { w.field("distance_m", (distance * 10).rounded() / 10) }
        w.endObject()
    }
}
