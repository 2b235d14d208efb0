import Foundation

/// Boards that take a `Stop` value (its feed and id) where the text forms take an id and a
/// feed; `Stop.id` ("feed/stop_id") is accepted by every query that takes a stop id.
extension TransitBundle {
    /// Departures from a `Stop` value (its feed and id), as `departures(from:feed:at:within:limit:)`.
    ///
    /// ```swift
    /// let stop = try bundle.stops(matching: "hauptbahnhof")[0]
    /// let board = try bundle.departures(from: stop, at: .instant(Date()))
    /// ```
    public func departures(
        from stop: Stop, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) throws -> [Departure] {
        try departures(from: stop.stopID, feed: stop.feedID, at: time, within: window, limit: limit)
    }

    /// Arrivals at a `Stop` value (its feed and id), as `arrivals(to:feed:at:within:limit:)`.
    public func arrivals(
        to stop: Stop, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) throws -> [Departure] {
        try arrivals(to: stop.stopID, feed: stop.feedID, at: time, within: window, limit: limit)
    }

    /// `departures(from:at:within:limit:)` for a `Stop` value, off the caller's actor.
    public func departures(
        from stop: Stop, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.departures(from: stop.stopID, feed: stop.feedID, at: time, within: window, limit: limit) }
    }

    /// `arrivals(to:at:within:limit:)` for a `Stop` value, off the caller's actor.
    public func arrivals(
        to stop: Stop, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.arrivals(to: stop.stopID, feed: stop.feedID, at: time, within: window, limit: limit) }
    }
}
