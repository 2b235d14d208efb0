import ArgumentParser
import Foundation
import TransitRealtime
import TransitRuntime

/// An error a command reports: its JSON code and message (`{"error":{...}}`), the line the
/// command line writes to stderr, and its kind, which gives the exit status and the server's
/// HTTP status. One reading of each error for both.
public struct CommandFailure: Error, Sendable {
    /// What kind of failure: the exit status and the HTTP status follow from it.
    public enum Kind: Sendable {
        /// An unknown id, a date outside the timetable: exit 1, HTTP 404.
        case notFound
        /// A malformed option or value: exit 64, HTTP 400.
        case badInput
        /// A bundle that is damaged: exit 65, HTTP 503.
        case damagedBundle
        /// A file that is not a bundle of this schema: exit 66, HTTP 503.
        case unreadableBundle
        /// Anything else (SQLite, a refused patch): exit 74, HTTP 500.
        case failure
    }

    /// The JSON error code (`unknown_stop`, `bad_query`, ...).
    public var code: String
    /// The message for a person.
    public var message: String
    /// The command line's stderr line (the message with a hint where one helps).
    public var text: String
    /// The kind.
    public var kind: Kind

    /// A failure of this kind with a code and message (the text is the message).
    ///
    /// ```swift
    /// let failure = CommandFailure(code: "bad_query", message: "no such option", kind: .badInput)
    /// ```
    public init(code: String, message: String, kind: Kind) {
        self.code = code
        self.message = message
        self.text = message
        self.kind = kind
    }

    /// The failure an error of the runtime, a query or a realtime message is; nil for any
    /// other error.
    public init?(_ error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as TransitError:
            self.init(code: error.code, message: error.description, kind: Self.kind(of: error))
            switch error {
            case .ambiguousStop, .ambiguousTrip, .ambiguousRoute: text += "; choose one with --feed"
            case .unknownTrip:
                // A trip the feed lists but the compiler dropped (its stop_times could not be
                // repaired, or it names an unknown route or service) is not in the bundle.
                text +=
                    "; not in this bundle: if the feed lists it, the compiler dropped it, and gtfs-compile --report names it with the reason (W_FEW_STOPS, W_TIME_BACKWARDS, W_UNKNOWN_REF, ...)"
            default: break
            }
        case let error as Query.Invalid:
            self.init(code: "bad_query", message: error.description, kind: .badInput)
        case let error as RealtimeError:
            if case .unreadable = error {
                self.init(code: "unreadable_realtime", message: error.description, kind: .unreadableBundle)
            } else {
                self.init(code: "bad_realtime", message: error.description, kind: .badInput)
            }
        default:
            return nil
        }
    }

    private static func kind(of error: TransitError) -> Kind {
        switch error.kind {
        case .notFound: return .notFound
        case .badInput: return .badInput
        case .damagedBundle: return .damagedBundle
        case .unreadableBundle: return .unreadableBundle
        case .failure: return .failure
        }
    }

    /// Exit statuses by kind (docs/transit-query.md): 1 not found (an unknown id, a date
    /// outside the timetable), 64 bad input (usage, a malformed time, an ambiguous id), 65 a
    /// damaged bundle, 66 a file that is not a bundle (or of another schema), 74 another
    /// failure (SQLite, a refused patch).
    public var exitStatus: Int32 {
        switch kind {
        case .notFound: return 1
        case .badInput: return 64
        case .damagedBundle: return 65
        case .unreadableBundle: return 66
        case .failure: return 74
        }
    }

    /// A usage error of ArgumentParser's (an unknown option, a missing or bad value, a
    /// failed check) as a failure, code `bad_option`, with ArgumentParser's message; nil for
    /// any other error.
    static func usage(_ error: any Error) -> CommandFailure? {
        guard !(error is ExitCode), TransitQueryCommand.exitCode(for: error) == .validationFailure else { return nil }
        let text = TransitQueryCommand.message(for: error)
        var line = text.split(separator: "\n").first.map(String.init) ?? text
        if line.hasPrefix("Error: ") { line.removeFirst(7) }
        return CommandFailure(code: "bad_option", message: line, kind: .badInput)
    }

    /// `{"error":{"code":...,"message":...}}`.
    public var json: [UInt8] { JSONOutput.encoded(output) }

    var output: ErrorOutput { ErrorOutput(code: code, message: message) }
}
