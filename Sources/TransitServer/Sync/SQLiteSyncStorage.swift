import Foundation
import NIOPosix
import SyncFormat
import TransitSQLite

/// Riders' data in one SQLite file (`--sync-db sqlite:PATH`): WAL, `synchronous = FULL`,
/// every push in one `BEGIN IMMEDIATE` transaction (so that several servers on one machine
/// may share the file). The connection is used from one thread of its own, never from the
/// event loops.
final class SQLiteSyncStorage: SyncStorage, @unchecked Sendable {
    private let db: SQLiteDatabase
    private let thread = NIOThreadPool(numberOfThreads: 1)

    init(path: String) throws {
        do {
            db = try SQLiteDatabase(path: path, writable: true)
            try db.execute("PRAGMA busy_timeout = 10000")
            try db.execute("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = FULL")
            for statement in SyncStorageCoding.tables { try db.execute(statement) }
        } catch {
            throw ServerConfigurationError("--sync-db sqlite:\(path): \(error)")
        }
        thread.start()
    }

    func close() async { try? await thread.shutdownGracefully() }

    /// Runs `body` on the storage's thread (one at a time).
    private func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws -> T) async throws -> T {
        try await thread.runIfActive { [self] in try body(self.db) }
    }

    func rider(tokenHash: String) async throws -> String? {
        try await run { db in
            let rows = try db.cached("SELECT rider FROM sync_tokens WHERE hash = ?")
            defer { rows.reset() }
            rows.bind(1, tokenHash)
            return try rows.step() ? rows.string(0) : nil
        }
    }

    func addToken(rider: String, tokenHash: String, now: Int64) async throws {
        try await run { db in
            try db.cached("INSERT INTO sync_tokens (hash, rider, created_at) VALUES (?, ?, ?)").run(tokenHash, rider, Int(now))
        }
    }

    func push(rider: String, device: SyncDevice, actions: [SyncAction], now: Int64) async throws -> [SyncOutcome] {
        let actions = SyncStorageCoding.normalized(actions)
        return try await run { db in
            try db.writeTransaction {
                try db.cached("INSERT INTO sync_riders (rider, seq) VALUES (?, 0) ON CONFLICT (rider) DO NOTHING").run(rider)
                var seq = Int64(try Self.int(db, "SELECT seq FROM sync_riders WHERE rider = ?", rider))
                // Actions answered before keep their outcome (idempotent by id).
                var answered: [String: SyncOutcome] = [:]
                let known = try db.cached("SELECT outcome FROM sync_outcomes WHERE rider = ? AND action = ?")
                for action in actions where answered[action.id] == nil {
                    known.bind(1, rider)
                    known.bind(2, action.id)
                    if try known.step() { answered[action.id] = try SyncJSON.value(SyncOutcome.self, known.string(0)) }
                    known.reset()
                }
                var fields: [SyncFieldKey: SyncField] = [:]
                let load = try db.cached(
                    "SELECT field, value, ts, device, action FROM sync_fields WHERE rider = ? AND kind = ? AND id = ?")
                for entity in SyncStorageCoding.entities(of: actions.filter { answered[$0.id] == nil }) {
                    load.bind(1, rider)
                    load.bind(2, entity.kind.rawValue)
                    load.bind(3, entity.id)
                    while try load.step() {
                        let stamp = SyncStamp(timestamp: Int64(load.int(2)), deviceID: load.string(3), actionID: load.string(4))
                        let value = try SyncJSON.value(SyncValue.self, load.string(1))
                        fields[SyncFieldKey(entity, load.string(0))] = SyncField(value: value, stamp: stamp)
                    }
                    load.reset()
                }
                let notes = try Self.int(
                    db, "SELECT count(*) FROM sync_fields WHERE rider = ? AND kind = 'note' AND field = 'deleted' AND value = 'false'",
                    rider)
                let saved = try Self.int(
                    db, "SELECT count(*) FROM sync_fields WHERE rider = ? AND field = 'saved' AND value = 'true'", rider)
                var ledger = SyncLedger(fields: fields, liveNotes: notes, savedItems: saved)
                var outcomes: [SyncOutcome] = []
                let remember = try db.cached("INSERT INTO sync_outcomes (rider, action, outcome) VALUES (?, ?, ?)")
                for action in actions {
                    if let earlier = answered[action.id] {
                        outcomes.append(earlier)
                        continue
                    }
                    let outcome = ledger.apply(action, now: now)
                    answered[action.id] = outcome
                    outcomes.append(outcome)
                    try remember.run(rider, action.id, try SyncJSON.text(outcome))
                }
                let write = try db.cached(
                    """
                    INSERT INTO sync_fields (rider, kind, id, field, value, ts, device, action) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (rider, kind, id, field) DO UPDATE SET value = excluded.value, ts = excluded.ts,
                      device = excluded.device, action = excluded.action
                    """)
                let mark = try db.cached(
                    """
                    INSERT INTO sync_entities (rider, kind, id, seq) VALUES (?, ?, ?, ?)
                    ON CONFLICT (rider, kind, id) DO UPDATE SET seq = excluded.seq
                    """)
                var marked: Set<SyncEntity> = []
                for key in ledger.changed {
                    guard let field = ledger.fields[key] else { continue }
                    try write.run(
                        rider, key.entity.kind.rawValue, key.entity.id, key.field, try SyncJSON.text(field.value),
                        Int(field.stamp.timestamp), field.stamp.deviceID, field.stamp.actionID)
                    if marked.insert(key.entity).inserted {
                        seq += 1
                        try mark.run(rider, key.entity.kind.rawValue, key.entity.id, Int(seq))
                    }
                }
                try db.cached("UPDATE sync_riders SET seq = ? WHERE rider = ?").run(Int(seq), rider)
                try Self.touch(db, rider: rider, device: device, now: now)
                return outcomes
            }
        }
    }

    func pull(rider: String, after: Int64, limit: Int, device: String?, now: Int64) async throws -> SyncPage {
        try await run { db in
            try db.writeTransaction {
                let changed = try db.cached("SELECT kind, id, seq FROM sync_entities WHERE rider = ? AND seq > ? ORDER BY seq LIMIT ?")
                changed.bind(1, rider)
                changed.bind(2, Int(after))
                changed.bind(3, limit + 1)
                var entities: [(SyncEntity, Int64)] = []
                while try changed.step() {
                    guard let kind = SyncEntity.Kind(rawValue: changed.string(0)) else { continue }
                    entities.append((SyncEntity(kind: kind, id: changed.string(1)), Int64(changed.int(2))))
                }
                changed.reset()
                let more = entities.count > limit
                if more { entities.removeLast() }
                let load = try db.cached("SELECT field, value, ts, device, action FROM sync_fields WHERE rider = ? AND kind = ? AND id = ?")
                var records: [SyncRecord] = []
                for (entity, _) in entities {
                    load.bind(1, rider)
                    load.bind(2, entity.kind.rawValue)
                    load.bind(3, entity.id)
                    var fields: [String: SyncField] = [:]
                    while try load.step() {
                        let stamp = SyncStamp(timestamp: Int64(load.int(2)), deviceID: load.string(3), actionID: load.string(4))
                        fields[load.string(0)] = SyncField(value: try SyncJSON.value(SyncValue.self, load.string(1)), stamp: stamp)
                    }
                    load.reset()
                    records.append(SyncRecord(entity: entity, fields: fields))
                }
                if let device {
                    try db.cached("UPDATE sync_devices SET last_sync_at = ? WHERE rider = ? AND device = ?").run(Int(now), rider, device)
                }
                return SyncPage(records: records, last: entities.last?.1 ?? after, more: more)
            }
        }
    }

    func devices(rider: String) async throws -> [SyncDeviceRecord] {
        try await run { db in
            let rows = try db.cached(
                "SELECT device, name, type, app_version, last_sync_at FROM sync_devices WHERE rider = ? ORDER BY last_sync_at DESC, device")
            defer { rows.reset() }
            rows.bind(1, rider)
            var list: [SyncDeviceRecord] = []
            while try rows.step() {
                let device = SyncDevice(id: rows.string(0), name: rows.string(1), type: rows.string(2), appVersion: rows.string(3))
                list.append(SyncDeviceRecord(device: device, lastSyncAt: Int64(rows.int(4))))
            }
            return list
        }
    }

    private static func touch(_ db: SQLiteDatabase, rider: String, device: SyncDevice, now: Int64) throws {
        try db.cached(
            """
            INSERT INTO sync_devices (rider, device, name, type, app_version, last_sync_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (rider, device) DO UPDATE SET name = excluded.name, type = excluded.type,
              app_version = excluded.app_version, last_sync_at = excluded.last_sync_at
            """
        ).run(rider, device.id, device.name, device.type, device.appVersion, Int(now))
    }

    private static func int(_ db: SQLiteDatabase, _ sql: String, _ rider: String) throws -> Int {
        let rows = try db.cached(sql)
        defer { rows.reset() }
        rows.bind(1, rider)
        return try rows.step() ? rows.int(0) : 0
    }
}
