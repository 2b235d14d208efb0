import Foundation
import TransitRuntime

/// The store's job runner: queueing downloads and updates, pausing, resuming and
/// cancelling them, and the one worker that runs them in turn (`perform`: fetch, verify,
/// patch or take the whole file, install under the budget).
extension BundleStore {
    /// Queues the download of bundle `id` (or its update, if an older version is installed).
    /// `explicit`: the user asked for it, so it is never evicted automatically; otherwise it
    /// is cached (evictable). Asking again for a queued bundle returns the same job.
    /// - Throws: `StoreError.noCatalogue`, `StoreError.unknownBundle`; `StoreError.badManifest`
    ///   when the manifest kept from an earlier run is refused by today's checks.
    public func download(_ id: String, explicit: Bool = false) throws -> DownloadJob {
        let catalogue = try usableCatalogue()
        guard catalogue.entry(id) != nil else { throw StoreError.unknownBundle(id) }
        try write { try state.enqueue(StoreState.Pending(id: id, explicit: explicit, paused: false)) }
        return startJob(id)
    }

    /// Queues an update of every installed bundle the manifest has a newer version of;
    /// returns their jobs (none when everything is current).
    public func updateAll() throws -> [DownloadJob] { try queueUpdates(of: nil) }

    /// Queues an update of installed bundle `id` when the manifest has a newer version;
    /// returns its job, nil when it is current.
    ///
    /// ```swift
    /// if let job = try await store.update("lisbon") { for await state in job.updates { progress.show(state) } }
    /// ```
    /// - Throws: `StoreError.unknownBundle` when `id` is not installed; `.noCatalogue`.
    public func update(_ id: String) throws -> DownloadJob? { try queueUpdates(of: id).first }

