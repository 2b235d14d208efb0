import Foundation
import TransitRuntime

/// The offline store an app keeps its city bundles in: fetches the manifest, downloads,
/// verifies and installs bundles, keeps them fresh with patches, evicts cached ones under a
/// storage budget, and remembers all that in its own state file. Safe to use from many tasks;
/// jobs run one at a time in the order they were asked for.
///
/// ```swift
/// let store = try BundleStore(directory: appSupport + "/transit")
/// try await store.refreshCatalogue(from: URL(string: "https://example.org/bundles/manifest.json")!)
/// let job = try await store.download("lisbon", explicit: true)
/// for await state in job.updates { print(state) }      // queued, downloading 1/12 MB, ..., done
/// let lisbon = try await store.open("lisbon")          // a TransitBundle
/// ```
public actor BundleStore {
    let files: BundleFiles
    let state: StoreState
    private let fetcher: FileFetcher
    private var catalogue: Catalogue?
    private var jobs: [String: DownloadJob] = [:]
    private var worker: Task<Void, Never>?
    private var running: (id: String, task: Task<Void, Error>)?
    /// Why the running job was stopped: paused or cancelled.
    private var stopping: [String: JobState] = [:]

    /// Opens (creating) the store in `directory`. Start-up removes temporary files left by a
    /// crash and checks the installed files against the state: a file whose size or time
    /// changed is re-read (its content hash verified) and the state follows the file. A lost
    /// or damaged state file is rebuilt from the bundles present, which are then counted as
    /// explicit downloads (so never evicted without the user). Pending jobs wait for
    /// `resumePendingJobs()`. The default transport reads `http:` over a socket and everything
    /// else through URLSession (`SocketHTTPTransport`).
    public init(directory: String, transport: any StoreTransport = SocketHTTPTransport(), retries: RetryPolicy = RetryPolicy())
        throws
    {
        files = try BundleFiles(root: directory)
        state = try StoreState(path: files.statePath)
        fetcher = FileFetcher(transport: transport, retries: retries)
        do {
            let pending = try state.pending()
            files.removeLeftovers(keepingPartsOf: Set(pending.map(\.id)))
            try StoreRecovery(files: files, state: state).reconcile(pending: pending)
            if let saved = try state.catalogue(), let base = URL(string: saved.source) {
                catalogue = try? Catalogue(json: Data(saved.json), base: base)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.storage("\(files.statePath): \(error)")
        }
    }

    // MARK: - Catalogue

    /// Fetches the manifest at `url` (http, https or file) and keeps it as the last good one;
    /// a manifest that cannot be fetched or read leaves the previous one in place. With
    /// automatic updates on, bundles it has newer versions of are queued.
    @discardableResult
    public func refreshCatalogue(from url: URL) async throws -> Catalogue {
        let data: Data
        do {
            data = try await fetcher.transport.fetch(url)
        } catch let error as TransportError {
            throw StoreError.transfer(error.message, transient: error.transient)
        }
        let fresh = try Catalogue(json: data, base: url)
        try write { try state.saveCatalogue(source: url.absoluteString, fetchedAt: Date().timeIntervalSince1970, json: [UInt8](data)) }
        catalogue = fresh
        if try preferences().autoUpdate { _ = try updateAll() }
        return fresh
    }

    /// The last good manifest, nil before the first fetch.
    public func currentCatalogue() -> Catalogue? { catalogue }

    // MARK: - Jobs

    /// Queues the download of bundle `id` (or its update, if an older version is installed).
    /// `explicit`: the user asked for it, so it is never evicted automatically; otherwise it
    /// is cached (evictable). Asking again for a queued bundle returns the same job.
    /// - Throws: `StoreError.noCatalogue`, `StoreError.unknownBundle`.
    public func download(_ id: String, explicit: Bool = false) throws -> DownloadJob {
        guard let catalogue else { throw StoreError.noCatalogue }
        guard catalogue.entry(id) != nil else { throw StoreError.unknownBundle(id) }
        try write { try state.enqueue(StoreState.Pending(id: id, explicit: explicit, paused: false)) }
        return startJob(id)
    }

    /// Queues an update of every installed bundle the manifest has a newer version of, or of
    /// `id` alone; returns their jobs (none when everything is current).
    public func updateAll(_ id: String? = nil) throws -> [DownloadJob] {
        guard let catalogue else { throw StoreError.noCatalogue }
        let installed = try state.installed().filter { id == nil || $0.id == id }
        if let id, installed.isEmpty { throw StoreError.unknownBundle(id) }
        var started: [DownloadJob] = []
        for bundle in installed {
            guard let entry = catalogue.entry(bundle.id), entry.contentHash != bundle.contentHash else { continue }
            try write { try state.enqueue(StoreState.Pending(id: bundle.id, explicit: bundle.explicit, paused: false)) }
            started.append(startJob(bundle.id))
        }
        return started
    }

    /// Starts the jobs a previous run left unfinished (not the paused ones).
    public func resumePendingJobs() throws -> [DownloadJob] {
        try state.pending().filter { !$0.paused }.map { startJob($0.id) }
    }

    /// The jobs not finished yet, in the order they run.
    public func pendingJobs() throws -> [(id: String, explicit: Bool, paused: Bool)] {
        try state.pending().map { ($0.id, $0.explicit, $0.paused) }
    }

    /// Stops a job, keeping what it downloaded; `resume` continues it with HTTP Range.
    public func pause(_ id: String) throws {
        try write { try state.setPaused(id, true) }
        job(id).set(.paused)
        if running?.id == id {
            stopping[id] = .paused
            running?.task.cancel()
        }
    }

    public func resume(_ id: String) throws -> DownloadJob {
        try write { try state.setPaused(id, false) }
        return startJob(id)
    }

    /// Stops a job and throws away what it downloaded.
    public func cancel(_ id: String) throws {
        try write { try state.finish(id) }
        if running?.id == id {
            stopping[id] = .cancelled
            running?.task.cancel()
        } else {
            files.removeParts(of: id)
            job(id).set(.cancelled)
        }
    }

    private func job(_ id: String) -> DownloadJob {
        if let job = jobs[id], !job.state.isFinal { return job }
        let job = DownloadJob(bundleID: id)
        jobs[id] = job
        return job
    }

    private func startJob(_ id: String) -> DownloadJob {
        let job = job(id)
        if job.state == .paused { job.set(.queued) }
        if worker == nil { worker = Task { await self.work() } }
        return job
    }

    /// Runs pending jobs one after another until none is left.
    private func work() async {
        while let next = try? state.pending().first(where: { !$0.paused }) {
            let job = job(next.id)
            let task = Task { try await self.perform(next, job) }
            running = (next.id, task)
            let outcome: JobState
            do {
                try await task.value
                outcome = .done
            } catch let error as StoreError {
                outcome = .failed(error)
            } catch is CancellationError {
                outcome = stopping[next.id] ?? .cancelled
            } catch {
                outcome = .failed(.storage("\(error)"))
            }
            running = nil
            let stop = stopping.removeValue(forKey: next.id)
            if outcome != .paused {
                try? write { try state.finish(next.id) }
                if stop == .cancelled || outcome.isFinal && outcome != .done { files.removeParts(of: next.id) }
            }
            job.set(outcome)
        }
        worker = nil
    }

    /// Downloads (or patches) and installs one bundle.
    private func perform(_ pending: StoreState.Pending, _ job: DownloadJob) async throws {
        guard let catalogue else { throw StoreError.noCatalogue }
        guard let entry = catalogue.entry(pending.id) else { throw StoreError.unknownBundle(pending.id) }
        let installed = try state.installed(pending.id)
        let explicit = pending.explicit || installed?.explicit == true
        if var installed, installed.contentHash == entry.contentHash {
            installed.explicit = explicit
            try write { try state.save(installed) }
            return
        }
        let budget = try preferences().maxBytes.map(StorageBudget.init)
        let others = try state.installed().filter { $0.id != entry.id }
        // Checked before anything is fetched: refuse now rather than after the download.
        _ = try budget?.evictions(for: entry.id, needed: entry.bytes, installed: others)
        let report: @Sendable (JobState) -> Void = { job.set($0) }
        if let installed, let patch = catalogue.patch(from: installed.contentHash, to: entry), patch.bytes < entry.bytes {
            let part = files.partPath(entry.id, fileSHA256: patch.fileSHA256)
            do {
                try await fetcher.fetch(patch.url, bytes: patch.bytes, sha256: patch.fileSHA256, into: part, id: entry.id, report: report)
                job.set(.installing)
                try evict(for: entry, budget: budget)
                let path = files.bundlePath(entry.id)
                _ = try await Task.detached { try BundleUpdate.apply(patch: part, to: path) }.value
                try? FileManager.default.removeItem(atPath: part)
                try record(entry, explicit: explicit, previous: installed)
                return
            } catch let error as StoreError {
                if case .overBudget = error { throw error }
                try? FileManager.default.removeItem(atPath: part)  // fall back to the whole file
            } catch is TransitError {
                try? FileManager.default.removeItem(atPath: part)
            }
        }
        let part = files.partPath(entry.id, fileSHA256: entry.fileSHA256)
        try await fetcher.fetch(entry.url, bytes: entry.bytes, sha256: entry.fileSHA256, into: part, id: entry.id, report: report)
        job.set(.installing)
        do {
            let contentHash = try TransitBundle(path: part).info().contentHash
            guard contentHash == entry.contentHash else {
                throw StoreError.install("\(entry.id): the file's content hash \(contentHash) is not the manifest's \(entry.contentHash)")
            }
        } catch let error as TransitError {
            try? FileManager.default.removeItem(atPath: part)
            throw StoreError.install("\(entry.id): \(error)")
        }
        try evict(for: entry, budget: budget)
        try files.install(part, as: entry.id)
        try record(entry, explicit: explicit, previous: installed)
    }

    private func evict(for entry: Catalogue.Entry, budget: StorageBudget?) throws {
        guard let budget else { return }
        let others = try state.installed().filter { $0.id != entry.id }
        for id in try budget.evictions(for: entry.id, needed: entry.bytes, installed: others) { try remove(id) }
    }

    /// Writes the installed bundle's row and ends its job in one transaction.
    private func record(_ entry: Catalogue.Entry, explicit: Bool, previous: StoreState.Installed?) throws {
        let path = files.bundlePath(entry.id)
        guard let stat = BundleFiles.stat(path) else { throw StoreError.install("\(path) vanished after install") }
        let now = Date().timeIntervalSince1970
        let bundle = StoreState.Installed(
            id: entry.id, contentHash: entry.contentHash, bytes: stat.size, explicit: explicit, downloadedAt: now,
            lastAccessedAt: previous?.lastAccessedAt ?? now, firstServiceDate: entry.coverage.firstServiceDate,
            lastServiceDate: entry.coverage.lastServiceDate, modified: stat.modified)
        try write {
            try state.save(bundle)
            try state.finish(entry.id)
        }
    }

    // MARK: - Installed bundles

    /// Opens an installed bundle for queries and records the access (eviction goes least
    /// recently accessed first). The bundle keeps reading this version until released, even
    /// if an update or a removal replaces the file meanwhile.
    public func open(_ id: String) throws -> TransitBundle {
        guard try state.installed(id) != nil else { throw StoreError.unknownBundle(id) }
        try write { try state.touch(id, at: Date().timeIntervalSince1970) }
        do { return try TransitBundle(path: files.bundlePath(id)) } catch { throw StoreError.install("\(id): \(error)") }
    }

    /// Removes an installed bundle (and any job for it): its bytes no longer count at once;
    /// readers that have it open keep their file until they release it.
    public func remove(_ id: String) throws {
        guard try state.installed(id) != nil else { throw StoreError.unknownBundle(id) }
        try files.remove(id)
        try write { try state.forget(id) }
    }

    /// Every installed bundle with its staleness on `date` (default: now, in the device's time zone).
    public func status(on date: Date = Date(), timeZone: TimeZone = .current) throws -> [InstalledBundle] {
        let preferences = try preferences()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func day(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let today = day(date)
        let horizon = day(date.addingTimeInterval(Double(preferences.staleDays) * 86_400))
        return try state.installed().map { bundle in
            let listed = catalogue?.entry(bundle.id)?.contentHash
            let newer = listed == bundle.contentHash ? nil : listed
            let last = bundle.lastServiceDate
            return InstalledBundle(
                id: bundle.id, path: files.bundlePath(bundle.id), contentHash: bundle.contentHash, bytes: bundle.bytes,
                explicit: bundle.explicit, downloadedAt: bundle.downloadedAt, lastAccessedAt: bundle.lastAccessedAt,
                firstServiceDate: bundle.firstServiceDate, lastServiceDate: last, newerContentHash: newer,
                isStale: newer != nil || last.map { $0 <= horizon } == true, isExpired: last.map { $0 < today } == true)
        }
    }

    /// Bytes the installed bundles use.
    public func usedBytes() throws -> Int64 { try state.installed().reduce(0) { $0 + $1.bytes } }

    // MARK: - Preferences

    public func preferences() throws -> StorePreferences {
        StorePreferences(
            maxBytes: try state.preference("max_bytes").flatMap { Int64($0) },
            autoUpdate: try state.preference("auto_update") != "false",
            staleDays: try state.preference("stale_days").flatMap { Int($0) } ?? 7)
    }

    /// Saves the preferences; a smaller budget evicts cached bundles (least recently accessed
    /// first) until the installed ones fit, never explicit ones.
    public func setPreferences(_ preferences: StorePreferences) throws {
        try write {
            try state.setPreference("max_bytes", preferences.maxBytes.map(String.init))
            try state.setPreference("auto_update", preferences.autoUpdate ? "true" : "false")
            try state.setPreference("stale_days", String(preferences.staleDays))
        }
        guard let max = preferences.maxBytes else { return }
        for id in StorageBudget(maxBytes: max).cachedToEvict(try state.installed(), keeping: max) { try remove(id) }
    }

    private func write<T>(_ body: () throws -> T) throws -> T {
        do { return try state.transaction(body) } catch let error as StoreError { throw error } catch {
            throw StoreError.storage("\(files.statePath): \(error)")
        }
    }
}
