import Foundation

/// Values appended from many threads (e.g. inside `DispatchQueue.concurrentPerform`).
public final class LockedList<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    public init() {}

    public func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    public var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
