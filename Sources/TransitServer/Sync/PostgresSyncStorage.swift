import Foundation
import Logging
import PostgresNIO
import SyncFormat

/// Riders' data in PostgreSQL (`--sync-db postgres://...`), for several replicas sharing one
/// database. A push is one transaction that first locks the rider's row (`FOR UPDATE`), so
/// one rider's pushes apply one after another whichever replica takes them, and the
/// positions a pull reads only grow; rows travel in arrays (`unnest`), not one query each.
final class PostgresSyncStorage: SyncStorage {
    private let client: PostgresClient
    private let running: Task<Void, Never>
    private let logger = Logger(label: "transit-server.sync")

    init(host: String, port: Int, user: String, password: String?, database: String) async throws {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
        configuration.options.maximumConnections = 8
        // The client's own log says "run() not called yet" while its task starts: errors only.
        var background = Logger(label: "transit-server.postgres")
        background.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: background)
        self.client = client
        running = Task { await client.run() }
        do {
            try await client.withTransaction(logger: logger) { connection in
                // Replicas starting together make the tables one at a time.
                try await connection.query("SELECT pg_advisory_xact_lock(6906906)", logger: self.logger)
                for statement in SyncStorageCoding.tables {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
            }
        } catch {
            running.cancel()
            await running.value
            throw ServerConfigurationError("--sync-db postgres://\(user)@\(host):\(port)/\(database): \(String(reflecting: error))")
        }
    }

    func close() async {
        running.cancel()
        await running.value
    }

    func rider(tokenHash: String) async throws -> String? {
        let rows = try await client.query("SELECT rider FROM sync_tokens WHERE hash = \(tokenHash)", logger: logger)
        for try await row in rows { return try row.decode(String.self) }
        return nil
    }

    func addToken(rider: String, tokenHash: String, now: Int64) async throws {
        try await client.query(
            "INSERT INTO sync_tokens (hash, rider, created_at) VALUES (\(tokenHash), \(rider), \(now))", logger: logger)
    }

