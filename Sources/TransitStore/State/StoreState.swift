import BundleFormat
import Foundation

/// What the store knows, in its own small SQLite file (`store.sqlite` in the store's folder):
/// installed bundles, pending jobs, preferences and the last good manifest. Every change is
/// one transaction; bundles themselves are never written here.
final class StoreState {
    /// One installed bundle as recorded.
    struct Installed: Equatable {
        var id: String
        var contentHash: String
        var bytes: Int64
        var explicit: Bool
        var downloadedAt: Double
        var lastAccessedAt: Double
        var firstServiceDate: String?
        var lastServiceDate: String?
        /// The file's modification time (ns) when recorded: a cheap check that it is unchanged.
        var modified: Int64
    }

    /// A job not finished yet: resumed on the next start unless paused.
    struct Pending: Equatable {
        var id: String
        var explicit: Bool
        var paused: Bool
    }

    private static let schema = """
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = FULL;
        CREATE TABLE IF NOT EXISTS installed (
          id TEXT PRIMARY KEY, content_sha256 TEXT NOT NULL, bytes INTEGER NOT NULL, explicit INTEGER NOT NULL,
          downloaded_at REAL NOT NULL, last_accessed_at REAL NOT NULL, first_service_date TEXT, last_service_date TEXT,
          modified INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS jobs (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, explicit INTEGER NOT NULL,
          paused INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS preferences (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS catalogue (one INTEGER PRIMARY KEY CHECK (one = 1), source TEXT NOT NULL,
          fetched_at REAL NOT NULL, json BLOB NOT NULL);
        """

    private let db: SQLiteDatabase
    let path: String
    /// True when the file was missing or unreadable and has just been made anew.
    let isNew: Bool

    /// Opens the state file, or starts a new one when it is missing or damaged (the damaged
    /// file is kept beside it as `store.sqlite.damaged`).
    init(path: String) throws {
        self.path = path
        let existed = FileManager.default.fileExists(atPath: path)
        do {
            db = try Self.open(path)
            isNew = !existed
        } catch {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + ".damaged" + suffix)
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: path + ".damaged" + suffix)
            }
            do { db = try Self.open(path) } catch { throw StoreError.storage("cannot create \(path): \(error)") }
            isNew = true
        }
    }

    private static func open(_ path: String) throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: path, writable: true)
        try db.execute("PRAGMA busy_timeout = 10000")
        let check = try db.prepare("PRAGMA quick_check")
        _ = try check.step()
        let verdict = check.string(0)
        check.reset()
        guard verdict == "ok" else { throw StoreError.storage("state file damaged: \(verdict)") }
        try db.execute(schema)
        return db
    }

    /// Runs `body` in one write transaction.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try db.execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try db.execute("COMMIT")
            return result
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    // MARK: - Installed bundles

    func installed() throws -> [Installed] {
        let rows = try db.cached(
            """
            SELECT id, content_sha256, bytes, explicit, downloaded_at, last_accessed_at, first_service_date, last_service_date,
              modified FROM installed ORDER BY id
            """)
        var list: [Installed] = []
        while try rows.step() {
            list.append(
                Installed(
                    id: rows.string(0), contentHash: rows.string(1), bytes: Int64(rows.int(2)), explicit: rows.int(3) != 0,
                    downloadedAt: rows.double(4), lastAccessedAt: rows.double(5), firstServiceDate: rows.optionalString(6),
                    lastServiceDate: rows.optionalString(7), modified: Int64(rows.int(8))))
        }
        rows.reset()
        return list
    }

    func installed(_ id: String) throws -> Installed? { try installed().first { $0.id == id } }

    func save(_ bundle: Installed) throws {
        try db.cached(
            """
            INSERT OR REPLACE INTO installed (id, content_sha256, bytes, explicit, downloaded_at, last_accessed_at,
              first_service_date, last_service_date, modified) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).run(
            bundle.id, bundle.contentHash, Int(bundle.bytes), bundle.explicit, bundle.downloadedAt, bundle.lastAccessedAt,
            bundle.firstServiceDate, bundle.lastServiceDate, Int(bundle.modified))
    }

    func forget(_ id: String) throws {
        try db.cached("DELETE FROM installed WHERE id = ?").run(id)
    }

    func touch(_ id: String, at time: Double) throws {
        try db.cached("UPDATE installed SET last_accessed_at = ? WHERE id = ?").run(time, id)
    }

    // MARK: - Jobs

    func pending() throws -> [Pending] {
        let rows = try db.cached("SELECT id, explicit, paused FROM jobs ORDER BY seq")
        var list: [Pending] = []
        while try rows.step() { list.append(Pending(id: rows.string(0), explicit: rows.int(1) != 0, paused: rows.int(2) != 0)) }
        rows.reset()
        return list
    }

    /// Records a job (explicit wins over cached when the bundle was already queued).
    func enqueue(_ job: Pending) throws {
        try db.cached(
            """
            INSERT INTO jobs (id, explicit, paused) VALUES (?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET explicit = max(explicit, excluded.explicit), paused = excluded.paused
            """
        ).run(job.id, job.explicit, job.paused)
    }

    func setPaused(_ id: String, _ paused: Bool) throws {
        try db.cached("UPDATE jobs SET paused = ? WHERE id = ?").run(paused, id)
    }

    func finish(_ id: String) throws {
        try db.cached("DELETE FROM jobs WHERE id = ?").run(id)
    }

    // MARK: - Preferences and catalogue

    func preference(_ key: String) throws -> String? {
        let row = try db.cached("SELECT value FROM preferences WHERE key = ?")
        row.bind([key])
        defer { row.reset() }
        return try row.step() ? row.string(0) : nil
    }

    func setPreference(_ key: String, _ value: String?) throws {
        if let value {
            try db.cached("INSERT OR REPLACE INTO preferences (key, value) VALUES (?, ?)").run(key, value)
        } else {
            try db.cached("DELETE FROM preferences WHERE key = ?").run(key)
        }
    }

    func catalogue() throws -> (source: String, fetchedAt: Double, json: [UInt8])? {
        let row = try db.cached("SELECT source, fetched_at, json FROM catalogue WHERE one = 1")
        defer { row.reset() }
        return try row.step() ? (row.string(0), row.double(1), row.blob(2)) : nil
    }

    func saveCatalogue(source: String, fetchedAt: Double, json: [UInt8]) throws {
        try db.cached("INSERT OR REPLACE INTO catalogue (one, source, fetched_at, json) VALUES (1, ?, ?, ?)").run(
            source, fetchedAt, json)
    }
}
