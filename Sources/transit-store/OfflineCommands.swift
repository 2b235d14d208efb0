import ArgumentParser
import Foundation
import TransitStore

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "The jobs of the last 24 hours (failed ones: 7 days), newest first, with start and end times and outcome.")

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let records = try await options.open().jobHistory()
            if options.json { return printJSON(["jobs": records]) }
            for record in records {
                let end = record.finishedAt.map { " .. \(iso($0))" } ?? ""
                let why = record.error.map { ": \($0.message)" } ?? ""
                printLine("\(record.id.prefix(8))  \(record.bundleID)  \(record.state)  \(iso(record.startedAt))\(end)\(why)")
            }
            if records.isEmpty { printLine("no jobs in the last 24 hours") }
        }
    }
}

struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos", abstract: "The city photos of an installed bundle: kept (with their file), failed or refused.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The installed bundle's id.")
    var id: String

    @Flag(help: "Fetch the photos not kept yet (not the refused ones) before listing.")
    var retry = false

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            _ = try await store.photos(of: id)
            if retry { await store.retryPhotos() }
            let photos = try await store.photos(of: id)
            if options.json { return printJSON(["photos": photos]) }
            for photo in photos {
                let state = photo.localURL.map { "\(photo.bytes) B  \($0.path)" } ?? (photo.isRefused ? "refused" : "missing")
                printLine("\(photo.cityID)  \(photo.type)  \(state)  \(photo.url)" + (photo.failure.map { "  (\($0))" } ?? ""))
            }
            let kept = photos.filter { $0.localURL != nil }
            printLine("\(kept.count) of \(photos.count) photos kept, \(kept.reduce(Int64(0)) { $0 + $1.bytes }) bytes")
        }
    }
}

struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune", abstract: "Remove cached bundles not opened for prune-after-days (never pinned or saved ones).")

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let removed = try await options.open().prune()
            if options.json { return printJSON(["removed": removed]) }
            printLine(removed.isEmpty ? "nothing to prune" : "removed \(removed.joined(separator: ", "))")
        }
    }
}

struct ClearAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear-all",
        abstract: "Remove every bundle and photo and cancel every job; preferences and the rider's data are kept.")

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            try await store.clearAll()
            let used = try await store.usedBytes()
            if options.json { return printJSON(["used_bytes": used]) }
            printLine("cleared: \(used) bytes used")
        }
    }
}

struct ViewedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "viewed",
        abstract: "A city (or bundle) was viewed: keep its bundle as cached (downloaded now when missing), its last access now.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "A catalogue city id or a bundle id.")
    var id: String

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            if let job = try await store.noteViewed(id) {
                try await JobWatcher(json: options.json).watch([job])
            } else if options.json {
                printJSON(["viewed": id])
            } else {
                printLine("\(id): installed, last access now")
            }
        }
    }
}

struct DownloadAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download-all",
        abstract: "Download the given bundles (or every one the manifest offers) one after another, with overall progress.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "Bundle or city ids (default: every bundle of the manifest this runtime reads).")
    var ids: [String] = []

    func run() async throws {
        try await reportingErrors(json: options.json) {
            let store = try options.open()
            let batch = try await store.downloadAll(ids.isEmpty ? nil : ids)
            let terminal = isatty(STDERR_FILENO) == 1 && !options.json
            for await progress in batch.updates where terminal {
                let line = String(
                    format: "%d/%d bundles  %3d%%", progress.finishedJobs, progress.totalJobs, Int(progress.fraction * 100))
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
            }
            if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            try await JobWatcher(json: options.json).watch(batch.jobs)
        }
    }
}
