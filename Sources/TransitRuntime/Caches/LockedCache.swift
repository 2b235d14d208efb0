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

    /// The values kept for `keys`, and the keys without one (in order, repeats and all),
    /// under one lock.
    func lookUp(_ keys: [Key]) -> (found: [(Key, Value)], missing: [Key]) {
        storage.withLock { kept in
            var found: [(Key, Value)] = []
            found.reserveCapacity(keys.count)
            var missing: [Key] = []
            for key in keys {
                if let value = kept[key] { found.append((key, value)) } else { missing.append(key) }
            }
            return (found, missing)
        }
    }

    /// Keeps every value of `pairs`, under one lock.
    func insert(contentsOf pairs: [(Key, Value)]) {
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
