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
            5 the store's folder or state file cannot be used; 6 no space left on the device; \
            7 the manifest is not signed by a trusted key (or was changed); 8 the manifest is older \
            than the last good one, or expired; 9 offline (no route, no name resolution, connection \
            refused); 10 the sync server does not take the token; 11 it refused the request; 12 it \
            failed (5xx); 13 a change that breaks the rules (a text too long, an unknown note); 64 \
            bad arguments.
            """,
        subcommands: [
            ManifestCommand.self, ListCommand.self, DownloadCommand.self, UpdateCommand.self, ResumeCommand.self,
            RemoveCommand.self, StatusCommand.self, PrefsCommand.self, OpenCommand.self, SaveCommand.self, UnsaveCommand.self,
            SavedCommand.self, NoteCommand.self, PendingCommand.self, SyncCommand.self, RetryCommand.self, JobsCommand.self,
            PhotosCommand.self, PruneCommand.self, ClearAllCommand.self, ViewedCommand.self, DownloadAllCommand.self,
        ])

    static var subcommandNames: Set<String> {
        Set(configuration.subcommands.compactMap { $0.configuration.commandName })
    }

    /// Accepts the shared options before the subcommand as well as after it
    /// (`transit-store --dir DIR --json status`); the parser reads a subcommand's options after
    /// its name, so those before it are moved there.
    static func main() async {
        let arguments = StoreOptions.movingSharedOptions(Array(CommandLine.arguments.dropFirst()), subcommands: subcommandNames)
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
    /// The shared options that take a value (the others are flags).
    static let valued: Set<String> = [
        "--dir", "--timeout", "--retries", "--retry-pause", "--ca-file", "--trusted-key", "--now", "--device-name",
    ]

    /// Moves the options written before the subcommand's name to just after it.
    static func movingSharedOptions(_ arguments: [String], subcommands: Set<String>) -> [String] {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if subcommands.contains(argument) {
                guard index > 0 else { return arguments }
                // `note add|edit|rm|list`: the options go after the nested subcommand's name.
                let names = argument == "note" && index + 1 < arguments.count ? 2 : 1
                return Array(arguments[index..<(index + names)]) + arguments[..<index] + arguments[(index + names)...]
            }
            guard argument.hasPrefix("-") else { return arguments }
            index += valued.contains(argument) ? 2 : 1
        }
        return arguments
    }

    @Option(help: "The store's folder (created when missing).")
    var dir: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: "Seconds without a byte (or to connect) before a request fails and is retried; manifest and files alike.")
    var timeout: Double = 30

    @Option(help: "Retries of a transient failure (connection lost, 5xx, time-out).")
    var retries: Int = 5

    @Option(help: "Seconds before the first retry (doubling each time).")
    var retryPause: Double = 0.5

    @Option(help: ArgumentHelp("A PEM certificate to trust besides the system's (a private CA); repeatable.", valueName: "FILE"))
    var caFile: [String] = []

    @Option(
        help: ArgumentHelp(
            "A public key (gtfs-compile keygen's KEY.pub) whose signature a manifest must carry; repeatable (key rotation).",
            valueName: "FILE"))
    var trustedKey: [String] = []

    @Option(
        help:
            "The clock: an ISO 8601 instant (2026-06-01T08:30:00Z) for access times, pruning, job history and expiry; default the real one."
    )
    var now: String?

    /// The clock `--now` gives, the system's without it.
    func clock() throws -> @Sendable () -> Date {
        guard let now else { return { Date() } }
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: now) ?? fractional.date(from: now) else {
            throw ValidationError("--now \(now): give an ISO 8601 instant such as 2026-06-01T08:30:00Z")
        }
        return { date }
    }

    func validate() throws {
        _ = try clock()
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
        guard retries >= 0 else { throw ValidationError("--retries must not be negative") }
        guard retryPause >= 0 else { throw ValidationError("--retry-pause must not be negative") }
    }

    func open() throws -> BundleStore {
        let keys = try trustedKey.map { path -> ManifestPublicKey in
            do { return try ManifestPublicKey(contentsOf: path) } catch { throw ValidationError("--trusted-key \(path): \(error)") }
        }
        return try BundleStore(
            directory: dir, transport: BundleStore.defaultTransport(timeout: timeout, trustedCertificates: caFile),
            retries: RetryPolicy(limit: retries, firstPause: retryPause), trustedKeys: keys, clock: try clock())
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
    case .noSpace: return 6
    case .untrustedManifest: return 7
    case .staleManifest: return 8
    case .offline: return 9
    case .badPreference: return 64
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
    // The library's text says what to do in an app's words; here, the command that does it.
    let hint = error == .noCatalogue ? " (transit-store manifest URL)" : ""
    FileHandle.standardError.write(Data("transit-store: \(error)\(hint)\n".utf8))
    if json { printJSON(["error": JobOutcome.Failure(code: error.code, message: error.description)]) }
}

func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// `value`'s `Codable` encoding, pretty-printed with sorted keys and ISO 8601 dates.
func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode(value) else { return }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}
