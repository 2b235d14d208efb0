import BundleFormat
import TransitJSON
import TransitRuntime

extension BatchRunner {
    /// `{"op":"city","city":ID}` and `{"op":"cities", "search"|"near"|"country", filters...}`.
    func runCityQuery(_ op: String, _ q: JSONValue, into w: inout JSONWriter) throws {
        switch op {
        case "city":
            let city = try bundle.city(id: try string(q, "city"))
            w.key("city")
            JSONOutput.write(city, full: true, to: &w)
        case "cities":
            let filter = CityFilter(
                country: try optionalString(q, "country"), category: try optionalString(q, "category"),
                minInternetSpeed: try number(q, "min_internet"), maxCostOfLiving: try number(q, "max_cost"),
                minSafetyRating: try number(q, "min_safety"))
            let limit = try int(q, "limit") ?? 20
            let cities: [City]
            if let text = try optionalString(q, "search") {
                cities = try bundle.searchCities(text, filter: filter, limit: limit)
            } else if let point = try coordinate(q, "near") {
                cities = try bundle.nearestCities(lat: point.0, lon: point.1, filter: filter, limit: limit)
            } else if filter.country != nil {
                cities = try bundle.cities(filter: filter, limit: limit)
            } else {
                throw LineError(code: "bad_query", message: "cities needs \"search\", \"near\": [lat, lng] or \"country\"")
            }
            w.key("cities")
            w.beginArray()
            for c in cities { JSONOutput.write(c, full: false, to: &w) }
            w.endArray()
        default:
            throw LineError(code: "bad_query", message: "unknown op \"\(op)\"")
        }
    }
}
