/// Everything that can go wrong when asking a bundle a question.
///
/// ```swift
/// do { _ = try bundle.departures(stop: "NOPE") }
/// catch let error as TransitError { print(error) }   // unknown stop "NOPE"
/// ```
public enum TransitError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownStop(String)
    /// The stop id exists in several feeds; pass one of them.
    case ambiguousStop(String, feeds: [String])
    case unknownTrip(String)
    case ambiguousTrip(String, feeds: [String])
    case unknownRoute(String)
    case unknownAgency(String)
    case ambiguousRoute(String, feeds: [String])
    case unknownFeed(String)
    case unknownCity(String)
    /// The date (YYYY-MM-DD) lies outside the feed's service range.
    case dateOutOfRange(String, feed: String, first: String, last: String)
    case badTime(String)
    case badArgument(String)
    /// The file is not a transit bundle (not SQLite, empty, truncated, or missing a table).
    case notABundle(path: String, reason: String)
    case unsupportedSchemaVersion(found: Int, supported: Int)
    case sqlite(code: Int32, message: String)
    /// A patch was not applied (damaged, for another bundle, or its result did not match);
    /// the bundle it was given is untouched.
    case patchRefused(String)

    /// A short stable code for programs (used in batch output).
    public var code: String {
        switch self {
        case .unknownStop: return "unknown_stop"
        case .ambiguousStop: return "ambiguous_stop"
        case .unknownTrip: return "unknown_trip"
        case .ambiguousTrip: return "ambiguous_trip"
        case .unknownRoute: return "unknown_route"
        case .unknownAgency: return "unknown_agency"
        case .ambiguousRoute: return "ambiguous_route"
        case .unknownFeed: return "unknown_feed"
        case .unknownCity: return "unknown_city"
        case .dateOutOfRange: return "date_out_of_range"
        case .badTime: return "bad_time"
        case .badArgument: return "bad_argument"
        case .notABundle: return "not_a_bundle"
        case .unsupportedSchemaVersion: return "unsupported_schema"
        case .sqlite: return "sqlite"
        case .patchRefused: return "patch_refused"
        }
    }

    public var description: String {
        switch self {
        case .unknownStop(let id): return "unknown stop \"\(id)\""
        case .ambiguousStop(let id, let feeds):
            return "stop \"\(id)\" is in several feeds (\(feeds.joined(separator: ", "))); choose one with --feed"
        case .unknownTrip(let id): return "unknown trip \"\(id)\""
        case .ambiguousTrip(let id, let feeds):
            return "trip \"\(id)\" is in several feeds (\(feeds.joined(separator: ", "))); choose one with --feed"
        case .unknownRoute(let id): return "unknown route \"\(id)\""
        case .unknownAgency(let id): return "unknown agency \"\(id)\""
        case .ambiguousRoute(let id, let feeds):
            return "route \"\(id)\" is in several feeds (\(feeds.joined(separator: ", "))); choose one with --feed"
        case .unknownFeed(let id): return "unknown feed \"\(id)\""
        case .unknownCity(let id): return "unknown city \"\(id)\""
        case .dateOutOfRange(let date, let feed, let first, let last):
            return "\(date) is outside the service range of feed \(feed) (\(first) to \(last))"
        case .badTime(let text): return "bad time \"\(text)\": use YYYY-MM-DDTHH:MM[:SS] with an optional offset or Z"
        case .badArgument(let message): return message
        case .notABundle(let path, let reason): return "\(path) is not a transit bundle: \(reason)"
        case .unsupportedSchemaVersion(let found, let supported):
            return "bundle schema version \(found) is newer than this runtime supports (\(supported)); update TransitRuntime"
        case .sqlite(let code, let message): return "SQLite error \(code): \(message)"
        case .patchRefused(let reason): return "patch refused: \(reason)"
        }
    }
}
