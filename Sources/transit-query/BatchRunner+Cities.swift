import TransitRuntime

extension BatchRunner {
    /// `{"op":"city","city":ID}` and `{"op":"cities", "search"|"near"|"country", filters...}`.
    func runCityQuery(_ op: String, _ q: [String: Any], into w: inout JSONWriter) throws {
        switch op {
        case "city":
            let city = try bundle.city(id: try string(q, "city"))
            w.key("city"); JSONOutput.write(city, full: true, to: &w)
        case "cities":
            let filter = CityFilter(country: q["country"] as? String, category: q["category"] as? String,
                                    minInternetSpeed: q["min_internet"].flatMap(number), maxCostOfLiving: q["max_cost"].flatMap(number),
                                    minSafetyRating: q["min_safety"].flatMap(number))
            let limit = try int(q, "limit") ?? 20
            let cities: [City]
            if let text = q["search"] as? String {
                cities = try bundle.searchCities(text, filter: filter, limit: limit)
            } else if let near = q["near"] as? [Any], near.count == 2, let lat = number(near[0]), let lng = number(near[1]) {
                cities = try bundle.nearestCities(lat: lat, lng: lng, filter: filter, limit: limit)
            } else if filter.country != nil {
                cities = try bundle.cities(filter: filter, limit: limit)
            } else {
                throw LineError(code: "bad_query", message: "cities needs \"search\", \"near\": [lat, lng] or \"country\"")
            }
            w.key("cities"); w.beginArray(); for c in cities { JSONOutput.write(c, full: false, to: &w) }; w.endArray()
        default:
            throw LineError(code: "bad_query", message: "unknown op \"\(op)\"")
        }
    }
}
