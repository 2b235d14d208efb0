import Foundation

extension BundleStore {
    /// Records the download of bundle `id` without starting it: it runs with the next
    /// `resumePendingJobs()` (or `download(_:)` of it). A rider's saved city is queued this
    /// way (`TransitSync`), so that the download waits for the app to say it may use the
    /// network. Already installed at the manifest's version: nothing is queued, it is pinned.
    /// - Returns: true when a job was recorded.
    /// - Throws: `StoreError.noCatalogue`, `StoreError.unknownBundle`.
    @discardableResult
    public func queueDownload(_ id: String, explicit: Bool = true) throws -> Bool {
        let catalogue = try usableCatalogue()
        guard let entry = catalogue.entry(id) else { throw StoreError.unknownBundle(id) }
        if let installed = try state.installed(id), installed.contentHash == entry.contentHash {
            if explicit { try setPinned(id, true) }
            return false
        }
        try write { try state.enqueue(StoreState.Pending(id: id, explicit: explicit, paused: false)) }
        return true
    }

    /// Pins bundle `id` (never evicted automatically) or unpins it (evictable under the
    /// budget again, least recently opened first), installed or queued; nothing when the
    /// store has neither.
    ///
    /// ```swift
    /// try await store.setPinned("lyon", false)   // the rider unsaved Lyon
    /// ```
    public func setPinned(_ id: String, _ pinned: Bool) throws {
        try write {
            if var installed = try state.installed(id) {
                installed.explicit = pinned
                try state.save(installed)
            }
            try state.setExplicit(id, pinned)
        }
    }
}
