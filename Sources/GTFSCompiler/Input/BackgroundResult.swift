import Foundation

/// Runs a closure on another thread at once; `value()` waits for its result.
///
/// The work never outlives its handle: releasing a `BackgroundResult` whose value nobody
/// asked for (a compile that stops early) waits for the thread to finish, so no thread is
/// still running (hashing with libcrypto, say) when the process exits.
///
/// The closure is `sending`: what it captures is handed to the other thread and not used
/// here again, which the compiler checks. The semaphore orders every access to `result`.
final class BackgroundResult<T>: @unchecked Sendable {
    /// What the thread and the handle share; the thread holds this, not the handle.
    private final class Shared: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<T, Error>?
    }

    private let shared: Shared
    private let thread: JoinedThread

    init(_ work: sending @escaping () throws -> T) {
        let shared = Shared()
        let box = WorkBox(work)
        self.shared = shared
        thread = JoinedThread {
            shared.result = Result(catching: box.work)
            shared.done.signal()
        }
    }

    /// Joins the thread, whether or not anybody asked for the value.
    deinit { thread.join() }

    func value() throws -> T {
        shared.done.wait()
        shared.done.signal()
        guard let result = shared.result else { throw CancellationError() }
        return try result.get()
    }

    /// Hands the closure to exactly one other thread.
    private struct WorkBox: @unchecked Sendable {
        let work: () throws -> T
        init(_ work: sending @escaping () throws -> T) { self.work = work }
    }
}
