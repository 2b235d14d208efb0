import BundleFormat
import Foundation

/// Read-only SQLite connections to one bundle, handed to one thread at a time.
/// A thread that finds none idle opens another, so queries never wait on each other.
final class ConnectionPool: @unchecked Sendable {
    private let path: String
    private var idle: [SQLiteDatabase] = []
    private let lock = NSLock()

    init(path: String, first: SQLiteDatabase) {
        self.path = path
        idle = [first]
    }

    func with<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        lock.lock()
        let connection = idle.popLast()
        lock.unlock()
        let db = try connection ?? Self.open(path)
        defer {
            lock.lock()
            idle.append(db)
            lock.unlock()
        }
        do {
            return try body(db)
        } catch let error as SQLiteError {
            throw TransitError.sqlite(code: error.code, message: error.message)
        }
    }

    static func open(_ path: String) throws -> SQLiteDatabase {
        do {
            let db = try SQLiteDatabase(path: path, writable: false)
            // Map the file into memory: page reads become memory reads, not system calls.
            try db.execute("PRAGMA query_only = 1; PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -8192")
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
            var tables = Set<String>()
            let list = try db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            while try list.step() { tables.insert(list.string(0)) }
            if let missing = BundleSchema.requiredTables.first(where: { !tables.contains($0) }) {
                throw TransitError.notABundle(path: path, reason: "table \(missing) is missing")
            }
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
