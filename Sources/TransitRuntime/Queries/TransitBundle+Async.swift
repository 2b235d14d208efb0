import Foundation

/// The queries as `async` functions of the same names, for apps: each runs on the
/// concurrency pool (never on the caller's actor, the main one included), checks for
/// cancellation before it starts and after it ends (a query itself takes micro- to
/// milliseconds and is not interrupted), and gives the same answer as its synchronous twin.
///
/// ```swift
/// let board = try await bundle.departures(stop: "GARE_01", at: .instant(Date()))
/// ```
extension TransitBundle {
    /// Runs `body` on a task of the concurrency pool and waits for it (it never outlives the call).
    private func offCaller<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        let value = try await Task.detached(priority: Task.currentPriority) { try body() }.value
        try Task.checkCancellation()
        return value
    }

    public func departures(
        stop: String, feed: String? = nil, at: QueryTime = .instant(Date()), windowMinutes: Int = 60, limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.departures(stop: stop, feed: feed, at: at, windowMinutes: windowMinutes, limit: limit) }
    }

    public func departures(
        stops: [String], feed: String? = nil, at: QueryTime = .instant(Date()), windowMinutes: Int = 60, limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.departures(stops: stops, feed: feed, at: at, windowMinutes: windowMinutes, limit: limit) }
    }

    public func arrivals(
        stops: [String], feed: String? = nil, at: QueryTime = .instant(Date()), windowMinutes: Int = 60, limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.arrivals(stops: stops, feed: feed, at: at, windowMinutes: windowMinutes, limit: limit) }
    }

    public func searchStops(_ text: String, limit: Int = 20) async throws -> [Stop] {
        try await offCaller { try self.searchStops(text, limit: limit) }
    }

    public func stopsNear(lat: Double, lon: Double, radius: Double = 500, limit: Int = 20) async throws -> [Stop] {
        try await offCaller { try self.stopsNear(lat: lat, lon: lon, radius: radius, limit: limit) }
    }

    public func stopsNear(_ point: Coordinate, within radius: Double = 500, limit: Int = 20) async throws -> [Stop] {
        try await offCaller { try self.stopsNear(point, within: radius, limit: limit) }
    }

    public func nearestCities(to point: Coordinate, filter: CityFilter = CityFilter(), limit: Int = 10) async throws -> [City] {
        try await offCaller { try self.nearestCities(to: point, filter: filter, limit: limit) }
    }

    public func nearestStops(to point: Coordinate, count: Int = 10, maxDistance: Double = 50_000) async throws -> [Stop] {
        try await offCaller { try self.nearestStops(to: point, count: count, maxDistance: maxDistance) }
    }

    public func trip(id: String, feed: String? = nil, date: ServiceDate) async throws -> TripDetails {
        try await offCaller { try self.trip(id: id, feed: feed, date: date) }
    }

    public func shape(trip: String, feed: String? = nil) async throws -> Shape {
        try await offCaller { try self.shape(trip: trip, feed: feed) }
    }

    public func shapes(route: String, feed: String? = nil) async throws -> [Shape] {
        try await offCaller { try self.shapes(route: route, feed: feed) }
    }

    public func agencies(feed: String? = nil) async throws -> [Agency] {
        try await offCaller { try self.agencies(feed: feed) }
    }

    public func routes(feed: String? = nil, agency: String? = nil) async throws -> [Route] {
        try await offCaller { try self.routes(feed: feed, agency: agency) }
    }

    public func routes(servingStop stop: String, feed: String? = nil) async throws -> [Route] {
        try await offCaller { try self.routes(servingStop: stop, feed: feed) }
    }

    public func route(_ id: String, feed: String? = nil) async throws -> RouteDetails {
        try await offCaller { try self.route(id, feed: feed) }
    }

    public func transfers(at stop: String, feed: String? = nil) async throws -> [Transfer] {
        try await offCaller { try self.transfers(at: stop, feed: feed) }
    }

    public func info() async throws -> BundleInfo {
        try await offCaller { try self.info() }
    }

    public func city(id: String) async throws -> City {
        try await offCaller { try self.city(id: id) }
    }

    public func searchCities(_ text: String, filter: CityFilter = CityFilter(), limit: Int = 20) async throws -> [City] {
        try await offCaller { try self.searchCities(text, filter: filter, limit: limit) }
    }

    public func nearestCities(lat: Double, lon: Double, filter: CityFilter = CityFilter(), limit: Int = 10) async throws -> [City] {
        try await offCaller { try self.nearestCities(lat: lat, lon: lon, filter: filter, limit: limit) }
    }
}
