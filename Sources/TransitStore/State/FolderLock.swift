import Foundation

/// An advisory lock on a file of the store's folder (`flock(2)`), shared by every process and
/// every `BundleStore` that opens the folder. Each acquisition opens the file anew, so two
/// stores in one process exclude each other as two processes do.
///
/// The store uses two: `jobs.lock`, held by the one store that runs downloads (the others
/// queue theirs in the shared state and wait), and `state.lock`, held for the short steps
/// that must not interleave with another process's (install and record, remove, start-up's
/// clean-up and check). Neither is ever held across a network transfer of another lock's
/// holder, so they cannot deadlock.
final class FolderLock: @unchecked Sendable {
    let path: String
    private var fd: Int32 = -1

    init(path: String) {
        self.path = path
    }

    deinit { unlock() }

    /// Takes the lock without waiting; false when another holder has it.
    /// - Throws: `StoreError.storage` when the lock file cannot be opened.
    func tryLock() throws -> Bool {
        try acquire(blocking: false)
    }

    /// Waits for the lock (for the state lock: held by others only for short steps).
    func lock() throws {
        _ = try acquire(blocking: true)
    }

    func unlock() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        try lock()
        defer { unlock() }
        return try body()
    }

    private func acquire(blocking: Bool) throws -> Bool {
        if fd >= 0 { return true }
        var opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if opened < 0 && (errno == EROFS || errno == EACCES) {
            // A folder the process may only read (a read-only mount, a shared copy): an existing
            // lock file is locked through a read-only descriptor; without one, nobody can
            // change the folder, so there is nothing to lock against.
            opened = open(path, O_RDONLY | O_CLOEXEC)
            if opened < 0 && errno == ENOENT { return true }
        }
        guard opened >= 0 else {
            throw StoreError.storage("cannot open the lock \(path): \(String(cString: strerror(errno)))")
        }
        while flock(opened, LOCK_EX | (blocking ? 0 : LOCK_NB)) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(opened)
            if code == EWOULDBLOCK { return false }
            throw StoreError.storage("cannot lock \(path): \(String(cString: strerror(code)))")
        }
        fd = opened
        return true
    }
}
