import ArgumentParser
import Foundation
import TransitStore

@main
struct TransitStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transit-store",
        abstract: "Download, verify, update and evict city bundles in an offline store.",
        discussion: """
            Exit status: 0 done; 1 a download, verification or install failed; 2 refused by the \
            storage budget; 3 unknown bundle or no manifest yet; 4 the manifest is unreadable; \
            5 the store's folder or state file cannot be used; 64 bad arguments.
            """,
        subcommands: [
            ManifestCommand.self, ListCommand.self, DownloadCommand.self, UpdateCommand.self, ResumeCommand.self,
            RemoveCommand.self, StatusCommand.self, PrefsCommand.self, OpenCommand.self,
        ])

    /// Accepts the store's folder before the subcommand (`transit-store --dir DIR status`), as
    /// the usage shows it; the parser reads a subcommand's options after its name.
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--dir", arguments.count >= 3 {
            arguments.insert(contentsOf: arguments[0...1], at: 3)
            arguments.removeFirst(2)
        } else if let first = arguments.first, first.hasPrefix("--dir="), arguments.count >= 2 {
            arguments.insert(first, at: 2)
            arguments.removeFirst()
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Options every subcommand shares.
struct StoreOptions: ParsableArguments {
    @Option(help: "The store's folder (created when missing).")
    var dir: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: "Seconds without a byte before a request is retried.")
    var timeout: Double = 30

    @Option(help: "Retries of a transient failure (connection lost, 5xx, time-out).")
    var retries: Int = 5

    @Option(help: "Seconds before the first retry (doubling each time).")
    var retryPause: Double = 0.5

    func open() throws -> BundleStore {
        try BundleStore(
            directory: dir, transport: SocketHTTPTransport(timeout: timeout),
            retries: RetryPolicy(limit: retries, firstPause: retryPause))
    }
}

/// Exit statuses, as the command's help lists them.
func exitCode(for error: StoreError) -> Int32 {
    switch error {
    case .transfer, .hashMismatch, .install: return 1
    case .overBudget: return 2
    case .unknownBundle, .noCatalogue: return 3
    case .badManifest: return 4
    case .storage: return 5
    }
}

/// Runs a command body; a `StoreError` becomes one line on stderr (or a JSON object on
/// stdout with --json) and its exit status.
func reportingErrors(json: Bool, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as StoreError {
        fail(error, json: json)
        throw ExitCode(exitCode(for: error))
    }
}

func fail(_ error: StoreError, json: Bool) {
    FileHandle.standardError.write(Data("transit-store: \(error)\n".utf8))
    if json { printJSON(["error": ["code": error.code, "message": error.description]]) }
}

func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func printJSON(_ value: Any) {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else { return }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}
