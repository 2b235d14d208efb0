import Foundation

/// A board with live data: the calls, and whether the snapshot was applied (when it was
/// not, `notAppliedReason` says why, for a program, `notApplied` in words, and the calls
/// are the timetable's).
///
/// ```swift
/// if case .stale(let age)? = board.notAppliedReason { banner.text = "Live times are \(Int(age / 60)) min old" }
/// ```
/// `Codable` (a widget's cache): `departures`, `realtime_applied` and `not_applied`
/// (`{"reason": "stale", "age": 412, "allowed": 300, "now": "2026-..."}` or
/// `{"reason": "no_trip_updates"}`).
public struct LiveBoard: Sendable, Hashable, Codable {
    /// Why a snapshot's trip updates were not applied to a board.
    /// An `Error` with `LocalizedError` text, so an app can show it like any other failure.
    public enum NotApplied: Error, Sendable, Hashable, CustomStringConvertible, Codable, LocalizedError {
        /// The trip updates are `age` seconds old at `now`, more than the freshness allowed.
        case stale(age: TimeInterval, allowed: TimeInterval, now: Date)
        /// The snapshot holds no trip updates (only vehicles or alerts, or nothing).
        case noTripUpdates

        public var description: String {
            switch self {
            case .stale(let age, let allowed, let now):
                return "the trip updates are \(Int(age)) s old at \(now.formatted(.iso8601)), more than \(Int(allowed)) s"
            case .noTripUpdates: return "the snapshot has no trip updates"
            }
        }

        /// What a board's banner says (English).
        public var errorDescription: String? {
            switch self {
            case .stale(let age, _, _): return "Live times are \(Int(age / 60)) min old: showing the timetable."
            case .noTripUpdates: return "No live times for this stop: showing the timetable."
            }
        }

        /// What the rider can do.
        public var recoverySuggestion: String? {
            switch self {
            case .stale: return "Check the connection; live times come back with the next update."
            case .noTripUpdates: return nil
            }
        }
    }

    /// The calls, with their live state, in time order.
    public var departures: [LiveDeparture]
    /// Whether the snapshot's trip updates were applied (false: the calls are the timetable's).
    public var realtimeApplied: Bool
    /// Why the trip updates were not applied, nil when they were.
    public var notAppliedReason: NotApplied?
    /// `notAppliedReason` in words (English, for logs and the command line).
    public var notApplied: String? { notAppliedReason?.description }

    /// A board built by hand (previews, tests, a widget's cache).
    public init(departures: [LiveDeparture], realtimeApplied: Bool, notAppliedReason: NotApplied? = nil) {
        self.departures = departures
        self.realtimeApplied = realtimeApplied
        self.notAppliedReason = notAppliedReason
    }
}

extension LiveBoard {
    private enum CodingKeys: String, CodingKey {
        case departures
        case realtimeApplied = "realtime_applied"
        case notAppliedReason = "not_applied"
    }
}

extension LiveBoard.NotApplied {
    private enum CodingKeys: String, CodingKey {
        case reason, age, allowed, now
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .reason) {
        case "stale":
            let now = try c.decodeInstant(forKey: .now)
            self = .stale(age: try c.decode(Double.self, forKey: .age), allowed: try c.decode(Double.self, forKey: .allowed), now: now)
        case "no_trip_updates":
            self = .noTripUpdates
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .reason, in: c, debugDescription: "unknown reason \(other)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .stale(let age, let allowed, let now):
            try c.encode("stale", forKey: .reason)
            try c.encode(age, forKey: .age)
            try c.encode(allowed, forKey: .allowed)
            try c.encodeInstantIfPresent(now, forKey: .now)
        case .noTripUpdates:
            try c.encode("no_trip_updates", forKey: .reason)
        }
    }
}
