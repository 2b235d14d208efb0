import Foundation
import SyncFormat
import TransitSQLite

/// The device's rider data in its own SQLite file (`rider.sqlite` in the store's folder):
/// the fields as the device shows them with their stamps, the outbox, and the local-only
/// values (the device id, the cursor). WAL with `synchronous = FULL`: a change is on disk
/// when it returns, and a local change costs one WAL append.
final class RiderDataState {
    private let db: SQLiteDatabase
    let path: String

    private static let layout = """
        CREATE TABLE IF NOT EXISTS fields (kind TEXT NOT NULL, id TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL,
          ts INTEGER NOT NULL, device TEXT NOT NULL, action TEXT NOT NULL, PRIMARY KEY (kind, id, field));
        CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, action TEXT NOT NULL,
          status TEXT NOT NULL, retry_count INTEGER NOT NULL DEFAULT 0, last_attempt_at INTEGER, error TEXT, winner TEXT,
          dismissed INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX IF NOT EXISTS outbox_status ON outbox (status, seq);
        CREATE TABLE IF NOT EXISTS local (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """

    init(path: String) throws {
        self.path = path
        do {
            db = try SQLiteDatabase(path: path, writable: true)
            try db.execute("PRAGMA busy_timeout = 10000")
            try db.execute("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = FULL")
            try db.execute(Self.layout)
            // A sync cut short (the app killed mid-request) sends those actions again.
            try db.execute("UPDATE outbox SET status = 'PENDING' WHERE status = 'SYNCING'")
        } catch {
            throw SyncError.storage("\(path): \(error)")
        }
    }

