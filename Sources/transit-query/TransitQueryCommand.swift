import ArgumentParser
import Foundation
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
            CityCommand.self, CitiesCommand.self, BatchCommand.self,
        ])
}

/// Options every subcommand shares.
struct BundleOptions: ParsableArguments {
    @Option(help: "The bundle to read (default: $TRANSIT_BUNDLE).")
    var bundle: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func open() throws -> TransitBundle {
        guard let path = bundle ?? ProcessInfo.processInfo.environment["TRANSIT_BUNDLE"], !path.isEmpty else {
            throw TransitError.badArgument("no bundle: pass --bundle or set TRANSIT_BUNDLE")
        }
        return try TransitBundle(path: path)
    }
}

extension BundleOptions {
    /// Decodes the subcommand's query, answers it from the bundle, prints JSON or text.
    func ask(_ query: () throws -> Query) throws {
        try reportingErrors {
            let question = try query()
            let answer = try question.answer(from: try open())
            output(json ? answer.json : answer.text)
        }
    }
}

/// Runs a command body; a `TransitError` or an invalid query becomes one line on stderr and
/// exit status 1.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as TransitError {
        var text = "transit-query: \(error)"
        if case .unknownTrip = error {
            // A trip the feed lists but the compiler dropped (its stop_times could not be
            // repaired, or it names an unknown route or service) is not in the bundle.
            text +=
                "; not in this bundle: if the feed lists it, the compiler dropped it, and gtfs-compile --report names it with the reason (W_FEW_STOPS, W_TIME_BACKWARDS, W_UNKNOWN_REF, ...)"
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
        throw ExitCode(1)
    } catch let error as Query.Invalid {
        FileHandle.standardError.write(Data("transit-query: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

func output(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
