import Foundation
import TransitRuntime

/// Live boards that take what the offline ones take: a `Stop` value or a `StopRef` (its
/// feed and id), besides the text ids of `departures(from:feed:at:within:limit:realtime:now:freshness:)`.
extension TransitBundle {
    /// The live departures from a `Stop` value.
    ///
    /// ```swift
    /// let stop = try bundle.stops(matching: "montgomery")[0]
    /// let board = try bundle.departures(from: stop, realtime: snapshot)
    /// ```
    public func departures(
        from stop: Stop, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20,
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> LiveBoard {
        try departures(
            from: [stop.stopID], feed: stop.feedID, at: time, within: window, limit: limit, realtime: realtime, now: now,
            freshness: freshness)
    }

    /// The live departures from the stop a `StopRef` names.
    public func departures(
        from ref: StopRef, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20,
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> LiveBoard {
        try departures(
            from: [ref.stopID], feed: ref.feedID, at: time, within: window, limit: limit, realtime: realtime, now: now,
            freshness: freshness)
    }

    /// The live arrivals at a `Stop` value.
    public func arrivals(
        to stop: Stop, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20,
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> LiveBoard {
        try arrivals(
            to: [stop.stopID], feed: stop.feedID, at: time, within: window, limit: limit, realtime: realtime, now: now,
            freshness: freshness)
    }

    /// The live arrivals at the stop a `StopRef` names.
    public func arrivals(
        to ref: StopRef, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20,
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> LiveBoard {
        try arrivals(
            to: [ref.stopID], feed: ref.feedID, at: time, within: window, limit: limit, realtime: realtime, now: now,
            freshness: freshness)
    }

    /// `departures(from:at:within:limit:realtime:now:freshness:)` for a `Stop`, off the caller's actor.
    public func departures(
        from stop: Stop, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20,
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> LiveBoard {
        try await departures(
            from: [stop.stopID], feed: stop.feedID, at: time, within: window, limit: limit, realtime: realtime, now: now,
            freshness: freshness)
    }

    /// `departures(from:at:within:limit:realtime:now:freshness:)` for a `StopRef`, off the caller's actor.
    public func departures(
        from ref: StopRef, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20,
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> LiveBoard {
        try await departures(
            from: [ref.stopID], feed: ref.feedID, at: time, within: window, limit: limit, realtime: realtime, now: now,
            freshness: freshness)
    }

    /// `arrivals(to:at:within:limit:realtime:now:freshness:)` for a `Stop`, off the caller's actor.
    public func arrivals(
        to stop: Stop, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20,
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> LiveBoard {
        try await arrivals(
            to: [stop.stopID], feed: stop.feedID, at: time, within: window, limit: limit, realtime: realtime, now: now,
            freshness: freshness)
    }

    /// `arrivals(to:at:within:limit:realtime:now:freshness:)` for a `StopRef`, off the caller's actor.
    public func arrivals(
        to ref: StopRef, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600, limit: Int = 20,
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) async throws -> LiveBoard {
        try await arrivals(
            to: [ref.stopID], feed: ref.feedID, at: time, within: window, limit: limit, realtime: realtime, now: now,
            freshness: freshness)
    }
}