    func transaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try db.writeTransaction(body)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.storage("\(path): \(error)")
        }
    }

    // MARK: - Local values

    func local(_ key: String) throws -> String? {
        let rows = try db.cached("SELECT value FROM local WHERE key = ?")
        defer { rows.reset() }
        rows.bind(1, key)
        return try rows.step() ? rows.string(0) : nil
    }

    func setLocal(_ key: String, _ value: String?) throws {
        if let value {
            try db.cached("INSERT INTO local (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
                key, value)
        } else {
            try db.cached("DELETE FROM local WHERE key = ?").run(key)
        }
    }

    // MARK: - Fields

    func field(_ key: SyncFieldKey) throws -> SyncField? {
        let rows = try db.cached("SELECT value, ts, device, action FROM fields WHERE kind = ? AND id = ? AND field = ?")
        defer { rows.reset() }
        rows.bind(1, key.entity.kind.rawValue)
        rows.bind(2, key.entity.id)
        rows.bind(3, key.field)
        guard try rows.step() else { return nil }
        return SyncField(
            value: try SyncJSON.value(SyncValue.self, rows.string(0)),
            stamp: SyncStamp(timestamp: Int64(rows.int(1)), deviceID: rows.string(2), actionID: rows.string(3)))
    }

    func setField(_ key: SyncFieldKey, _ field: SyncField) throws {
        try db.cached(
            """
            INSERT INTO fields (kind, id, field, value, ts, device, action) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (kind, id, field) DO UPDATE SET value = excluded.value, ts = excluded.ts, device = excluded.device,
              action = excluded.action
            """
        ).run(
            key.entity.kind.rawValue, key.entity.id, key.field, try SyncJSON.text(field.value), Int(field.stamp.timestamp),
            field.stamp.deviceID, field.stamp.actionID)
    }

    func removeField(_ key: SyncFieldKey) throws {
        try db.cached("DELETE FROM fields WHERE kind = ? AND id = ? AND field = ?").run(
            key.entity.kind.rawValue, key.entity.id, key.field)
    }

    /// Every field of entities of `kinds`, by entity.
    func entities(of kinds: [SyncEntity.Kind]) throws -> [SyncEntity: [String: SyncField]] {
        let rows = try db.cached("SELECT kind, id, field, value, ts, device, action FROM fields ORDER BY kind, id")
        defer { rows.reset() }
        var found: [SyncEntity: [String: SyncField]] = [:]
        while try rows.step() {
            guard let kind = SyncEntity.Kind(rawValue: rows.string(0)), kinds.contains(kind) else { continue }
            let stamp = SyncStamp(timestamp: Int64(rows.int(4)), deviceID: rows.string(5), actionID: rows.string(6))
            found[SyncEntity(kind: kind, id: rows.string(1)), default: [:]][rows.string(2)] = SyncField(
                value: try SyncJSON.value(SyncValue.self, rows.string(3)), stamp: stamp)
        }
        return found
    }

    /// Every field key held.
    func allFieldKeys() throws -> [SyncFieldKey] {
        try entities(of: SyncEntity.Kind.allCases).flatMap { entity, fields in fields.keys.map { SyncFieldKey(entity, $0) } }
    }

    func count(field: String, value: String, kinds: [SyncEntity.Kind]) throws -> Int {
        let rows = try db.cached("SELECT kind, count(*) FROM fields WHERE field = ? AND value = ? GROUP BY kind")
        defer { rows.reset() }
        rows.bind(1, field)
        rows.bind(2, value)
        var total = 0
        while try rows.step() {
            if kinds.contains(where: { $0.rawValue == rows.string(0) }) { total += rows.int(1) }
        }
        return total
    }

    // MARK: - Outbox

    func enqueue(_ action: SyncAction) throws {
        try db.cached("INSERT INTO outbox (id, action, status) VALUES (?, ?, 'PENDING')").run(action.id, try SyncJSON.text(action))
    }

    /// Entries with one of `statuses`, in the order made (at most `limit`).
    func outbox(_ statuses: [OutboxEntry.Status], limit: Int = Int.max, includeDismissed: Bool = true) throws -> [OutboxEntry] {
        let rows = try db.cached(
            "SELECT action, status, retry_count, last_attempt_at, error, winner, dismissed FROM outbox ORDER BY seq")
        defer { rows.reset() }
        var list: [OutboxEntry] = []
        while list.count < limit, try rows.step() {
            guard let status = OutboxEntry.Status(rawValue: rows.string(1)), statuses.contains(status) else { continue }
            if !includeDismissed && rows.int(6) != 0 { continue }
            list.append(
                OutboxEntry(
                    action: try SyncJSON.value(SyncAction.self, rows.string(0)), status: status, retryCount: rows.int(2),
                    lastAttemptAt: rows.optionalInt(3).map(Int64.init), error: rows.optionalString(4),
                    winner: try rows.optionalString(5).map { try SyncJSON.value(SyncRecord.self, $0) }))
        }
        return list
    }

    func pendingCount() throws -> Int {
        try db.scalarInt("SELECT count(*) FROM outbox WHERE status IN ('PENDING', 'SYNCING')") ?? 0
    }

    func update(_ entry: OutboxEntry) throws {
        try db.cached("UPDATE outbox SET status = ?, retry_count = ?, last_attempt_at = ?, error = ?, winner = ? WHERE id = ?").run(
            entry.status.rawValue, entry.retryCount, entry.lastAttemptAt.map(Int.init), entry.error,
            try entry.winner.map(SyncJSON.text), entry.action.id)
    }

    func removeEntry(_ id: String) throws {
        try db.cached("DELETE FROM outbox WHERE id = ?").run(id)
    }

    func dismissConflicts() throws {
        try db.execute("UPDATE outbox SET dismissed = 1 WHERE status = 'CONFLICT'")
    }

    /// Keeps the `keep` most recent ended entries (`SUCCESS`, and dismissed conflicts).
    func trimHistory(keeping keep: Int) throws {
        try db.cached(
            """
            DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox WHERE status = 'SUCCESS' OR (status = 'CONFLICT' AND dismissed = 1)
              ORDER BY seq DESC LIMIT -1 OFFSET ?)
            """
        ).run(keep)
    }
}
