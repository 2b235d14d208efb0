import Foundation
import TransitRuntime

/// Values appended from many threads (e.g. inside `DispatchQueue.concurrentPerform`).
public final class LockedList<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    public init() {}

    public func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    public var values: [Value] {
        storage.withLock { $0 }
    }
}