    func push(rider: String, device: SyncDevice, actions: [SyncAction], now: Int64) async throws -> [SyncOutcome] {
        let actions = SyncStorageCoding.normalized(actions)
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                "INSERT INTO sync_riders (rider, seq) VALUES (\(rider), 0) ON CONFLICT (rider) DO NOTHING", logger: logger)
            var seq: Int64 = 0
            for try await row in try await connection.query(
                "SELECT seq FROM sync_riders WHERE rider = \(rider) FOR UPDATE", logger: logger)
            {
                seq = try row.decode(Int64.self)
            }
            var answered: [String: SyncOutcome] = [:]
            let ids = actions.map(\.id)
            for try await (action, text) in try await connection.query(
                "SELECT action, outcome FROM sync_outcomes WHERE rider = \(rider) AND action = ANY(\(ids))", logger: logger
            ).decode((String, String).self) {
                answered[action] = try SyncJSON.value(SyncOutcome.self, text)
            }
            let entities = SyncStorageCoding.entities(of: actions.filter { answered[$0.id] == nil })
            var fields: [SyncFieldKey: SyncField] = [:]
            if !entities.isEmpty {
                let kinds = entities.map(\.kind.rawValue)
                let entityIDs = entities.map(\.id)
                for try await (kind, id, field, value, ts, deviceID, actionID) in try await connection.query(
                    """
                    SELECT f.kind, f.id, f.field, f.value, f.ts, f.device, f.action FROM sync_fields f
                    JOIN unnest(\(kinds)::text[], \(entityIDs)::text[]) AS e(kind, id) ON f.kind = e.kind AND f.id = e.id
                    WHERE f.rider = \(rider)
                    """, logger: logger
                ).decode((String, String, String, String, Int64, String, String).self) {
                    guard let kind = SyncEntity.Kind(rawValue: kind) else { continue }
                    let stamp = SyncStamp(timestamp: ts, deviceID: deviceID, actionID: actionID)
                    fields[SyncFieldKey(SyncEntity(kind: kind, id: id), field)] = SyncField(
                        value: try SyncJSON.value(SyncValue.self, value), stamp: stamp)
                }
            }
            var notes = 0
            var saved = 0
            for try await (live, kept) in try await connection.query(
                """
                SELECT count(*) FILTER (WHERE kind = 'note' AND field = 'deleted' AND value = 'false'),
                  count(*) FILTER (WHERE field = 'saved' AND value = 'true') FROM sync_fields WHERE rider = \(rider)
                """, logger: logger
            ).decode((Int64, Int64).self) {
                notes = Int(live)
                saved = Int(kept)
            }
            var ledger = SyncLedger(fields: fields, liveNotes: notes, savedItems: saved)
            var outcomes: [SyncOutcome] = []
            var newIDs: [String] = []
            var newOutcomes: [String] = []
            for action in actions {
                if let earlier = answered[action.id] {
                    outcomes.append(earlier)
                    continue
                }
                let outcome = ledger.apply(action, now: now)
                answered[action.id] = outcome
                outcomes.append(outcome)
                newIDs.append(action.id)
                newOutcomes.append(try SyncJSON.text(outcome))
            }
            if !newIDs.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO sync_outcomes (rider, action, outcome)
                    SELECT \(rider), a, o FROM unnest(\(newIDs)::text[], \(newOutcomes)::text[]) AS n(a, o)
                    """, logger: logger)
            }
            var columns = (
                kind: [String](), id: [String](), field: [String](), value: [String](), ts: [Int64](), device: [String](),
                action: [String]()
            )
            var marked: [SyncEntity] = []
            var markedSet: Set<SyncEntity> = []
            for key in ledger.changed {
                guard let field = ledger.fields[key] else { continue }
                columns.kind.append(key.entity.kind.rawValue)
                columns.id.append(key.entity.id)
                columns.field.append(key.field)
                columns.value.append(try SyncJSON.text(field.value))
                columns.ts.append(field.stamp.timestamp)
                columns.device.append(field.stamp.deviceID)
                columns.action.append(field.stamp.actionID)
                if markedSet.insert(key.entity).inserted { marked.append(key.entity) }
            }
            if !columns.kind.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO sync_fields (rider, kind, id, field, value, ts, device, action)
                    SELECT \(rider), * FROM unnest(\(columns.kind)::text[], \(columns.id)::text[], \(columns.field)::text[],
                      \(columns.value)::text[], \(columns.ts)::bigint[], \(columns.device)::text[], \(columns.action)::text[])
                    ON CONFLICT (rider, kind, id, field) DO UPDATE SET value = excluded.value, ts = excluded.ts,
                      device = excluded.device, action = excluded.action
                    """, logger: logger)
                let seqs = marked.indices.map { seq + Int64($0) + 1 }
                seq += Int64(marked.count)
                let markedKinds = marked.map(\.kind.rawValue)
                let markedIDs = marked.map(\.id)
                try await connection.query(
                    """
                    INSERT INTO sync_entities (rider, kind, id, seq)
                    SELECT \(rider), * FROM unnest(\(markedKinds)::text[], \(markedIDs)::text[], \(seqs)::bigint[])
                    ON CONFLICT (rider, kind, id) DO UPDATE SET seq = excluded.seq
                    """, logger: logger)
                try await connection.query("UPDATE sync_riders SET seq = \(seq) WHERE rider = \(rider)", logger: logger)
            }
            try await connection.query(
                """
                INSERT INTO sync_devices (rider, device, name, type, app_version, last_sync_at)
                VALUES (\(rider), \(device.id), \(device.name), \(device.type), \(device.appVersion), \(now))
                ON CONFLICT (rider, device) DO UPDATE SET name = excluded.name, type = excluded.type,
                  app_version = excluded.app_version, last_sync_at = excluded.last_sync_at
                """, logger: logger)
            return outcomes
        }
    }

    func pull(rider: String, after: Int64, limit: Int, device: String?, now: Int64) async throws -> SyncPage {
        let logger = self.logger
        let fetch = Int64(limit + 1)
        var entities: [(SyncEntity, Int64)] = []
        for try await (kind, id, seq) in try await client.query(
            "SELECT kind, id, seq FROM sync_entities WHERE rider = \(rider) AND seq > \(after) ORDER BY seq LIMIT \(fetch)",
            logger: logger
        ).decode((String, String, Int64).self) {
            guard let kind = SyncEntity.Kind(rawValue: kind) else { continue }
            entities.append((SyncEntity(kind: kind, id: id), seq))
        }
        let more = entities.count > limit
        if more { entities.removeLast() }
        var fields: [SyncEntity: [String: SyncField]] = [:]
        if !entities.isEmpty {
            let kinds = entities.map(\.0.kind.rawValue)
            let ids = entities.map(\.0.id)
            for try await (kind, id, field, value, ts, deviceID, actionID) in try await client.query(
                """
                SELECT f.kind, f.id, f.field, f.value, f.ts, f.device, f.action FROM sync_fields f
                JOIN unnest(\(kinds)::text[], \(ids)::text[]) AS e(kind, id) ON f.kind = e.kind AND f.id = e.id
                WHERE f.rider = \(rider)
                """, logger: logger
            ).decode((String, String, String, String, Int64, String, String).self) {
                guard let kind = SyncEntity.Kind(rawValue: kind) else { continue }
                let stamp = SyncStamp(timestamp: ts, deviceID: deviceID, actionID: actionID)
                fields[SyncEntity(kind: kind, id: id), default: [:]][field] = SyncField(
                    value: try SyncJSON.value(SyncValue.self, value), stamp: stamp)
            }
        }
        if let device {
            try await client.query(
                "UPDATE sync_devices SET last_sync_at = \(now) WHERE rider = \(rider) AND device = \(device)", logger: logger)
        }
        let records = entities.map { SyncRecord(entity: $0.0, fields: fields[$0.0] ?? [:]) }
        return SyncPage(records: records, last: entities.last?.1 ?? after, more: more)
    }

    func devices(rider: String) async throws -> [SyncDeviceRecord] {
        var list: [SyncDeviceRecord] = []
        for try await (id, name, type, version, last) in try await client.query(
            """
            SELECT device, name, type, app_version, last_sync_at FROM sync_devices WHERE rider = \(rider)
            ORDER BY last_sync_at DESC, device
            """, logger: logger
        ).decode((String, String, String, String, Int64).self) {
            list.append(SyncDeviceRecord(device: SyncDevice(id: id, name: name, type: type, appVersion: version), lastSyncAt: last))
        }
        return list
    }
}
