/// Which cached bundles to evict so that a new one fits the budget.
///
/// Bundles the user downloaded explicitly are never chosen; cached ones go least recently
/// accessed first, and only as many as needed. When even evicting them all would not make
/// room, nothing is chosen and the download is refused with the numbers.
struct StorageBudget {
    let maxBytes: Int64

    /// The ids to evict before `needed` more bytes are installed beside `installed`
    /// (which must not include the bundle being replaced).
    func evictions(for id: String, needed: Int64, installed: [StoreState.Installed]) throws -> [String] {
        let total = installed.reduce(0) { $0 + $1.bytes }
        if total + needed <= maxBytes { return [] }
        let explicitBytes = installed.filter(\.explicit).reduce(0) { $0 + $1.bytes }
        guard explicitBytes + needed <= maxBytes else {
            throw StoreError.overBudget(
                id: id, needed: needed, budget: maxBytes, explicitBytes: explicitBytes, evictableBytes: total - explicitBytes)
        }
        return cachedToEvict(installed, keeping: maxBytes - needed)
    }

    /// Cached bundles, least recently accessed first, until the rest use at most `limit`
    /// bytes (or none is left: explicit ones are never chosen).
    func cachedToEvict(_ installed: [StoreState.Installed], keeping limit: Int64) -> [String] {
        var remaining = installed.reduce(0) { $0 + $1.bytes }
        var chosen: [String] = []
        let cached = installed.filter { !$0.explicit }.sorted { ($0.lastAccessedAt, $0.id) < ($1.lastAccessedAt, $1.id) }
        for bundle in cached where remaining > limit {
            chosen.append(bundle.id)
            remaining -= bundle.bytes
        }
        return chosen
    }
}
