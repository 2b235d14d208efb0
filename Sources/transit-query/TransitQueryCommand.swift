import ArgumentParser
import BundleFormat
import Foundation
import TransitRealtime
import TransitRuntime

@main
struct TransitQueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-query",
        abstract: "Ask a transit bundle about departures, stops, trips and cities, offline.",
        version: TransitBundle.runtimeVersion,
        subcommands: [
            DeparturesCommand.self, ArrivalsCommand.self, StopsCommand.self, TripCommand.self, ShapeCommand.self, AgenciesCommand.self,
            RoutesCommand.self,
            RouteCommand.self, NearestCommand.self, TransfersCommand.self, InfoCommand.self,
            CityCommand.self, CitiesCommand.self, PlanCommand.self, FareCommand.self, RealtimeCommand.self, BatchCommand.self,
        ])
}

/// Options every subcommand shares.
struct BundleOptions: ParsableArguments {
    @Option(help: "The bundle to read (default: $TRANSIT_BUNDLE).")
    var bundle: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Names in this language where the feed translates them (a BCP 47 tag: fr, de-CH).")
    var lang: String?

    func open() throws -> TransitBundle {
        guard let path = bundle ?? ProcessInfo.processInfo.environment["TRANSIT_BUNDLE"], !path.isEmpty else {
            throw TransitError.badArgument("no bundle: pass --bundle or set TRANSIT_BUNDLE")
        }
        if let lang, LanguageTag.canonical(lang) == nil {
            throw TransitError.badArgument("--lang \(lang) is not a language tag (fr, de-CH, pt-BR)")
        }
        return try TransitBundle(path: path, language: lang)
    }
}

extension BundleOptions {
    /// Decodes the subcommand's query, answers it from the bundle, prints JSON or text.
    func ask(_ query: () throws -> Query) throws {
        try reportingErrors(json: json) {
            let question = try query()
            let answer = try question.answer(from: try open())
            output(json ? try answer.json : answer.text)
        }
    }
}

/// Exit statuses by kind of error (docs/transit-query.md): 1 not found (an unknown id, a
/// date outside the timetable), 64 bad input (usage, a malformed time, an ambiguous id), 65
/// a damaged bundle, 66 a file that is not a bundle (or of another schema), 74 another
/// failure (SQLite, a refused patch).
enum ExitStatus {
    static func of(_ error: TransitError) -> Int32 {
        switch error.kind {
        case .notFound: return 1
        case .badInput: return 64
        case .damagedBundle: return 65
        case .unreadableBundle: return 66
        case .failure: return 74
        }
    }
}

/// Runs a command body; a `TransitError` or an invalid query becomes one line on stderr (and,
/// with `json`, `{"error":{"code":...,"message":...}}` on stdout) and its exit status.
func reportingErrors(json: Bool = false, _ body: () throws -> Void) throws {
    func report(_ text: String, code: String, message: String, status: Int32) -> ExitCode {
        FileHandle.standardError.write(Data(("transit-query: " + text + "\n").utf8))
        if json {
            output(JSONOutput.text(ErrorOutput(code: code, message: message)))
        }
        return ExitCode(status)
    }
    do {
        try body()
    } catch let error as TransitError {
        var text = "\(error)"
        switch error {
        case .ambiguousStop, .ambiguousTrip, .ambiguousRoute: text += "; choose one with --feed"
        default: break
        }
        if case .unknownTrip = error {
            // A trip the feed lists but the compiler dropped (its stop_times could not be
            // repaired, or it names an unknown route or service) is not in the bundle.
            text +=
                "; not in this bundle: if the feed lists it, the compiler dropped it, and gtfs-compile --report names it with the reason (W_FEW_STOPS, W_TIME_BACKWARDS, W_UNKNOWN_REF, ...)"
        }
        throw report(text, code: error.code, message: error.description, status: ExitStatus.of(error))
    } catch let error as Query.Invalid {
        throw report(error.description, code: "bad_query", message: error.description, status: 64)
    } catch let error as RealtimeError {
        if case .unreadable = error { throw report(error.description, code: "unreadable_realtime", message: error.description, status: 66) }
        throw report(error.description, code: "bad_realtime", message: error.description, status: 64)
    }
}

func output(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
