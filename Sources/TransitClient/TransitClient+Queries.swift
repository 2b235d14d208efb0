import Foundation
import TransitRuntime

/// The other questions of the runtime, asked of the server and decoded into the same types
/// (`TransitBundle`'s methods of the same names answer them offline).
extension TransitClient {
    /// The server's arrivals at the stops (live when it has live data), as `departures`.
    /// - Throws: `TransitClientError`.
    public func arrivals(
        to stops: [String], feed: String? = nil, at time: QueryTime? = nil, within window: TimeInterval = 3600, limit: Int = 20
    ) async throws -> ServerBoard {
        try await board("arrivals", stops: stops, feed: feed, at: time, within: window, limit: limit)
    }

    /// Stops whose names match `text`, as `TransitBundle.stops(matching:limit:)`.
    /// - Throws: `TransitClientError`.
    public func stops(matching text: String, limit: Int = 20) async throws -> [Stop] {
        try await decoded([Stop].self, "stops", [("search", text), ("limit", "\(max(0, limit))")])
    }

    /// A trip's calls on a service date, as `TransitBundle.trip(_:feed:on:)`.
    /// - Throws: `TransitClientError`.
    public func trip(_ id: String, feed: String? = nil, on date: ServiceDate) async throws -> TripDetails {
        var parameters = [("trip", id), ("date", date.description)]
        if let feed { parameters.append(("feed", feed)) }
        return try await decoded(TripDetails.self, "trip", parameters)
    }

    /// Journeys between two stops (ids) leaving at `time` (now when nil), as
    /// `TransitBundle.journeys(from:to:departingAt:)` with the server's live data.
    /// - Throws: `TransitClientError`.
    public func journeys(from origin: String, to destination: String, feed: String? = nil, departingAt time: QueryTime? = nil)
        async throws -> [Journey]
    {
        var parameters = [("from", origin), ("to", destination)]
        if let feed { parameters.append(("feed", feed)) }
        if let time { parameters.append(("at", Self.text(time))) }
        return try await decoded(PlanAnswer.self, "plan", parameters).journeys
    }

    private struct PlanAnswer: Decodable {
        var journeys: [Journey]
    }

    func decoded<T: Decodable>(_ type: T.Type, _ command: String, _ parameters: [(String, String)]) async throws -> T {
        let answer = try await get(command, parameters)
        do {
            return try JSONDecoder().decode(T.self, from: answer.body)
        } catch {
            throw TransitClientError.badAnswer("the \(command) answer does not decode: \(error)")
        }
    }
}
