import TransitCities
import TransitRuntime

/// What a `Query` returns, with one JSON shape per result type (`JSONOutput`) and one text
/// rendering (`Answer+Text`).
enum Answer {
    case departures([Departure])
    case arrivals([Departure])
    case stops([Stop])
    case trip(TripDetails)
    /// A trip's line, and a route's lines.
    case shape(Shape)
    case shapes([Shape])
    case agencies([Agency])
    case transfers([Transfer])
    case routes([Route])
    case route(RouteDetails)
    case info(BundleInfo)
    case city(City)
    case cities([City])
    case journeys([Journey])

    /// The key a batch answer puts the result under.
    var key: String {
        switch self {
        case .departures: return "departures"
        case .arrivals: return "arrivals"
        case .stops: return "stops"
        case .trip: return "trip"
        case .shape: return "shape"
        case .shapes: return "shapes"
        case .agencies: return "agencies"
        case .transfers: return "transfers"
        case .routes: return "routes"
        case .route: return "route"
        case .info: return "info"
        case .city: return "city"
        case .cities: return "cities"
        case .journeys: return "journeys"
        }
    }

    /// The result as JSON: an array for lists, an object otherwise.
    func writeJSON(to w: inout JSONWriter) {
        switch self {
        case .departures(let list), .arrivals(let list): JSONOutput.writeArray(list, JSONOutput.write, to: &w)
        case .stops(let list): JSONOutput.writeArray(list, JSONOutput.write, to: &w)
        case .trip(let trip): w.raw(JSONOutput.encoded(trip))
        case .shape(let shape): JSONOutput.write(shape, to: &w)
        case .shapes(let list): JSONOutput.writeArray(list, JSONOutput.write, to: &w)
        // The Codable encoding of the library's types: their keys are the CLI's.
        case .agencies(let list): w.raw(JSONOutput.encoded(list))
        case .transfers(let list): w.raw(JSONOutput.encoded(list))
        case .routes(let list): w.raw(JSONOutput.encoded(list))
        case .route(let details): w.raw(JSONOutput.encoded(details))
        case .info(let info): w.raw(JSONOutput.encoded(info))
        case .city(let city): w.raw(JSONOutput.encoded(city))
        case .cities(let list): w.raw(JSONOutput.encoded(list.map(JSONOutput.roundingDistance)))
        case .journeys(let list): w.raw(JSONOutput.encoded(list))
        }
    }

    var json: String {
        var w = JSONWriter()
        writeJSON(to: &w)
        return w.text
    }
}
