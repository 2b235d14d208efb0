import TransitRuntime

/// The city queries as `async` functions of the same names, run as the other queries' twins are.
extension TransitBundle {
    /// `nearestCities(to:filter:limit:)` off the caller's actor.
    public func nearestCities(to point: Coordinate, filter: CityFilter = CityFilter(), limit: Int = 10) async throws -> [City] {
        try await offCaller { try self.nearestCities(to: point, filter: filter, limit: limit) }
    }

    /// `city(id:)` off the caller's actor.
    public func city(id: String) async throws -> City {
        try await offCaller { try self.city(id: id) }
    }

    /// `cities(matching:filter:limit:)` off the caller's actor.
    public func cities(matching text: String, filter: CityFilter = CityFilter(), limit: Int = 20) async throws -> [City] {
        try await offCaller { try self.cities(matching: text, filter: filter, limit: limit) }
    }

    /// `cities(filter:limit:)` off the caller's actor.
    public func cities(filter: CityFilter, limit: Int = 20) async throws -> [City] {
        try await offCaller { try self.cities(filter: filter, limit: limit) }
    }
}
