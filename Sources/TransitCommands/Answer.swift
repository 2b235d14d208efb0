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
    /// Journeys, and where a budget cut a range short, the end of what was searched.
    case journeys([Journey], searchedUntil: LocalDateTime?)

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

    /// The result as the library type's `Codable` encoding: an array for lists, an object
    /// otherwise.
    var value: any Encodable {
        switch self {
        case .departures(let list), .arrivals(let list): return list
        case .stops(let list): return list.map(JSONOutput.roundingDistance)
        case .trip(let trip): return trip
        case .shape(let shape): return shape
        case .shapes(let list): return list
        case .agencies(let list): return list
        case .transfers(let list): return list
        case .routes(let list): return list
        case .route(let details): return details
        case .info(let info): return info
        case .city(let city): return city
        case .cities(let list): return list.map(JSONOutput.roundingDistance)
        case .journeys(let list, _): return list
        }
    }

    /// Where a range query's budget (`--range-searches`) ended the search, if it did.
    var searchedUntil: LocalDateTime? {
        if case .journeys(_, let end) = self { return end }
        return nil
    }

    var json: String { get throws { try JSONOutput.text(value) } }
}
