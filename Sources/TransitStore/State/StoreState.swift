import Foundation
import TransitSQLite

/// What the store knows, in its own small SQLite file (`store.sqlite` in the store's folder):
/// installed bundles, pending jobs, preferences and the last good manifest. Every change is
/// one transaction; bundles themselves are never written here.
///
/// The file's layout has a version (`PRAGMA user_version`, `StoreState.version`); opening an
/// older file migrates it step by step in one transaction, a newer one is refused. Only a
/// file SQLite finds damaged is set aside and made anew: a full disk, a read-only folder or a
/// lock held too long is a storage error, and the file is left as it is.
final class StoreState {
    /// The layout this code writes: 1 (unversioned, the first release), 2 (jobs remember their
    /// failure and the transport's resume data; the manifest its base URL after redirects),
    /// 3 (city photos; the history of jobs).
    static let version = 3
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
        /// Why the last attempt failed; a failed job waits to be asked for again.
        var failure: String? = nil
        /// The transport's resume data from the last attempt.
        var resumeData: Data? = nil

        /// Runs when the worker gets to it (not paused, not failed).
        var isRunnable: Bool { !paused && failure == nil }
    }

    /// Layout 1, as the first release created it (kept as it was: migrations start from it).
    private static let layout1 = """
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

    /// Each step takes the layout from version N to N + 1.
    private static let migrations: [String] = [
        layout1,
        """
        ALTER TABLE jobs ADD COLUMN failure TEXT;
        ALTER TABLE jobs ADD COLUMN resume_data BLOB;
        ALTER TABLE catalogue ADD COLUMN base TEXT;
        """,
        """
        CREATE TABLE photos (bundle_id TEXT NOT NULL, url TEXT NOT NULL, city_id TEXT NOT NULL, image_id TEXT,
          type TEXT NOT NULL, listed_bytes INTEGER, file TEXT, bytes INTEGER NOT NULL DEFAULT 0, failure TEXT,
          refused INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (bundle_id, url));
        CREATE TABLE job_history (job_id TEXT PRIMARY KEY, bundle_id TEXT NOT NULL, explicit INTEGER NOT NULL,
          started_at REAL NOT NULL, finished_at REAL, state TEXT NOT NULL, error_code TEXT, error_message TEXT);
        """,
    ]

    let db: SQLiteDatabase
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
        } catch is Damage {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + ".damaged" + suffix)
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: path + ".damaged" + suffix)
            }
            do { db = try Self.open(path) } catch { throw StoreError.storage("cannot create \(path): \(Self.explain(error))") }
            isNew = true
        } catch {
            throw Self.storeError(error, "cannot open \(path)")
        }
    }

    /// The file is not a database SQLite can read, or its check failed.
    private struct Damage: Error {}

    private static func open(_ path: String) throws -> SQLiteDatabase {
        let db: SQLiteDatabase
        do {
            db = try SQLiteDatabase(path: path, writable: true)
            try db.execute("PRAGMA busy_timeout = 10000")
            let check = try db.prepare("PRAGMA quick_check")
            _ = try check.step()
            let verdict = check.string(0)
            check.reset()
            guard verdict == "ok" else { throw Damage() }
        } catch let error as SQLiteError where [11, 26].contains(error.code & 0xff) {
            throw Damage()  // SQLITE_CORRUPT, SQLITE_NOTADB
        }
        // A rollback journal, not WAL: reading needs no file of its own (on a full disk too),
        // and two processes share the file through SQLite's locks.
        try? db.execute("PRAGMA journal_mode = DELETE")
        try db.execute("PRAGMA synchronous = FULL")
        try migrate(db)
        return db
    }

    /// Brings the layout to `version`, one step after another, in one transaction.
    private static func migrate(_ db: SQLiteDatabase) throws {
        let found = try db.scalarInt("PRAGMA user_version") ?? 0
        if found == version { return }
        guard found < version else {
            throw StoreError.storage("the state file has layout \(found), newer than this version of the store reads (\(version))")
        }
        // migrations[N] takes layout N to N + 1; an unversioned file (0) is new or layout 1,
        // whose tables the first step creates only when missing.
        try db.execute("BEGIN IMMEDIATE")
        do {
            for step in migrations[found..<version] { try db.execute(step) }
            try db.execute("PRAGMA user_version = \(version); COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// The store's error for a failure of the state file: a full device is `noSpace`.
    static func storeError(_ error: Error, _ context: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let sqlite = error as? SQLiteError, sqlite.code & 0xff == 13 { return .noSpace("\(context): the state file cannot grow") }
        return .storage("\(context): \(explain(error))")
    }

    /// A person's words for a failure of the state file: a full device says so.
    static func explain(_ error: Error) -> String {
        guard let sqlite = error as? SQLiteError else { return "\(error)" }
        switch sqlite.code & 0xff {
        case 13: return "the device is full (free some space, e.g. transit-store remove ID)"
        case 8: return "the state file is read-only"
        case 14: return "the state file cannot be opened (missing folder or permissions)"
        case 5, 6: return "another process holds the state file (timed out waiting for it)"
        case 10: return "input/output error (\(sqlite.message))"
        default: return sqlite.description
        }
    }

    /// Runs `body` in one write transaction.
    func transaction<T>(_ body: () throws -> T) throws -> T { try db.writeTransaction(body) }

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
        let rows = try db.cached("SELECT id, explicit, paused, failure, resume_data FROM jobs ORDER BY seq")
        var list: [Pending] = []
        while try rows.step() {
            list.append(
                Pending(
                    id: rows.string(0), explicit: rows.int(1) != 0, paused: rows.int(2) != 0, failure: rows.optionalString(3),
                    resumeData: rows.isNull(4) ? nil : Data(rows.blob(4))))
        }
        rows.reset()
        return list
    }

    func pending(_ id: String) throws -> Pending? { try pending().first { $0.id == id } }

    /// Records a job (explicit wins over cached when the bundle was already queued; asking
    /// again clears a failure and keeps the resume data).
    func enqueue(_ job: Pending) throws {
        try db.cached(
            """
            INSERT INTO jobs (id, explicit, paused) VALUES (?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET explicit = max(explicit, excluded.explicit), paused = excluded.paused, failure = NULL
            """
        ).run(job.id, job.explicit, job.paused)
    }

    /// Marks a queued job explicit (pinned) or cached.
    func setExplicit(_ id: String, _ explicit: Bool) throws {
        try db.cached("UPDATE jobs SET explicit = ? WHERE id = ?").run(explicit, id)
    }

    /// Ends an attempt that failed; the job waits (with its resume data) until asked for again.
    func fail(_ id: String, reason: String, resumeData: Data?) throws {
        try db.cached("UPDATE jobs SET failure = ?, resume_data = ? WHERE id = ?").run(reason, resumeData.map { [UInt8]($0) }, id)
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

    /// The last good manifest: where it was asked for, the URL it came from (after
    /// redirects; its file names resolve against it), when, and its bytes.
    func catalogue() throws -> (source: String, base: String, fetchedAt: Double, json: [UInt8])? {
        let row = try db.cached("SELECT source, base, fetched_at, json FROM catalogue WHERE one = 1")
        defer { row.reset() }
        return try row.step() ? (row.string(0), row.optionalString(1) ?? row.string(0), row.double(2), row.blob(3)) : nil
    }

    func saveCatalogue(source: String, base: String, fetchedAt: Double, json: [UInt8]) throws {
        try db.cached("INSERT OR REPLACE INTO catalogue (one, source, base, fetched_at, json) VALUES (1, ?, ?, ?, ?)").run(
            source, base, fetchedAt, json)
    }
}
