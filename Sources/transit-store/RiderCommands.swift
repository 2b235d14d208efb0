import ArgumentParser
import Foundation
import SyncFormat
import TransitStore
import TransitSync

/// Options of the rider's-data commands: the device's clock, and how it names itself.
struct RiderOptions: ParsableArguments {
    @Option(help: "How this device is listed in the rider's devices.")
    var deviceName = "transit-store"

    func open(_ store: StoreOptions) async throws -> RiderData { try await openWithStore(store).rider }

    /// The rider's data and the store it queues saved cities in (one store opened).
    func openWithStore(_ store: StoreOptions) async throws -> (rider: RiderData, store: BundleStore) {
        let bundles = try store.open()
        let rider = try RiderData(
            directory: store.dir, store: bundles, name: deviceName, type: "cli", appVersion: TransitStoreCommand.configuration.version,
            clock: try store.clock())
        return (rider, bundles)
    }
}

/// Exit statuses of the rider's-data commands (besides the store's): the command's help lists them.
func exitCode(for error: SyncError) -> Int32 {
    switch error {
    case .offline, .unreachable: 9
    case .storage: 5
    case .unauthorised: 10
    case .refused: 11
    case .server: 12
    case .invalid, .notConnected: 13
    }
}

/// Runs a rider's-data command: a `SyncError` is one line on stderr (a JSON object on stdout
/// with --json) and its exit status; a `StoreError` as the store's commands report it.
func reportingSyncErrors(json: Bool, _ body: () async throws -> Void) async throws {
    try await reportingErrors(json: json) {
        do {
            try await body()
        } catch let error as SyncError {
            FileHandle.standardError.write(Data("transit-store: \(error)\n".utf8))
            if json { printJSON(["error": ["code": "\(exitCode(for: error))", "message": error.description]]) }
            throw ExitCode(exitCode(for: error))
        }
    }
}

/// `KIND ID` arguments naming a city, a stop or a route.
struct TargetArguments: ParsableArguments {
    @Argument(help: "city, stop or route.")
    var kind: String

    @Argument(help: "Its id (a catalogue id, a stop reference).")
    var id: String

    func validate() throws { _ = try target() }

    func target() throws -> SyncTarget {
        guard let kind = SyncTarget.Kind(rawValue: kind) else { throw ValidationError("\(kind): give city, stop or route") }
        if let problem = SyncRules.problem(withID: id, naming: "the id") { throw ValidationError(problem) }
        return SyncTarget(kind: kind, id: id)
    }
}

struct SaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save a city, stop or route (a saved city's bundle is queued with auto_download_saved).")
    @OptionGroup var options: StoreOptions
    @OptionGroup var rider: RiderOptions
    @OptionGroup var target: TargetArguments

    func run() async throws {
        try await reportingSyncErrors(json: options.json) {
            let (data, store) = try await rider.openWithStore(options)
            let action = try await data.save(try target.target())
            let queued = try await store.pendingJobs().contains { $0.id == target.id && target.kind == "city" }
            if options.json { return printJSON(action) }
            printLine("saved \(target.kind) \(target.id)\(queued ? " (its download is queued: transit-store resume)" : "")")
        }
    }
}

struct UnsaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsave", abstract: "Unsave a city, stop or route (a city's bundle becomes evictable again).")
    @OptionGroup var options: StoreOptions
    @OptionGroup var rider: RiderOptions
    @OptionGroup var target: TargetArguments

    func run() async throws {
        try await reportingSyncErrors(json: options.json) {
            let action = try await rider.open(options).unsave(try target.target())
            if options.json { return printJSON(action) }
            printLine("unsaved \(target.kind) \(target.id)")
        }
    }
}

struct SavedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "saved", abstract: "The saved cities, stops and routes.")
    @OptionGroup var options: StoreOptions
    @OptionGroup var rider: RiderOptions

    func run() async throws {
        try await reportingSyncErrors(json: options.json) {
            let saved = try await rider.open(options).saved()
            if options.json { return printJSON(saved) }
            for item in saved { printLine("\(item.target.kind.rawValue) \(item.target.id)  saved \(iso(item.savedAt))") }
        }
    }
}

