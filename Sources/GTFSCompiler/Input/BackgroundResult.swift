import Foundation

/// Runs a closure on another thread at once; `value()` waits for its result.
///
/// The closure is `sending`: what it captures is handed to the other thread and not used
/// here again, which the compiler checks. The semaphore orders every access to `result`.
final class BackgroundResult<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?
    private var work: (() throws -> T)?

    init(_ work: sending @escaping () throws -> T) {
        self.work = work
        Thread.detachNewThread { [self] in
            if let work = self.work { result = Result(catching: work) }
            self.work = nil
            done.signal()
        }
    }

    func value() throws -> T {
        done.wait()
        done.signal()
        guard let result else { throw CancellationError() }
        return try result.get()
    }
}
