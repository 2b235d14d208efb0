import Foundation

extension BundleStore {
    /// Downloads several bundles one after another, with their overall progress: the saved
    /// cities' bundles, or (nil) every bundle the manifest offers that this runtime reads.
    /// Bundles installed at the manifest's version are left out.
    ///
    /// ```swift
    /// let batch = try await store.downloadAll()
    /// for await progress in batch.updates { bar.progress = progress.fraction }
    /// ```
    /// - Throws: `StoreError.noCatalogue`, `StoreError.unknownBundle` (nothing is queued then).
    public func downloadAll(_ ids: [String]? = nil, explicit: Bool = true) throws -> DownloadBatch {
        let catalogue = try usableCatalogue()
        let wanted = try ids.map { try $0.map(bundleServing) } ?? catalogue.bundles.filter(\.isReadableByThisRuntime).map(\.id)
        let installed = Dictionary(uniqueKeysWithValues: try state.installed().map { ($0.id, $0.contentHash) })
        var entries: [Catalogue.Entry] = []
        for id in wanted where !entries.contains(where: { $0.id == id }) {
            guard let entry = catalogue.entry(id) else { throw StoreError.unknownBundle(id) }
            if installed[id] != entry.contentHash { entries.append(entry) }
        }
        let jobs = try entries.map { try download($0.id, explicit: explicit) }
        return DownloadBatch(jobs: jobs, sizes: entries.map(\.bytes))
    }

    /// Removes every bundle and photo and cancels every job: 0 bytes used afterwards. The
    /// preferences, the last good manifest, the job history and the rider's own data
    /// (`rider.sqlite`: saved places, notes, pending changes) are kept.
    ///
    /// ```swift
    /// try await store.clearAll()     // the storage screen's "Clear all offline data"
    /// ```
    public func clearAll() throws {
        for job in try state.pending() { try cancel(job.id) }
        try withStateLock {
            for bundle in try state.installed() { try removeHoldingLock(bundle.id) }
            try write { try state.forgetPhotos(of: nil) }
        }
        files.removePhotos(of: nil)
        eventHub.send(.usageChanged(usedBytes: try usedBytes()))
    }
}
