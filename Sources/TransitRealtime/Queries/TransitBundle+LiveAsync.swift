import Foundation
import TransitRuntime

/// The live boards and journeys as `async` functions of the same names, for apps: each
/// runs on the concurrency pool, never on the caller's actor (inside a `@MainActor` task,
/// `try await bundle.departures(from:..., realtime:)` is this one, not the synchronous
/// twin), and gives the same answer. Cancelling the calling task stops a journey search
/// between its rounds with `CancellationError`; a board is checked before and after.
///
/// ```swift
/// let board = try await bundle.departures(from: "MONT", at: .instant(Date()), realtime: snapshot)
/// ```
extension TransitBundle {
    /// `departures(from:feed:at:within:limit:realtime:now:freshness:)` off the caller's actor.
    public func departures(
        from stop: String, feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20, realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> LiveBoard {
        try await offCaller {
            try self.departures(
                from: stop, feed: feed, at: time, within: window, limit: limit, realtime: realtime, now: now, freshness: freshness)
        }
    }

    /// `departures(from:feed:at:within:limit:realtime:now:freshness:)` for several stops, off the caller's actor.
    public func departures(
        from stops: [String], feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20, realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> LiveBoard {
        try await offCaller {
            try self.departures(
                from: stops, feed: feed, at: time, within: window, limit: limit, realtime: realtime, now: now, freshness: freshness)
        }
    }

    /// `arrivals(to:feed:at:within:limit:realtime:now:freshness:)` off the caller's actor.
    public func arrivals(
        to stop: String, feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20, realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> LiveBoard {
        try await offCaller {
            try self.arrivals(
                to: stop, feed: feed, at: time, within: window, limit: limit, realtime: realtime, now: now, freshness: freshness)
        }
    }

    /// `arrivals(to:feed:at:within:limit:realtime:now:freshness:)` for several stops, off the caller's actor.
    public func arrivals(
        to stops: [String], feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20, realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> LiveBoard {
        try await offCaller {
            try self.arrivals(
                to: stops, feed: feed, at: time, within: window, limit: limit, realtime: realtime, now: now, freshness: freshness)
        }
    }

    /// `journeys(from:to:departingAt:within:options:realtime:now:freshness:)` off the
    /// caller's actor; cancelling the caller stops the search.
    public func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, departingAt time: QueryTime = .instant(Date()),
        within window: TimeInterval = 0, options: JourneyOptions = JourneyOptions(), realtime: RealtimeSnapshot, now: Date = Date(),
        freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> [Journey] {
        try await offCaller {
            try self.journeys(
                from: origin, to: destination, departingAt: time, within: window, options: options, realtime: realtime, now: now,
                freshness: freshness)
        }
    }

    /// `journeys(from:to:arrivingBy:options:realtime:now:freshness:)` off the caller's
    /// actor; cancelling the caller stops the search.
    public func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, arrivingBy time: QueryTime, options: JourneyOptions = JourneyOptions(),
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> [Journey] {
        try await offCaller {
            try self.journeys(
                from: origin, to: destination, arrivingBy: time, options: options, realtime: realtime, now: now, freshness: freshness)
        }
    }
}
