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

/// The queries for a `StopRef` (a stop named with its feed).
extension TransitBundle {
    /// The stop `ref` names, as `stop(_:feed:)`.
    public func stop(_ ref: StopRef) throws -> Stop { try stop(ref.stopID, feed: ref.feedID) }

    /// Departures from the stop `ref` names, as `departures(from:feed:at:within:limit:)`.
    public func departures(
        from ref: StopRef, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) throws -> [Departure] {
        try departures(from: ref.stopID, feed: ref.feedID, at: time, within: window, limit: limit)
    }

    /// Departures from several stops, each with its feed (a corner served by two feeds),
    /// merged by time as `departures(from:feed:at:within:limit:)` merges one feed's.
    public func departures(
        from refs: [StopRef], at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) throws -> [Departure] {
        try departures(from: refs.map(\.description), at: time, within: window, limit: limit)
    }

    /// Arrivals at the stop `ref` names, as `arrivals(to:feed:at:within:limit:)`.
    public func arrivals(
        to ref: StopRef, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) throws -> [Departure] {
        try arrivals(to: ref.stopID, feed: ref.feedID, at: time, within: window, limit: limit)
    }

    /// `stop(_:)` for a reference, off the caller's actor.
    public func stop(_ ref: StopRef) async throws -> Stop { try await offCaller { try self.stop(ref) } }

    /// `departures(from:at:within:limit:)` for a reference, off the caller's actor.
    public func departures(
        from ref: StopRef, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.departures(from: ref, at: time, within: window, limit: limit) }
    }

    /// `departures(from:at:within:limit:)` for several references, off the caller's actor.
    public func departures(
        from refs: [StopRef], at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.departures(from: refs, at: time, within: window, limit: limit) }
    }

    /// `arrivals(to:at:within:limit:)` for a reference, off the caller's actor.
    public func arrivals(
        to ref: StopRef, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20
    ) async throws -> [Departure] {
        try await offCaller { try self.arrivals(to: ref, at: time, within: window, limit: limit) }
    }
}
