import ArgumentParser
import Foundation
import TransitCities
import TransitRuntime

/// One question to a bundle: what a subcommand's options or a batch line ask. Both are
/// decoded into this type, checked and defaulted here, and answered by `answer(from:)`.
enum Query {
    /// Departures (or arrivals) from one or more stops.
    case departures(stops: [String], feed: String?, at: QueryTime, windowMinutes: Int, limit: Int, arrivals: Bool)
    case stopsNamed(String, limit: Int)
    case stopsNear(lat: Double, lon: Double, radius: Double, limit: Int)
    case trip(id: String, feed: String?, date: ServiceDate)
    case tripShape(trip: String, feed: String?)
    case routeShapes(route: String, feed: String?)
    case agencies(feed: String?)
    case transfers(stop: String, feed: String?)
    case routes(feed: String?, agency: String?)
    case routesAtStop(stop: String, feed: String?)
    case route(id: String, feed: String?)
    case nearest(lat: Double, lon: Double, count: Int, maxDistance: Double)
    case info
    case city(id: String)
    case cities(CitySelection, filter: CityFilter, limit: Int)
    case plan(PlanRequest)

    enum CitySelection {
        case named(String)
        case near(lat: Double, lon: Double)
        /// Every city the filter keeps (it must name a country).
        case filtered
    }

    static let defaultWindowMinutes = 60
    static let defaultLimit = 20
    static let defaultRadiusMetres = 500.0
    /// The longest board window: a week (a longer one is refused, never multiplied past Int).
    static let maxWindowMinutes = 10_080
    /// The most results one query returns.
    static let maxLimit = 10_000
    /// The widest radius and distance, metres (half the Earth's circumference).
    static let maxDistanceMetres = 20_037_508.0

    /// A query that cannot be asked as written; batch answers carry `code` `bad_query`.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// For a subcommand's `validate()`: an invalid query is a usage error (exit 64), reported
    /// before the bundle is opened.
    static func validate(_ query: () throws -> Query) throws {
        do { _ = try query() } catch let invalid as Invalid { throw ValidationError(invalid.description) }
    }

    static func departures(
        stops: [String], feed: String?, at: String?, windowMinutes: Int?, limit: Int?, arrivals: Bool = false, now: Date
    ) throws -> Query {
        guard !stops.isEmpty else { throw Invalid(description: "\(arrivals ? "arrivals" : "departures") needs a stop") }
        return .departures(
            stops: stops, feed: feed, at: try at.map(QueryTime.parse) ?? .instant(now),
            windowMinutes: try count(windowMinutes, "window", atMost: maxWindowMinutes) ?? defaultWindowMinutes,
            limit: try count(limit, "limit") ?? defaultLimit,
            arrivals: arrivals)
    }

    /// A window, limit or count: never negative, at most `atMost`.
    private static func count(_ value: Int?, _ name: String, atMost: Int = maxLimit) throws -> Int? {
        if let value, value < 0 { throw Invalid(description: "\(name) must not be negative") }
        if let value, value > atMost { throw Invalid(description: "\(name) must be at most \(atMost)") }
        return value
    }

    /// A radius or distance: finite, not negative, at most half the Earth's circumference.
    private static func distance(_ value: Double?, _ name: String) throws -> Double? {
        guard let value else { return nil }
        guard value.isFinite, value >= 0, value <= maxDistanceMetres else {
            throw Invalid(description: "\(name) must be 0 to \(Int(maxDistanceMetres)) metres")
        }
        return value
    }

    /// Stops by name or near a point: exactly one of the two.
    static func stops(search: String?, near: (lat: Double, lon: Double)?, radius: Double?, limit: Int?) throws -> Query {
        let limit = try count(limit, "limit")
        switch (search, near) {
        case (let text?, nil): return .stopsNamed(text, limit: limit ?? defaultLimit)
        case (nil, let point?):
            return .stopsNear(
                lat: point.lat, lon: point.lon, radius: try distance(radius, "radius") ?? defaultRadiusMetres, limit: limit ?? defaultLimit)
        default: throw Invalid(description: "stops needs exactly one of search or near (lat, lon)")
        }
    }

