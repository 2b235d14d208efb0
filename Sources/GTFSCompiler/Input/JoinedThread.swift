import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A thread that is joined, not detached: `join()` returns once the thread has ended
/// entirely, its own teardown included.
///
/// A detached `Thread` goes on running after its work signals that it is done: it releases
/// its closure and tears down its thread-local state. A compile refusing a broken feed
/// waited for that signal, then exited while the thread was still tearing down, and died
/// of SIGSEGV in exit's handlers about once in a few hundred runs (`ExitTests`). On Linux
/// the thread is a joinable pthread; elsewhere (untested here) a `Thread`, whose `join()`
/// waits for its body to have run, as its owners did before.
///
/// ```swift
/// let thread = JoinedThread { hashInput() }
/// thread.join()  // the thread no longer exists
/// ```
final class JoinedThread: @unchecked Sendable {
    #if os(Linux)
        private var thread: pthread_t?
    #endif
    /// Signalled once the body has run, for a thread that cannot be joined (a `Thread`).
    private var ended: DispatchSemaphore?
    private var joined = false

    init(_ body: @escaping @Sendable () -> Void) {
        #if os(Linux)
            let box = Unmanaged.passRetained(Body(body))
            var id = pthread_t()
            let started = pthread_create(
                &id, nil,
                { raw in
                    Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                    return nil
                }, box.toOpaque())
            if started == 0 {
                thread = id
                return
            }
            // No thread to be had (a process at its limit): a Foundation thread, as before.
            box.release()
        #endif
        let ended = DispatchSemaphore(value: 0)
        self.ended = ended
        Thread.detachNewThread {
            body()
            ended.signal()
        }
    }

    /// Waits for the thread to end (a `Thread`: for its body to have run); once only, later
    /// calls return at once. The owner calls it before it goes.
    func join() {
        guard !joined else { return }
        joined = true
        #if os(Linux)
            if let thread {
                pthread_join(thread, nil)
                return
            }
        #endif
        ended?.wait()
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
