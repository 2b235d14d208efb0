import Foundation
import TransitCities
import TransitJSON
import TransitRuntime

/// A batch line as a `Query`: `{"op": "departures", "stop": ..., ...}`; keys as in docs/transit-query.md.
extension Query {
    /// The line's query; a departures or plan line without `at` asks about `now`.
    init(json q: JSONValue, now: Date) throws {
        let fields = JSONFields(q)
        switch try fields.string("op") {
        case "departures", "arrivals":
            // "stop": one stop_id, or "stops": several.
            let stops = try fields.optionalString("stop").map { [$0] } ?? fields.strings("stops")
            self = try .departures(
                stops: stops, feed: try fields.optionalString("feed"), at: try fields.optionalString("at"),
                windowMinutes: try fields.int("window"), limit: try fields.int("limit"), arrivals: try fields.string("op") == "arrivals",
                now: now)
        case "stops":
            self = try .stops(
                search: try fields.optionalString("search"), near: try fields.coordinate("near"), radius: try fields.number("radius"),
                limit: try fields.int("limit"))
        case "trip":
            guard let date = ServiceDate(try fields.string("date")) else { throw Invalid(description: "\"date\" must be YYYY-MM-DD") }
            self = .trip(id: try fields.string("trip"), feed: try fields.optionalString("feed"), date: date)
        case "shape":
            self = try .shape(
                trip: try fields.optionalString("trip"), route: try fields.optionalString("route"), feed: try fields.optionalString("feed"))
        case "transfers":
            self = .transfers(stop: try fields.string("stop"), feed: try fields.optionalString("feed"))
        case "agencies":
            self = .agencies(feed: try fields.optionalString("feed"))
        case "routes":
            self = try .routes(
                feed: try fields.optionalString("feed"), agency: try fields.optionalString("agency"),
                stop: try fields.optionalString("stop"))
        case "route":
            self = .route(id: try fields.string("route"), feed: try fields.optionalString("feed"))
        case "nearest":
            guard let point = try fields.coordinate("near") else { throw Invalid(description: "nearest needs near (lat, lon)") }
            self = try .nearest(
                lat: point.lat, lon: point.lon, count: try fields.int("count"), maxDistance: try fields.number("max_distance"))
        case "info":
            self = .info
        case "city":
            self = .city(id: try fields.string("city"))
        case "cities":
            let filter = CityFilter(
                country: try fields.optionalString("country"), category: try fields.optionalString("category"),
                minInternetSpeed: try fields.number("min_internet"), maxCostOfLiving: try fields.number("max_cost"),
                minSafetyRating: try fields.number("min_safety"))
            self = try .cities(
                search: try fields.optionalString("search"), near: try fields.coordinate("near"), filter: filter,
                limit: try fields.int("limit"))
        case "plan":
            self = try .plan(
                from: try fields.string("from"), to: try fields.string("to"), feed: try fields.optionalString("feed"),
                at: try fields.optionalString("at"), arriveBy: try fields.bool("arrive_by") ?? false,
                windowMinutes: try fields.int("window"),
                maxTransfers: try fields.int("max_transfers"), changeTime: try fields.int("change_time"),
                walkSpeed: try fields.number("walk_speed"), transferDistance: try fields.number("transfer_distance"),
                accessDistance: try fields.number("access_distance"), wheelchair: try fields.bool("wheelchair") ?? false,
                rangeSearches: try fields.int("range_searches"), now: now)
        case let op:
            throw Invalid(description: "unknown op \"\(op)\"")
        }
    }
}

/// Typed reads of a JSON object's fields, failing with `Query.Invalid`.
private struct JSONFields {
    let object: JSONValue

    init(_ object: JSONValue) { self.object = object }

    func optionalString(_ key: String) throws -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw Query.Invalid(description: "\"\(key)\" must be a string, not \(other.typeName)")
        }
    }

    func string(_ key: String) throws -> String {
        guard let value = try optionalString(key), !value.isEmpty else {
            throw Query.Invalid(description: "\"\(key)\" must be a non-empty string")
        }
        return value
    }

    func number(_ key: String) throws -> Double? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        case .integer(let value)?: return Double(value)
        case .bigInteger(let digits)?: return Double(digits)
        case let other?: throw Query.Invalid(description: "\"\(key)\" must be a number, not \(other.typeName)")
        }
    }

    func bool(_ key: String) throws -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw Query.Invalid(description: "\"\(key)\" must be true or false, not \(other.typeName)")
        }
    }

    func int(_ key: String) throws -> Int? {
        guard let value = try number(key) else { return nil }
        guard value == value.rounded(), value >= 0, value < 1e9 else {
            throw Query.Invalid(description: "\"\(key)\" must be a non-negative integer")
        }
        return Int(value)
    }

    /// An array of strings; empty when the key is absent.
    func strings(_ key: String) throws -> [String] {
        guard let value = object[key] else { return [] }
        guard case .array(let items) = value else { throw Query.Invalid(description: "\"\(key)\" must be an array of strings") }
        return try items.map {
            guard case .string(let text) = $0, !text.isEmpty else {
                throw Query.Invalid(description: "\"\(key)\" must be an array of non-empty strings")
            }
            return text
        }
    }

    /// `[lat, lon]`, or nil when the key is absent.
    func coordinate(_ key: String) throws -> (lat: Double, lon: Double)? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value, items.count == 2, let lat = items[0].doubleValue, let lon = items[1].doubleValue else {
            throw Query.Invalid(description: "\"\(key)\" must be [lat, lon]")
        }
        return (lat, lon)
    }
}
