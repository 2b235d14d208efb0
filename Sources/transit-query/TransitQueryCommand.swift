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
            DeparturesCommand.self, StopsCommand.self, TripCommand.self, InfoCommand.self,
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
        FileHandle.standardError.write(Data("transit-query: \(error)\n".utf8))
        throw ExitCode(1)
    } catch let error as Query.Invalid {
        FileHandle.standardError.write(Data("transit-query: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

func output(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
