import Foundation
import TransitRealtime
import TransitRuntime

/// The departures an app shows, online first: asked of the server (live data included) with
/// a short time-out, and answered from the installed bundle when the server cannot be
/// reached; the answer says which one it came from. The server's refusal (an unknown stop,
/// bad input) is passed on, not hidden by a fallback: the bundle would refuse the same.
///
/// ```swift
/// let source = OnlineFirstDepartures(client: TransitClient(server: url, bundle: "zurich", timeout: 1.5), bundle: bundle)
/// let board = try await source.departures(from: stop)
/// if board.source != .server { banner.text = "Offline: timetable only" }
/// ```
public struct OnlineFirstDepartures: Sendable {
    /// Where a board came from.
    public enum Source: Sendable, Equatable {
        /// The server answered.
        case server
        /// The server could not be reached (the reason); the installed bundle answered.
        case bundle(reason: String)
    }

    /// A board and its source.
    public struct Board: Sendable {
        /// The calls; from the bundle they carry no live data (state `.scheduled`).
        public var departures: [LiveDeparture]
        public var source: Source
        /// The server's bundle version, when the server answered.
        public var contentHash: String?
    }

    public let client: TransitClient
    public let bundle: TransitBundle

    /// A source asking `client` first and `bundle` when the server cannot be reached.
    public init(client: TransitClient, bundle: TransitBundle) {
        self.client = client
        self.bundle = bundle
    }

    /// The board at the stops (ids, with their feed when several feeds have them).
    /// - Throws: `TransitClientError.refused` as the server answered; the bundle's
    ///   `TransitError` when it answered instead and refused.
    public func departures(
        from stops: [String], feed: String? = nil, at time: QueryTime? = nil, within window: TimeInterval = 3600, limit: Int = 20
    ) async throws -> Board {
        do {
            let board = try await client.departures(from: stops, feed: feed, at: time, within: window, limit: limit)
            return Board(departures: board.departures, source: .server, contentHash: board.contentHash)
        } catch TransitClientError.unreachable(let reason) {
            let calls = try await bundle.departures(from: stops, feed: feed, at: time ?? .instant(Date()), within: window, limit: limit)
            return Board(departures: calls.map { LiveDeparture(scheduled: $0) }, source: .bundle(reason: reason), contentHash: nil)
        }
    }

    /// The board at a stop value.
    public func departures(from stop: Stop, at time: QueryTime? = nil, within window: TimeInterval = 3600, limit: Int = 20)
        async throws -> Board
    {
        try await departures(from: [stop.stopID], feed: stop.feedID, at: time, within: window, limit: limit)
    }

    /// The board at a stop reference.
    public func departures(from stop: StopRef, at time: QueryTime? = nil, within window: TimeInterval = 3600, limit: Int = 20)
        async throws -> Board
    {
        try await departures(from: [stop.stopID], feed: stop.feedID, at: time, within: window, limit: limit)
    }
}