struct NoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note", abstract: "The rider's notes on cities, stops and routes.",
        subcommands: [Add.self, Edit.self, Remove.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a note; prints its id.")
        @OptionGroup var options: StoreOptions
        @OptionGroup var rider: RiderOptions
        @OptionGroup var target: TargetArguments
        @Argument(help: "The note's text (1 to 10,000 characters).") var text: String

        func run() async throws {
            try await reportingSyncErrors(json: options.json) {
                let note = try await rider.open(options).addNote(about: try target.target(), text: text)
                options.json ? printJSON(note) : printLine(note.id)
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a note's text.")
        @OptionGroup var options: StoreOptions
        @OptionGroup var rider: RiderOptions
        @Argument(help: "The note's id.") var id: String
        @Argument(help: "The new text.") var text: String

        func run() async throws {
            try await reportingSyncErrors(json: options.json) {
                let action = try await rider.open(options).editNote(id, text: text)
                options.json ? printJSON(action) : printLine("edited \(id)")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a note.")
        @OptionGroup var options: StoreOptions
        @OptionGroup var rider: RiderOptions
        @Argument(help: "The note's id.") var id: String

        func run() async throws {
            try await reportingSyncErrors(json: options.json) {
                let action = try await rider.open(options).deleteNote(id)
                options.json ? printJSON(action) : printLine("deleted \(id)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The notes (on one target when given).")
        @OptionGroup var options: StoreOptions
        @OptionGroup var rider: RiderOptions
        @Argument(help: "city, stop or route (with an id): only the notes on it.") var kind: String?
        @Argument(help: "Its id.") var id: String?

        func run() async throws {
            try await reportingSyncErrors(json: options.json) {
                var target: SyncTarget?
                if let kind {
                    guard let id else { throw ValidationError("give the target's kind and id") }
                    target = try TargetArguments.parse([kind, id]).target()
                }
                let notes = try await rider.open(options).notes(about: target)
                if options.json { return printJSON(notes) }
                for note in notes { printLine("\(note.id)  \(note.target)  \(note.text)") }
            }
        }
    }
}

struct PendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending", abstract: "The outbox: actions waiting to sync and failed ones, with their statuses.")
    @OptionGroup var options: StoreOptions
    @OptionGroup var rider: RiderOptions

    func run() async throws {
        try await reportingSyncErrors(json: options.json) {
            let entries = try await rider.open(options).pending()
            if options.json { return printJSON(entries) }
            for entry in entries { printLine(describe(entry)) }
        }
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Push the outbox to a transit-server, pull what changed; prints each action's outcome.")
    @OptionGroup var options: StoreOptions
    @OptionGroup var rider: RiderOptions
    @Option(help: "The server's root URL (http://host:port).") var server: String
    @Option(help: "A file holding the rider's bearer token (transit-server token add).") var tokenFile: String

    func run() async throws {
        try await reportingSyncErrors(json: options.json) {
            guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https" else {
                throw ValidationError("--server \(server): give an http or https URL")
            }
            let token: String
            do {
                token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw ValidationError("--token-file \(tokenFile): \(error.localizedDescription)")
            }
            let data = try await rider.open(options)
            try await data.setAutoSync(false)
            await data.connect(to: SyncServer(url: url, token: token, timeout: options.timeout))
            let report = try await data.sync()
            if options.json { return printJSON(report) }
            for entry in report.actions { printLine(describe(entry)) }
            printLine("pulled \(report.pulled), pending \(report.pending)")
        }
    }
}

struct RetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Put failed actions back in the outbox (all, or the one given).")
    @OptionGroup var options: StoreOptions
    @OptionGroup var rider: RiderOptions
    @Argument(help: "An action's id (default: every failed one).") var id: String?

    func run() async throws {
        try await reportingSyncErrors(json: options.json) {
            let data = try await rider.open(options)
            try await data.setAutoSync(false)
            let count = try await data.retry(id)
            options.json ? printJSON(["retried": count]) : printLine("\(count) action\(count == 1 ? "" : "s") back in the outbox")
        }
    }
}

/// One outbox line: status, type, entity, and why (or what won).
func describe(_ entry: OutboxEntry) -> String {
    var line =
        "\(entry.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(entry.action.type.rawValue) \(entry.action.entity)"
    if entry.retryCount > 0 { line += " (\(entry.retryCount) attempts)" }
    if let error = entry.error { line += ": \(error)" }
    if let winner = entry.winner, let text = winner.fields["text"]?.value.text { line += " (kept: \(text.prefix(80)))" }
    return line
}
