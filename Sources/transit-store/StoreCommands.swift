import ArgumentParser
import Foundation
import TransitStore
import TransitSync

struct ManifestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract:
            "Fetch the manifest (http, https, file URL or path) and keep it as the last good one; with automatic updates on, run the updates it brings."
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: "Where the manifest is.")
    var url: String

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            let location = url.contains("://") ? URL(string: url) : URL(fileURLWithPath: url)
            guard let location else { throw StoreError.badManifest("\"\(url)\" is not a URL") }
            if options.trustedKey.isEmpty {
                FileHandle.standardError.write(
                    Data(
                        "transit-store: note: manifests are not authenticated (no --trusted-key); the server decides what is installed\n"
                            .utf8))
            }
            let catalogue = try await store.refreshCatalogue(from: location)
            // With automatic updates on, the updates it queued run now, in this process.
            let updates = try await store.preferences().autoUpdate ? try await store.resumePendingJobs() : []
            if !options.json { printLine("\(catalogue.bundles.count) bundles, \(catalogue.patches.count) patches") }
            try await JobWatcher(json: options.json).watch(
                updates, counts: .init(bundles: catalogue.bundles.count, patches: catalogue.patches.count), sayNothingToDo: false)
        }
    }
}

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The bundles the manifest offers.")

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let offers = try await options.open().offers()
            if options.json { return printJSON(offers) }
            for offer in offers {
                let entry = offer.entry
                let coverage =
                    "\(entry.coverage.firstServiceDate?.description ?? "?") .. \(entry.coverage.lastServiceDate?.description ?? "?")"
                let id = entry.id.padding(toLength: max(20, entry.id.count), withPad: " ", startingAt: 0)
                let state = offer.availability == .updateAvailable ? "update available" : offer.availability.rawValue
                printLine(
                    "\(id) " + String(format: "%10.2f MB", Double(entry.bytes) / 1e6)
                        + "  \(coverage)  \(state)\(offer.isPinned ? " (pinned)" : "")")
            }
        }
    }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an installed bundle.")

    @OptionGroup var options: StoreOptions

    @Argument var id: String

    func run() async throws {
        try await reportingErrors(json: options.json) {
            try await options.open().remove(id)
            if options.json { printJSON(["removed": id]) } else { printLine("removed \(id)") }
        }
    }
}

struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Print an installed bundle's path and record the access (for transit-query --bundle).")

    @OptionGroup var options: StoreOptions

    @Argument var id: String

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let bundle = try await options.open().open(id)
            printLine(bundle.path)
        }
    }
}

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Installed bundles: path, hash, bytes, explicit, last access, stale or expired.")

    @OptionGroup var options: StoreOptions

    @Option(help: "The day to judge staleness on (YYYY-MM-DD; default today).")
    var on: String?

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            var date = try options.clock()()
            if let on {
                let format = DateFormatter()
                format.dateFormat = "yyyy-MM-dd"
                format.timeZone = TimeZone.current
                guard let parsed = format.date(from: on) else { throw ValidationError("--on wants YYYY-MM-DD, not \"\(on)\"") }
                date = parsed.addingTimeInterval(12 * 3600)
            }
            let summary = try await store.summary(on: date)
            if options.json { return printJSON(summary) }
            let (bundles, used, pending) = (summary.bundles, summary.usedBytes, summary.pendingJobs)
            for bundle in bundles {
                let flags = [bundle.explicit ? "explicit" : "cached", bundle.isExpired ? "expired" : bundle.isStale ? "stale" : "fresh"]
                printLine(
                    "\(bundle.id)  \(bundle.bytes) B  \(flags.joined(separator: ", "))  last accessed \(iso(bundle.lastAccessedAt))  \(bundle.contentHash.prefix(12))  \(bundle.path)"
                )
            }
            printLine("\(bundles.count) bundles, \(used) bytes" + (summary.maxBytes.map { " of \($0)" } ?? ""))
            for job in pending {
                let note = job.failure.map { " (failed: \($0); `download \(job.id)` tries again from the bytes kept)" } ?? ""
                printLine("pending: \(job.id)\(job.paused ? " (paused)" : "")\(note)")
            }
        }
    }
}

