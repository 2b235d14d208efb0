import BundleFormat
import Foundation
import TransitSQLite

/// Read-only SQLite connections to one bundle, handed to one thread at a time.
/// A thread that finds none idle opens another, so queries never wait on each other, as long
/// as the path still names the file the first connection opened. Once the file has been
/// replaced (a store installing a newer version renames over it), the pool opens no more
/// connections and threads share the ones it has: every answer keeps coming from the version
/// this bundle was opened on, until it is closed.
package final class ConnectionPool: @unchecked Sendable {
    private let path: String
    private let identity: FileIdentity?
    private var idle: [SQLiteDatabase] = []
    private var replaced = false
    private let condition = NSCondition()

    init(path: String, first: SQLiteDatabase, identity: FileIdentity?) {
        self.path = path
        self.identity = identity
        idle = [first]
    }

    package func with<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T { try with(handing: try take(), body) }

    /// `body` on `db`, taken from the pool, which gets it back after.
    private func with<T>(handing db: SQLiteDatabase, _ body: (SQLiteDatabase) throws -> T) throws -> T {
        defer {
            // An error may have ended the connection's read transaction: it gets a new one.
            if !db.isInTransaction { try? db.execute("BEGIN") }
            condition.lock()
            idle.append(db)
            condition.signal()
            condition.unlock()
        }
        do {
            return try body(db)
        } catch let error as SQLiteError {
            // SQLITE_CORRUPT and SQLITE_NOTADB: the file's content is damaged.
            if error.code == 11 || error.code == 26 { throw TransitError.corruptBundle(reason: error.message) }
            // SQLITE_TOOBIG: a value past the connection's limit (`open`).
            if error.code == 18 {
                throw TransitError.corruptBundle(reason: "a value of the bundle is larger than \(BundleLimits.maxValueBytes) bytes")
            }
            throw TransitError.sqlite(code: error.code, message: error.message)
        }
    }

    /// `body` on an idle connection or a new one on the same file, nil when neither is
    /// there without waiting (the file replaced and every connection busy, or none opens):
    /// for work that can also be done on a connection the caller holds, which waiting could
    /// deadlock.
    package func withSpare<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T? {
        condition.lock()
        let db = (try? idleOrNew()) ?? nil
        condition.unlock()
        guard let db else { return nil }
        return try with(handing: db, body)
    }

    /// An idle connection, a new one on the same file, or (the file replaced) the next to be freed.
    private func take() throws -> SQLiteDatabase {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let db = try idleOrNew() { return db }
            condition.wait()
        }
    }

    /// An idle connection or a new one on the same file; nil once the file has been
    /// replaced. Called with `condition` locked.
    private func idleOrNew() throws -> SQLiteDatabase? {
        if let db = idle.popLast() { return db }
        guard !replaced else { return nil }
        // Checked before and after opening: the old file stays open here, so its identity
        // cannot be reused by another file in between.
        if identity == FileIdentity(path: path) {
            let db = try Self.open(path)
            if identity == FileIdentity(path: path) { return db }
        }
        replaced = true
        return nil
    }

    static func open(_ path: String) throws -> SQLiteDatabase {
        do {
            let db = try SQLiteDatabase(path: path, writable: false)
            // A value past `BundleLimits.maxValueBytes` is refused before it is copied.
            db.limitValueLength(to: BundleLimits.maxValueBytes)
            // Map the file into memory: page reads become memory reads, not system calls.
            // trusted_schema off: functions with side effects are refused inside views,
            // triggers and indexes of the file, which comes from outside.
            try db.execute(
                "PRAGMA query_only = 1; PRAGMA trusted_schema = OFF; PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -8192")
            // One read transaction for the connection's life: in autocommit mode each
            // statement takes and drops a shared lock on the file and rereads its header
            // (system calls; a one-row lookup took about 8 µs that way, 2 to 3 µs inside a
            // transaction). Nothing writes a bundle in place (a new version is renamed over
            // the path), so the lock held stops no one.
            try db.execute("BEGIN")
            return db
        } catch let error as SQLiteError {
            throw TransitError.notABundle(path: path, reason: error.message)
        }
    }

    /// Refuses anything but a readable regular file that starts like an SQLite database,
    /// before SQLite sees it: a folder, a FIFO (opening it would block) or a device.
    private static func checkHeader(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TransitError.notABundle(path: path, reason: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw TransitError.notABundle(path: path, reason: "it is a folder, not a file")
        default: throw TransitError.notABundle(path: path, reason: "not a regular file")
        }
        let fd = openWithoutBlocking(path)
        guard fd >= 0 else {
            throw TransitError.notABundle(path: path, reason: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        let got = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 16) }
        guard got >= 0 else {
            throw TransitError.notABundle(path: path, reason: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        guard got == 16 else {
            throw TransitError.notABundle(path: path, reason: got == 0 ? "the file is empty" : "the file is truncated")
        }
        guard header == Array("SQLite format 3\0".utf8) else {
            throw TransitError.notABundle(path: path, reason: "not an SQLite database")
        }
    }

    /// Opens `path` and checks that it is a bundle this runtime can read.
    static func openChecked(_ path: String) throws -> SQLiteDatabase {
        try checkHeader(path)
        let db = try open(path)
        do {
            // Before any table is read: each must be a table, not a view that computes anything.
            try BundleCheck.checkTables(db, path: path)
            let application = try db.scalarInt("PRAGMA application_id")
            guard application == Int(BundleSchema.applicationID) else {
                throw TransitError.notABundle(
                    path: path, reason: "an SQLite database of another application (application_id \(application ?? 0))")
            }
            let version = try db.prepare("SELECT value FROM metadata WHERE key = 'schema_version'")
            guard try version.step(), let found = Int(version.string(0)) else {
                throw TransitError.notABundle(path: path, reason: "no schema version")
            }
            guard found <= BundleSchema.version else {
                throw TransitError.unsupportedSchemaVersion(found: found, supported: BundleSchema.version)
            }
            guard found == BundleSchema.version else {
                throw TransitError.notABundle(
                    path: path, reason: "schema version \(found) is older than this runtime reads (\(BundleSchema.version))")
            }
        } catch let error as SQLiteError {
            throw TransitError.notABundle(path: path, reason: error.message)
        }
        return db
    }
}

/// `open(2)` read-only and non-blocking (a FIFO does not wait for a writer); outside the
/// pool type, whose own `open` would shadow the system call.
private func openWithoutBlocking(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_NONBLOCK)
}

/// A file's device and inode: which file a path names at a moment.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
