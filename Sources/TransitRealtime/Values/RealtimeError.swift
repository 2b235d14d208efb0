import Foundation

/// Why a GTFS-Realtime message was refused as a whole. (Entities that do not fit the
/// timetable are not errors: `RealtimeReport` counts and explains them.)
///
/// ```swift
/// do { _ = try RealtimeMessage(data: bytes) } catch let error as RealtimeError { print(error.localizedDescription) }
/// ```
public enum RealtimeError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The bytes are not a GTFS-Realtime `FeedMessage` (not protobuf, truncated, wrong schema).
    case notAMessage(String)
    /// `incrementality` DIFFERENTIAL: the specification leaves its meaning open.
    case differential
    /// Larger than `RealtimeMessage.maximumBytes`.
    case tooLarge(bytes: Int, limit: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notAMessage(let reason): return "not a GTFS-Realtime message: \(reason)"
        case .differential: return "a DIFFERENTIAL message: only FULL_DATASET messages are applied"
        case .tooLarge(let bytes, let limit): return "the message has \(bytes) bytes, more than the limit of \(limit)"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .notAMessage, .tooLarge, .unreadable: return "Live times could not be read."
        case .differential: return "These live times come in a form that is not supported."
        }
    }

    public var failureReason: String? { description }

    public var recoverySuggestion: String? { "The timetable is shown without live times." }
}
