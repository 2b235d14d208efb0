import Foundation

/// A value guarded by a lock: the one lock type of the libraries (the runtime's caches, the
/// store's jobs and transports, the tests' shared lists). The standard library's `Mutex`
/// needs newer Apple systems than the package supports; `NSLock` is on all of them.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// ```
package final class Locked<Value>: @unchecked Sendable {
    /// Reached only under `lock` (a second `withLock` on the same thread would deadlock on
    /// the lock before it could overlap an access), so the runtime's exclusivity check on
    /// every use, a thread-local lookup, is left out.
    @exclusivity(unchecked) private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
