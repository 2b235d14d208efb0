import Foundation

/// A change to the installed bundles, as `BundleStore.events()` reports it: what a
/// saved-cities screen refreshes on, and how an app learns to reopen a `TransitBundle` whose
/// file an update replaced (the open bundle keeps reading the old version until released).
///
/// ```swift
/// for await event in store.events() {
///     if case .updated(let id, _, _) = event, id == shown { bundle = try await store.open(id) }
/// }
/// ```
public enum StoreEvent: Sendable, Hashable {
    /// A bundle was installed where none was.
    case installed(id: String, contentHash: String)
    /// An installed bundle was replaced by another version (by a patch or a whole file).
    case updated(id: String, from: String, to: String)
    /// A bundle was removed: by `remove`, or evicted for the storage budget.
    case removed(id: String)
    /// The bytes installed bundles and their photos use changed.
    case usageChanged(usedBytes: Int64)
    /// The network changed, as `watchConnectivity()` heard it: an offline badge follows this.
    case connectivityChanged(NetworkPath)
}

/// The open `events()` streams of one store: each change goes to all of them.
final class StoreEventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [Int: AsyncStream<StoreEvent>.Continuation] = [:]
    private var nextKey = 0

    /// A new stream, ended when the caller stops iterating (or the store goes away).
    func stream() -> AsyncStream<StoreEvent> {
        AsyncStream(bufferingPolicy: .bufferingNewest(100)) { continuation in
            let key = lock.withLock {
                nextKey += 1
                continuations[nextKey] = continuation
                return nextKey
            }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                _ = self.lock.withLock { self.continuations.removeValue(forKey: key) }
            }
        }
    }

    func send(_ event: StoreEvent) {
        let targets = lock.withLock { Array(continuations.values) }
        for continuation in targets { continuation.yield(event) }
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }
}
