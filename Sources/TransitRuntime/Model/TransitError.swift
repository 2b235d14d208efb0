import Foundation

/// Everything that can go wrong when asking a bundle a question. Each case has a one-line
/// `description`, a stable `code` for programs, and (`LocalizedError`) text an app can show:
/// `errorDescription`, `failureReason` and `recoverySuggestion`.
///
/// ```swift
/// do { _ = try bundle.departures(from: "NOPE") }
/// catch let error as TransitError { print(error) }   // unknown stop "NOPE"
/// ```
public enum TransitError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
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
    /// The bundle's content is damaged (a row missing, a packed column that does not decode,
    /// SQLite finding the file corrupt): download it again.
    case corruptBundle(reason: String)
    /// SQLite failed for another reason (the disk, memory, a lock).
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
        case .corruptBundle: return "corrupt_bundle"
        case .sqlite: return "sqlite"
        case .patchRefused: return "patch_refused"
        }
    }

    /// What kind of failure it is, for programs that react by kind (the command line's exit
    /// status): something asked for is not there, the question is malformed, or the bundle
    /// cannot be read.
    public enum Kind: Sendable {
        case notFound, badInput, unreadableBundle, damagedBundle, failure
    }

    /// The error's kind, for the command line's exit status and an app's branches.
    public var kind: Kind {
        switch self {
        case .unknownStop, .unknownTrip, .unknownRoute, .unknownAgency, .unknownFeed, .unknownCity, .dateOutOfRange: return .notFound
        case .ambiguousStop, .ambiguousTrip, .ambiguousRoute, .badTime, .badArgument: return .badInput
        case .notABundle, .unsupportedSchemaVersion: return .unreadableBundle
        case .corruptBundle: return .damagedBundle
        case .sqlite, .patchRefused: return .failure
        }
    }

    public var description: String {
        switch self {
        case .unknownStop(let id): return "unknown stop \"\(id)\""
        case .ambiguousStop(let id, let feeds): return "stop \"\(id)\" is in several feeds (\(feeds.joined(separator: ", ")))"
        case .unknownTrip(let id): return "unknown trip \"\(id)\""
        case .ambiguousTrip(let id, let feeds): return "trip \"\(id)\" is in several feeds (\(feeds.joined(separator: ", ")))"
        case .unknownRoute(let id): return "unknown route \"\(id)\""
        case .unknownAgency(let id): return "unknown agency \"\(id)\""
        case .ambiguousRoute(let id, let feeds): return "route \"\(id)\" is in several feeds (\(feeds.joined(separator: ", ")))"
        case .unknownFeed(let id): return "unknown feed \"\(id)\""
        case .unknownCity(let id): return "unknown city \"\(id)\""
        case .dateOutOfRange(let date, let feed, let first, let last):
            return "\(date) is outside the service range of feed \(feed) (\(first) to \(last))"
        case .badTime(let text): return "bad time \"\(text)\": use YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] with an optional offset or Z"
        case .badArgument(let message): return message
        case .notABundle(let path, let reason): return "\(path) is not a transit bundle: \(reason)"
        case .unsupportedSchemaVersion(let found, let supported):
            return "bundle schema version \(found) is not the one this runtime reads (\(supported)); update TransitRuntime or the bundle"
        case .corruptBundle(let reason): return "the bundle is damaged: \(reason)"
        case .sqlite(let code, let message): return "SQLite error \(code): \(message)"
        case .patchRefused(let reason): return "patch refused: \(reason)"
        }
    }

    /// A sentence an app can show as an alert's title.
    public var errorDescription: String? {
        switch kind {
        case .notFound:
            if case .dateOutOfRange = self { return "There is no timetable for that date." }
            return "That could not be found in the timetable."
        case .badInput: return "The question could not be understood."
        case .unreadableBundle: return "This timetable cannot be opened."
        case .damagedBundle: return "This timetable is damaged."
        case .failure: return "The timetable could not be read."
        }
    }

    /// What went wrong, in a sentence (the same facts as `description`).
    public var failureReason: String? { description.prefix(1).uppercased() + description.dropFirst() + "." }

    /// What the user or the app can do about it.
    public var recoverySuggestion: String? {
        switch self {
        case .ambiguousStop, .ambiguousTrip, .ambiguousRoute: return "Name the feed as well."
        case .dateOutOfRange: return "Choose a date the timetable covers, or download a newer version of it."
        case .notABundle, .unsupportedSchemaVersion, .corruptBundle: return "Download the city's timetable again."
        case .patchRefused: return "Download the whole timetable instead."
        case .sqlite: return "Try again; if it keeps failing, free some storage or download the timetable again."
        default: return nil
        }
    }
}
