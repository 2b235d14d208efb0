import ArgumentParser
import BundleFormat
import Foundation
import TransitRealtime
import TransitRuntime

/// `transit-query`: the root command and its subcommands (docs/transit-query.md). The
/// executable runs it; `transit-server` parses its subcommands' options from a request.
public struct TransitQueryCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "transit-query",
        abstract: "Ask a transit bundle about departures, stops, trips and cities, offline.",
        version: TransitBundle.runtimeVersion,
        subcommands: [
            DeparturesCommand.self, ArrivalsCommand.self, StopsCommand.self, TripCommand.self, ShapeCommand.self, AgenciesCommand.self,
            RoutesCommand.self,
            RouteCommand.self, NearestCommand.self, TransfersCommand.self, InfoCommand.self,
            CityCommand.self, CitiesCommand.self, PlanCommand.self, FareCommand.self, RealtimeCommand.self, BatchCommand.self,
        ])

    /// The command as ArgumentParser builds it.
    public init() {}

    /// Parses the process's arguments and runs the subcommand. A usage error (an unknown
    /// option, a bad value) is reported by ArgumentParser on stderr with exit 64 and, with
    /// `--json`, also as the JSON error on stdout, as every other error is.
    public static func runFromCommandLine() -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            exit()
        } catch {
            if arguments.contains("--json"), let failure = CommandFailure.usage(error) { output(JSONOutput.text(failure.output)) }
            exit(withError: error)
        }
    }
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
        _ = try language()
        return try TransitBundle(path: path, language: lang)
    }

    /// `--lang` as its canonical tag, nil without it.
    /// - Throws: `TransitError.badArgument` for text that is not a language tag.
    func language() throws -> String? {
        guard let lang else { return nil }
        guard let tag = LanguageTag.canonical(lang) else {
            throw TransitError.badArgument("--lang \(lang) is not a language tag (fr, de-CH, pt-BR)")
        }
        return tag
    }
}

/// Runs a command body; a `TransitError` or an invalid query becomes one line on stderr (and,
/// with `json`, `{"error":{"code":...,"message":...}}` on stdout) and its exit status.
func reportingErrors(json: Bool = false, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        guard let failure = CommandFailure(error) else { throw error }
        FileHandle.standardError.write(Data(("transit-query: " + failure.text + "\n").utf8))
        if json { output(JSONOutput.text(failure.output)) }
        throw ExitCode(failure.exitStatus)
    }
}

func output(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
