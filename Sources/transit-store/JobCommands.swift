import ArgumentParser
import Foundation
import TransitStore

struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download", abstract: "Download a bundle (and finish any job left pending), with progress on a terminal.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The bundle's id in the manifest.")
    var id: String

    @Flag(help: "The user asked for it: never evicted automatically (otherwise it is cached).")
    var explicit = false

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            _ = try await store.resumePendingJobs()
            let job = try await store.download(id, explicit: explicit)
            try await JobWatcher(json: options.json).watch([job])
        }
    }
}

struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Update installed bundles the manifest has newer versions of (patches when smaller).")

    @OptionGroup var options: StoreOptions

    @Argument(help: "Only this bundle.")
    var id: String?

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            let pending = try await store.resumePendingJobs()
            let jobs: [DownloadJob]
            if let id {
                jobs = try await store.update(id).map { [$0] } ?? []
            } else {
                jobs = try await store.updateAll()
            }
            try await JobWatcher(json: options.json).watch(pending + jobs.filter { job in !pending.contains { $0 === job } })
        }
    }
}

struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume", abstract: "Finish the jobs an earlier run left pending (an interrupted download resumes with Range).")

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            try await JobWatcher(json: options.json).watch(try await store.resumePendingJobs())
        }
    }
}

/// Follows jobs to their end: a progress line on a terminal, one line (or JSON) per result.
struct JobWatcher {
    let json: Bool
    let terminal = isatty(STDERR_FILENO) == 1

    /// Throws the first failure's exit status after all jobs have ended. With --json the
    /// results go out as `{"jobs": [...]}` plus the manifest's counts when given.
    func watch(_ jobs: [DownloadJob], counts: JobsOutput.Counts? = nil, sayNothingToDo: Bool = true) async throws {
        var results: [JobOutcome] = []
        var firstFailure: StoreError?
        for job in jobs {
            var shown = ""
            for await state in job.updates {
                guard terminal, !json else { continue }
                let line = progressLine(job.bundleID, state)
                if line != shown {
                    FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
                    shown = line
                }
            }
            if terminal && !json { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let final = job.state
            if case .failed(let error) = final { firstFailure = firstFailure ?? error }
            if case .waiting = final {
                // Kept, not failed: the next `resume` (or an app back online) continues it.
                firstFailure = firstFailure ?? .offline("\(job.bundleID): \(final); transit-store resume continues it")
            }
            results.append(JobOutcome(id: job.bundleID, state: final))
            if !json { printLine("\(job.bundleID): \(final)") }
        }
        if json { printJSON(JobsOutput(counts: counts, jobs: results)) }
        if jobs.isEmpty && !json && sayNothingToDo { printLine("nothing to do") }
        if let firstFailure {
            FileHandle.standardError.write(Data("transit-store: \(firstFailure)\n".utf8))
            throw ExitCode(exitCode(for: firstFailure))
        }
    }

    private func progressLine(_ id: String, _ state: JobState) -> String {
        guard case .downloading(let done, let total) = state, total > 0 else { return "\(id): \(state.name)" }
        let percent = Int(Double(done) * 100 / Double(total))
        return "\(id): downloading " + String(format: "%3d%%  %.1f / %.1f MB", percent, Double(done) / 1e6, Double(total) / 1e6)
    }
}

/// `{"jobs": [...]}`, each the library's `JobOutcome`, with the manifest's counts after a
/// `manifest` command (`{"bundles": 2, "patches": 1, "jobs": [...]}`).
struct JobsOutput: Encodable {
    struct Counts: Encodable {
        var bundles: Int
        var patches: Int
    }
    var counts: Counts?
    var jobs: [JobOutcome]

    private enum CodingKeys: String, CodingKey { case jobs }

    func encode(to encoder: Encoder) throws {
        try counts?.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(jobs, forKey: .jobs)
    }
}