struct PrefsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefs",
        abstract:
            "Show or set the storage budget, automatic updates, Wi-Fi only, pruning and the age warning (a smaller budget evicts cached bundles)."
    )

    @OptionGroup var options: StoreOptions

    @OptionGroup var rider: RiderOptions

    @Option(help: "The most bytes installed bundles may use; 0 removes the limit.")
    var maxBytes: Int64?

    @Option(help: "true or false: queue updates when a fetched manifest has newer versions.")
    var autoUpdate: Bool?

    @Option(help: "Days before the end of coverage from which a bundle counts as stale.")
    var staleDays: Int?

    @Option(help: "true or false: download on an unmetered network only (jobs wait on an expensive one).")
    var wifiOnly: Bool?

    @Option(help: "true or false: download the cities the rider saves without being asked (the rider's, synced).")
    var autoDownloadSaved: Bool?

    @Option(help: "Remove cached bundles not opened for this many days (1 to 90; the rider's, synced; prune does it).")
    var pruneAfterDays: Int?

    @Option(help: "Flag bundles downloaded more than this many days ago (1 to 365; the rider's, synced).")
    var staleWarningDays: Int?

    func validate() throws {
        if let maxBytes, maxBytes < 0 { throw ValidationError("--max-bytes must be 0 (no limit) or more, not \(maxBytes)") }
        if let staleDays, staleDays < 0 { throw ValidationError("--stale-days must not be negative, not \(staleDays)") }
    }

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            // The rider's synced preferences first: the store follows them. The rider's file
            // is only opened when one of them is set or it exists (a full disk still shows).
            var synced: SyncedPreferences?
            let riderFile = FileManager.default.fileExists(atPath: options.dir + "/rider.sqlite")
            if autoDownloadSaved != nil || pruneAfterDays != nil || staleWarningDays != nil || riderFile {
                let riderData = try RiderData(
                    directory: options.dir, store: store, name: rider.deviceName, type: "cli",
                    appVersion: TransitStoreCommand.configuration.version, clock: try options.clock())
                var wanted = try await riderData.preferences()
                if let autoDownloadSaved { wanted.autoDownloadSaved = autoDownloadSaved }
                if let pruneAfterDays { wanted.pruneAfterDays = pruneAfterDays }
                if let staleWarningDays { wanted.staleWarningDays = staleWarningDays }
                do { try await riderData.setPreferences(wanted) } catch let error as SyncError {
                    throw StoreError.badPreference(error.description)
                }
                synced = wanted
                await riderData.close()
            }
            var preferences = try await store.preferences()
            if let maxBytes { preferences.maxBytes = maxBytes > 0 ? maxBytes : nil }
            if let autoUpdate { preferences.autoUpdate = autoUpdate }
            if let staleDays { preferences.staleDays = staleDays }
            if let wifiOnly { preferences.wifiOnly = wifiOnly }
            let changed: [Any?] = [maxBytes, autoUpdate, staleDays, wifiOnly]
            if changed.contains(where: { $0 != nil }) { try await store.setPreferences(preferences) }
            // Explicit bundles are never evicted: a budget below them is kept, and said.
            let explicitBytes = try await store.status().filter(\.explicit).reduce(Int64(0)) { $0 + $1.bytes }
            var warning: String?
            if let limit = preferences.maxBytes, explicitBytes > limit {
                warning =
                    "bundles downloaded explicitly use \(explicitBytes) bytes, more than the budget of \(limit): they stay until removed, and new downloads will be refused"
                FileHandle.standardError.write(Data("transit-store: warning: \(warning!)\n".utf8))
            }
            if options.json {
                printJSON(PreferencesOutput(preferences: preferences, autoDownloadSaved: synced?.autoDownloadSaved, warning: warning))
            } else {
                printLine(
                    """
                    max bytes: \(preferences.maxBytes.map(String.init) ?? "no limit")
                    auto update: \(preferences.autoUpdate)
                    stale days: \(preferences.staleDays)
                    wifi only: \(preferences.wifiOnly)
                    auto download saved: \(synced.map { String($0.autoDownloadSaved) } ?? "true (the default)")
                    prune after days: \(preferences.pruneAfterDays)
                    stale warning days: \(preferences.staleWarningDays)
                    """)
            }
        }
    }
}

func iso(_ date: Date) -> String {
    ISO8601DateFormatter().string(from: date)
}

/// `StorePreferences`' encoding, with the rider's `auto_download_saved` and the warning
/// about a budget below the pinned bundles.
struct PreferencesOutput: Encodable {
    var preferences: StorePreferences
    var autoDownloadSaved: Bool?
    var warning: String?

    private enum CodingKeys: String, CodingKey {
        case autoDownloadSaved = "auto_download_saved"
        case warning
    }

    func encode(to encoder: Encoder) throws {
        try preferences.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(autoDownloadSaved, forKey: .autoDownloadSaved)
        try c.encodeIfPresent(warning, forKey: .warning)
    }
}