    private func queueUpdates(of id: String?) throws -> [DownloadJob] {
        let catalogue = try usableCatalogue()
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

    /// Starts the jobs a previous run left unfinished (not the paused ones, nor those whose
    /// last attempt failed: `download` or `resume` asks for those again).
    public func resumePendingJobs() throws -> [DownloadJob] {
        try state.pending().filter(\.isRunnable).map { startJob($0.id) }
    }

    /// Starts every pending job that is not paused, those whose last attempt failed too
    /// (offline, a dropped connection): what the store does when the network comes back.
    @discardableResult
    public func resumeWaitingJobs() throws -> [DownloadJob] {
        let pending = try state.pending().filter { !$0.paused }
        try write {
            for job in pending where job.failure != nil {
                try state.enqueue(StoreState.Pending(id: job.id, explicit: job.explicit, paused: false))
            }
        }
        return pending.map { startJob($0.id) }
    }

    /// The jobs not finished yet, in the order they run; `failure` says why the last attempt
    /// of a waiting job failed (its partial file is kept for the next attempt).
    public func pendingJobs() throws -> [PendingJob] {
        try state.pending().map { PendingJob(id: $0.id, explicit: $0.explicit, paused: $0.paused, failure: $0.failure) }
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

    /// Resumes a paused or failed job for `id` from the bytes kept; answers its job.
    public func resume(_ id: String) throws -> DownloadJob {
        guard let pending = try state.pending(id) else { throw StoreError.unknownBundle(id) }
        try write { try state.enqueue(StoreState.Pending(id: id, explicit: pending.explicit, paused: false)) }
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
        if job.state == .paused || job.state.name == "waiting" { job.set(.queued) }
        if worker == nil { worker = Task { await self.work() } }
        return job
    }

    /// Runs pending jobs one after another until none is left. Another store (in this process
    /// or another) may be running the folder's jobs: then this one waits for the folder's job
    /// lock, and meanwhile reads from the state how the jobs it was asked for ended.
    private func work() async {
        defer { worker = nil }
        while (try? jobsLock.tryLock()) != true {
            settleJobsRunElsewhere()
            guard jobs.values.contains(where: { !$0.state.isStopped }) else { return }
            do { try await Task.sleep(nanoseconds: 100_000_000) } catch { return }
        }
        defer { jobsLock.unlock() }
        // Only the jobs this store was asked for: another process's jobs stay with it.
        while let next = try? state.pending().first(where: { $0.isRunnable && jobs[$0.id].map { !$0.state.isStopped } == true }) {
            let job = job(next.id)
            if let wait = networkWait(for: next.id) {
                // Not a failure: the jobs stay pending and run when the network allows.
                for (id, job) in jobs where !job.state.isStopped && running?.id != id { job.set(.waiting(wait)) }
                break
            }
            let started = now().timeIntervalSince1970
            recordJob(job, explicit: next.explicit, startedAt: started, state: .downloading(done: 0, total: 0))
            let task = Task {
                let previous = try self.state.installed(next.id)?.contentHash
                try await self.perform(next, job)
                let installed = try self.state.installed(next.id)?.contentHash
                await self.keepPhotos(of: next.id, newVersion: previous != installed)
            }
            running = (next.id, task)
            var outcome: JobState
            var kept: FileFetcher.Failure?
            do {
                try await task.value
                outcome = .done
            } catch let failure as FileFetcher.Failure {
                outcome = .failed(failure.error)
                kept = failure.keptPart || failure.error.code == "offline" ? failure : nil
            } catch let error as StoreError {
                outcome = .failed(error)
            } catch is CancellationError {
                outcome = stopping[next.id] ?? .cancelled
            } catch {
                outcome = .failed(.storage("\(error)"))
            }
            running = nil
            let stop = stopping.removeValue(forKey: next.id)
            if case .failed(.offline) = outcome, stop == nil {
                // The network went away mid-job: the job waits with what it downloaded.
                outcome = .waiting(.offline)
            }
            if let kept, stop == nil {
                // Retries exhausted after some bytes arrived: the job waits with its partial
                // file for the next attempt (`download` or `resume` asks for it again).
                try? write { try state.fail(next.id, reason: kept.error.description, resumeData: kept.resumeData) }
            } else if outcome != .paused {
                try? write { try state.finish(next.id) }
                if stop == .cancelled || outcome.isFinal && outcome != .done { files.removeParts(of: next.id) }
            }
            recordJob(job, explicit: next.explicit, startedAt: started, state: outcome)
            job.set(outcome)
        }
        settleJobsRunElsewhere()
    }

    /// What job `id` must wait for before it may use the network, nil when it may go now:
    /// the store is offline, or the network is expensive and the rider chose Wi-Fi only. A
    /// bundle on a `file:` URL needs no network.
    private func networkWait(for id: String) -> NetworkWait? {
        if catalogue?.entry(id)?.url.isFileURL == true { return nil }
        let path = connectivity.path
        if !path.isOnline { return .offline }
        if path.isMetered, (try? preferences().wifiOnly) == true { return .expensiveNetwork }
        return nil
    }

    /// Ends the job handles of this store whose jobs another store ran: done when the state
    /// has the manifest's version installed, failed with the recorded reason otherwise.
    private func settleJobsRunElsewhere() {
        guard let pending = try? state.pending(), let installed = try? state.installed() else { return }
        for (id, job) in jobs where !job.state.isStopped && running?.id != id {
            if let row = pending.first(where: { $0.id == id }) {
                if let failure = row.failure { job.set(.failed(.transfer(failure, transient: true))) }
                continue
            }
            let want = catalogue?.entry(id)?.contentHash
            if let have = installed.first(where: { $0.id == id }), have.contentHash == want {
                job.set(.done)
            } else {
                job.set(.failed(.install("\(id): the job ended in another process without installing this version")))
            }
        }
    }

    /// Downloads (or patches) and installs one bundle.
    private func perform(_ pending: StoreState.Pending, _ job: DownloadJob) async throws {
        let catalogue = try usableCatalogue()
        if let expires = catalogue.expires, catalogue.hasExpired(at: now()) {
            throw StoreError.staleManifest("the manifest expired on \(ISO8601DateFormatter().string(from: expires))")
        }
        guard let entry = catalogue.entry(pending.id) else { throw StoreError.unknownBundle(pending.id) }
        let installed = try state.installed(pending.id)
        if installed?.contentHash == entry.contentHash {
            try installing(entry, put: nil)
            return
        }
        let budget = try preferences().maxBytes.map(StorageBudget.init)
        let others = try installedWithPhotos().filter { $0.id != entry.id }
        // Checked before anything is fetched: refuse now rather than after the download.
        _ = try budget?.evictions(for: entry.id, needed: entry.bytes, installed: others)
        let report: @Sendable (JobState) -> Void = { job.set($0) }
        if let installed, let patch = catalogue.patch(from: installed.contentHash, to: entry), patch.bytes < entry.bytes {
            let part = files.partPath(entry.id, fileSHA256: patch.fileSHA256)
            do {
                try await fetcher.fetch(
                    patch.url, bytes: patch.bytes, sha256: patch.fileSHA256, into: part, id: entry.id, resumeData: nil,
                    report: report)
                job.set(.installing)
                // The patch makes a new file beside it; only a result with the manifest's
                // content hash (whatever the patch promises) that opens as a bundle is installed.
                let made = part + ".made"
                defer { try? FileManager.default.removeItem(atPath: made) }
                try installing(entry) { budget in
                    try self.evict(for: entry, budget: budget)
                    let hash = try BundleUpdate.apply(patch: part, to: self.files.bundlePath(entry.id), output: made)
                    guard hash == entry.contentHash else {
                        throw StoreError.install("\(entry.id): the patch made content \(hash), the manifest lists \(entry.contentHash)")
                    }
                    let coverage: BundleInfo.Coverage
                    do { coverage = try TransitBundle(path: made).info().coverage } catch {
                        throw StoreError.install("\(entry.id): \(error)")
                    }
                    try self.files.install(made, as: entry.id)
                    return coverage
                }
                try? FileManager.default.removeItem(atPath: part)
                return
            } catch let failure as FileFetcher.Failure {
                if case .noSpace = failure.error { throw failure }
                try? FileManager.default.removeItem(atPath: part)  // fall back to the whole file
            } catch let error as StoreError {
                if case .overBudget = error { throw error }
                if case .storage = error { throw error }
                if case .noSpace = error { throw error }
                try? FileManager.default.removeItem(atPath: part)
            } catch is TransitError {
                try? FileManager.default.removeItem(atPath: part)
            }
        }
        let part = files.partPath(entry.id, fileSHA256: entry.fileSHA256)
        try await fetcher.fetch(
            entry.url, bytes: entry.bytes, sha256: entry.fileSHA256, into: part, id: entry.id, resumeData: pending.resumeData,
            report: report)
        job.set(.installing)
        let info: BundleInfo
        do {
            info = try await TransitBundle(path: part).info()
            guard info.contentHash == entry.contentHash else {
                throw StoreError.install(
                    "\(entry.id): the file's content hash \(info.contentHash) is not the manifest's \(entry.contentHash)")
            }
        } catch let error as TransitError {
            try? FileManager.default.removeItem(atPath: part)
            throw StoreError.install("\(entry.id): \(error)")
        }
        try installing(entry) { budget in
            try self.evict(for: entry, budget: budget)
            try self.files.install(part, as: entry.id)
            return info.coverage
        }
    }

    /// The install step, holding the folder's state lock: the job must still be asked for
    /// (a `remove` or `cancel` anywhere ends it), `put` puts the file in place and answers the
    /// coverage of the bundle it checked (staleness is judged on the bundle's own coverage,
    /// not on what the manifest says; nil `put`: the version is already installed), and the
    /// row is written with the explicit flag as it is now (a `download --explicit` that came
    /// while the job ran counts).
    private func installing(_ entry: Catalogue.Entry, put: ((StorageBudget?) throws -> BundleInfo.Coverage)?) throws {
        try stateLock.withLock {
            guard let job = try state.pending(entry.id), job.isRunnable else { throw CancellationError() }
            let previous = try state.installed(entry.id)
            let budget = try preferences().maxBytes.map(StorageBudget.init)
            var dates = (first: previous?.firstServiceDate, last: previous?.lastServiceDate)
            if previous?.contentHash != entry.contentHash {
                guard let put else { throw StoreError.install("\(entry.id): the installed version changed meanwhile") }
                let coverage = try put(budget)
                dates = (coverage.firstServiceDate?.description, coverage.lastServiceDate?.description)
            }
            let path = files.bundlePath(entry.id)
            guard let stat = BundleFiles.stat(path) else { throw StoreError.install("\(path) vanished after install") }
            let now = now().timeIntervalSince1970
            let keep = previous?.contentHash == entry.contentHash
            let bundle = StoreState.Installed(
                id: entry.id, contentHash: entry.contentHash, bytes: stat.size, explicit: job.explicit || previous?.explicit == true,
                downloadedAt: keep ? previous?.downloadedAt ?? now : now, lastAccessedAt: previous?.lastAccessedAt ?? now,
                firstServiceDate: dates.first, lastServiceDate: dates.last, modified: stat.modified)
            try write {
                try state.save(bundle)
                try state.finish(entry.id)
            }
            if let previous, previous.contentHash != entry.contentHash {
                eventHub.send(.updated(id: entry.id, from: previous.contentHash, to: entry.contentHash))
            } else if previous == nil {
                eventHub.send(.installed(id: entry.id, contentHash: entry.contentHash))
            }
            if previous?.bytes != bundle.bytes { eventHub.send(.usageChanged(usedBytes: try usedBytes())) }
        }
    }

    /// The changes this store makes to the installed bundles from now on (installs, updates,
    /// removals and evictions, and the bytes used after each), for as long as the caller
    /// iterates. Changes made by another process sharing the folder are not reported: read
    /// `summary()` when the app comes to the foreground.
    public nonisolated func events() -> AsyncStream<StoreEvent> { eventHub.stream() }

    /// Evicts cached bundles so that `entry` fits; the caller holds the state lock.
    private func evict(for entry: Catalogue.Entry, budget: StorageBudget?) throws {
        guard let budget else { return }
        let others = try installedWithPhotos().filter { $0.id != entry.id }
        for id in try budget.evictions(for: entry.id, needed: entry.bytes, installed: others) { try removeHoldingLock(id) }
    }
}
