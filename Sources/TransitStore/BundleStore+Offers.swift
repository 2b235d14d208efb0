import Foundation

extension BundleStore {
    /// Every bundle the current manifest offers, with whether it is installed, up to date
    /// and pinned: the saved-cities screen's list, in the manifest's order.
    ///
    /// ```swift
    /// let offers = try await store.offers().filter(\.entry.isReadableByThisRuntime)
    /// ```
    /// - Throws: `StoreError.noCatalogue` before a manifest was fetched.
    public func offers() throws -> [BundleOffer] {
        guard let catalogue = currentCatalogue() else { throw StoreError.noCatalogue }
        let installed = Dictionary(uniqueKeysWithValues: try status().map { ($0.id, $0) })
        return catalogue.bundles.map { entry in
            guard let bundle = installed[entry.id] else { return BundleOffer(entry: entry, availability: .available) }
            return BundleOffer(
                entry: entry, availability: bundle.contentHash == entry.contentHash ? .installed : .updateAvailable,
                isPinned: bundle.explicit)
        }
    }

    /// The installed bundles (staleness judged on `date`), the bytes they use, the budget and
    /// the pending jobs, read together.
    public func summary(on date: Date? = nil, timeZone: TimeZone = .current) throws -> StoreSummary {
        let bundles = try status(on: date, timeZone: timeZone)
        return StoreSummary(
            bundles: bundles, usedBytes: bundles.reduce(0) { $0 + $1.bytes }, maxBytes: try preferences().maxBytes,
            pendingJobs: try pendingJobs())
    }
}
