import Foundation
import TransitStore

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

    /// Opens `path` and checks that it is a bundle this runtime can read.
    static func openChecked(_ path: String) throws -> SQLiteDatabase {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TransitError.notABundle(path: path, reason: "cannot open the file")
        }
        let header = handle.readData(ofLength: 16)
        try? handle.close()
        guard header.count == 16 else {
            throw TransitError.notABundle(path: path, reason: header.isEmpty ? "the file is empty" : "the file is truncated")
        }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw TransitError.notABundle(path: path, reason: "not an SQLite database")
        }
        let db = try open(path)
        do {
            var tables = Set<String>()
            let list = try db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            while try list.step() { tables.insert(list.string(0)) }
            if let missing = BundleSchema.requiredTables.first(where: { !tables.contains($0) }) {
                throw TransitError.notABundle(path: path, reason: "table \(missing) is missing")
            }
            let version = try db.prepare("SELECT value FROM metadata WHERE key = 'schema_version'")
            guard try version.step(), let found = Int(version.string(0)) else {
                throw TransitError.notABundle(path: path, reason: "no schema version")
            }
            guard found <= BundleSchema.version else {
                throw TransitError.unsupportedSchemaVersion(found: found, supported: BundleSchema.version)
            }
            guard found == BundleSchema.version else {
                throw TransitError.notABundle(path: path, reason: "schema version \(found) is older than this runtime reads (\(BundleSchema.version))")
            }
        } catch let error as SQLiteError {
            throw TransitError.notABundle(path: path, reason: error.message)
        }
        return db
    }
}
