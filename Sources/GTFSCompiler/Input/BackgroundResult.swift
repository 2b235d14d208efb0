import Foundation

/// Runs a closure on another thread at once; `value()` waits for its result.
final class BackgroundResult<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?

    init(_ work: @escaping () throws -> T) {
        Thread.detachNewThread { [self] in
            result = Result(catching: work)
            done.signal()
        }
    }

    func value() throws -> T {
        done.wait()
        done.signal()
        return try result!.get()
    }
}
