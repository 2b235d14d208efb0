/// A dictionary shared between threads, guarded by a `Locked` box; values are computed
/// outside the lock (two threads may compute the same value once each, harmlessly).
final class LockedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let storage = Locked<[Key: Value]>([:])
    private let limit: Int

    /// `limit`: when exceeded, the cache is emptied (simple, and enough for date-keyed data).
    init(limit: Int = .max) { self.limit = limit }

    func contains(_ key: Key) -> Bool {
        storage.withLock { $0[key] != nil }
    }

    /// The value kept for `key`, if any.
    func cached(_ key: Key) -> Value? {
        storage.withLock { $0[key] }
    }

    func insert(_ key: Key, _ value: Value) {
        storage.withLock {
            if $0.count >= limit { $0.removeAll(keepingCapacity: true) }
            $0[key] = value
        }
    }

    /// `body`'s answer, given the values kept, under one lock.
    func withValues<T>(_ body: ([Key: Value]) -> T) -> T {
        storage.withLock { body($0) }
    }

    /// Makes room for `count` more values (inserted together later: one growth of the
    /// table instead of several), unless that would pass the limit.
    func reserveCapacity(more count: Int) {
        storage.withLock { if $0.count + count <= limit { $0.reserveCapacity($0.count + count) } }
    }

    /// Keeps every value of `pairs`, under one lock (a lazy map of another collection
    /// copies no pair into an array first).
    func insert<Pairs: Collection>(contentsOf pairs: Pairs) where Pairs.Element == (Key, Value) {
        storage.withLock {
            if $0.count + pairs.count > limit { $0.removeAll(keepingCapacity: true) }
            for (key, value) in pairs { $0[key] = value }
        }
    }

    /// Forgets every value (and the memory that held them).
    func removeAll() {
        storage.withLock { $0 = [:] }
    }

    func value(_ key: Key, compute: () throws -> Value) rethrows -> Value {
        if let value = storage.withLock({ $0[key] }) { return value }
        let value = try compute()
        insert(key, value)
        return value
    }
}
