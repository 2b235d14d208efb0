import Foundation

extension BundleStore {
    /// The rider looked at a city (a catalogue city id, or a bundle id): its bundle is kept
    /// on the device for later, as cached (evictable, pruned when not opened for
    /// `pruneAfterDays`). Installed already: its last access is now. Not installed: its
    /// download is queued, cached; answers the job.
    ///
    /// ```swift
    /// try await store.noteViewed("lisbon")     // the city page was shown online
    /// ```
    /// - Throws: `StoreError.unknownBundle` when no bundle of the manifest serves `id`;
    ///   `StoreError.noCatalogue`.
    @discardableResult
    public func noteViewed(_ id: String) throws -> DownloadJob? {
        let bundleID = try bundleServing(id)
        if try state.installed(bundleID) != nil {
            try write { try state.touch(bundleID, at: now().timeIntervalSince1970) }
            return nil
        }
        return try download(bundleID, explicit: false)
    }

    /// The bundle that serves `id`: the bundle of that id, else the first that lists the city.
    func bundleServing(_ id: String) throws -> String {
        if try state.installed(id) != nil { return id }
        let catalogue = try usableCatalogue()
        if catalogue.entry(id) != nil { return id }
        guard let entry = catalogue.bundles.first(where: { $0.cityIDs.contains(id) }) else { throw StoreError.unknownBundle(id) }
        return entry.id
    }

    /// Removes cached bundles (never pinned or saved ones) not opened for
    /// `StorePreferences.pruneAfterDays` days by the store's clock, with their photos; answers
    /// their ids. Going back online prunes by itself.
    ///
    /// ```swift
    /// let removed = try await store.prune()
    /// ```
    @discardableResult
    public func prune() throws -> [String] {
        let cutoff = now().timeIntervalSince1970 - Double(try preferences().pruneAfterDays) * 86_400
        return try withStateLock {
            let old = try state.installed().filter { !$0.explicit && $0.lastAccessedAt < cutoff }.map(\.id)
            for id in old { try removeHoldingLock(id) }
            return old
        }
    }
}
