import Foundation

/// A dictionary shared between threads, guarded by a lock (hence `@unchecked`: NSLock is
/// what iOS 15 offers); values are computed outside the lock (two threads may compute the
/// same value once each, harmlessly).
final class LockedCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private var storage: [Key: Value] = [:]
    private let lock = NSLock()
    private let limit: Int

    /// `limit`: when exceeded, the cache is emptied (simple, and enough for date-keyed data).
    init(limit: Int = .max) { self.limit = limit }

    func contains(_ key: Key) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return storage[key] != nil
    }

    func insert(_ key: Key, _ value: Value) {
        lock.lock()
        if storage.count >= limit { storage.removeAll(keepingCapacity: true) }
        storage[key] = value
        lock.unlock()
    }

    /// Forgets every value (and the memory that held them).
    func removeAll() {
        lock.lock()
        storage = [:]
        lock.unlock()
    }

    func value(_ key: Key, compute: () throws -> Value) rethrows -> Value {
        lock.lock()
        if let value = storage[key] {
            lock.unlock()
            return value
        }
        lock.unlock()
        let value = try compute()
        lock.lock()
        if storage.count >= limit { storage.removeAll(keepingCapacity: true) }
        storage[key] = value
        lock.unlock()
        return value
    }
}