    /// Cities by name, near a point, or all cities of a country; at most one of name and point.
    static func cities(search: String?, near: (lat: Double, lon: Double)?, filter: CityFilter, limit: Int?) throws -> Query {
        let limit = try count(limit, "limit") ?? defaultLimit
        switch (search, near) {
        case (let text?, nil): return .cities(.named(text), filter: filter, limit: limit)
        case (nil, let point?): return .cities(.near(lat: point.lat, lon: point.lon), filter: filter, limit: limit)
        case (nil, nil) where filter.country != nil: return .cities(.filtered, filter: filter, limit: limit)
        case (nil, nil): throw Invalid(description: "cities needs search, near (lat, lon) or country")
        default: throw Invalid(description: "cities takes only one of search and near")
        }
    }

    /// A trip's line or a route's lines: exactly one of the two.
    static func shape(trip: String?, route: String?, feed: String?) throws -> Query {
        switch (trip, route) {
        case (let trip?, nil): return .tripShape(trip: trip, feed: feed)
        case (nil, let route?): return .routeShapes(route: route, feed: feed)
        default: throw Invalid(description: "shape needs exactly one of trip and route")
        }
    }

    /// Routes of the bundle, of a feed or agency, or at a stop (not with an agency).
    static func routes(feed: String?, agency: String?, stop: String?) throws -> Query {
        switch (agency, stop) {
        case (_, nil): return .routes(feed: feed, agency: agency)
        case (nil, let stop?): return .routesAtStop(stop: stop, feed: feed)
        default: throw Invalid(description: "routes takes agency or stop, not both")
        }
    }

    static let defaultNearestCount = 10
    static let defaultNearestDistance = 50_000.0

    static func nearest(lat: Double, lon: Double, count: Int?, maxDistance: Double?) throws -> Query {
        .nearest(
            lat: lat, lon: lon, count: try Self.count(count, "count") ?? defaultNearestCount,
            maxDistance: try distance(maxDistance, "max distance") ?? defaultNearestDistance)
    }

    /// Runs the query.
    func answer(from bundle: TransitBundle) throws -> Answer {
        switch self {
        case .departures(let stops, let feed, let at, let window, let limit, let arrivals):
            if arrivals {
                return .arrivals(try bundle.arrivals(to: stops, feed: feed, at: at, within: TimeInterval(window * 60), limit: limit))
            }
            return .departures(try bundle.departures(from: stops, feed: feed, at: at, within: TimeInterval(window * 60), limit: limit))
        case .stopsNamed(let text, let limit):
            return .stops(try bundle.stops(matching: text, limit: limit))
        case .stopsNear(let lat, let lon, let radius, let limit):
            return .stops(try bundle.stops(near: Coordinate(latitude: lat, longitude: lon), within: radius, limit: limit))
        case .trip(let id, let feed, let date):
            return .trip(try bundle.trip(id, feed: feed, on: date))
        case .tripShape(let trip, let feed):
            return .shape(try bundle.shape(trip: trip, feed: feed))
        case .routeShapes(let route, let feed):
            return .shapes(try bundle.shapes(route: route, feed: feed))
        case .agencies(let feed):
            return .agencies(try bundle.agencies(feed: feed))
        case .transfers(let stop, let feed):
            return .transfers(try bundle.transfers(at: stop, feed: feed))
        case .routes(let feed, let agency):
            return .routes(try bundle.routes(feed: feed, agency: agency))
        case .routesAtStop(let stop, let feed):
            return .routes(try bundle.routes(servingStop: stop, feed: feed))
        case .route(let id, let feed):
            return .route(try bundle.route(id, feed: feed))
        case .nearest(let lat, let lon, let count, let maxDistance):
            return .stops(
                try bundle.nearestStops(
                    to: TransitRuntime.Coordinate(latitude: lat, longitude: lon), count: count, maxDistance: maxDistance))
        case .info:
            return .info(try bundle.info())
        case .city(let id):
            return .city(try bundle.city(id: id))
        case .cities(.named(let text), let filter, let limit):
            return .cities(try bundle.cities(matching: text, filter: filter, limit: limit))
        case .cities(.near(let lat, let lon), let filter, let limit):
            return .cities(try bundle.nearestCities(to: Coordinate(latitude: lat, longitude: lon), filter: filter, limit: limit))
        case .cities(.filtered, let filter, let limit):
            return .cities(try bundle.cities(filter: filter, limit: limit))
        case .plan(let request):
            let answer = try request.answer(from: bundle)
            return .journeys(answer.journeys, searchedUntil: answer.searchedUntil)
        }
    }
}
