import Foundation
import SyncFormat

/// Where the server keeps riders' data (docs/sync-semantics.md): tokens, fields with their
/// stamps, the outcome of every action answered, devices. `SQLiteSyncStorage` (one file,
/// one server or several on one machine) and `PostgresSyncStorage` (several replicas
/// sharing one database) keep the same tables and apply pushes with the same
/// `SyncLedger`; each push is one transaction.
protocol SyncStorage: Sendable {
    /// The rider a token's SHA-256 (hex) was issued to, nil when none was.
    func rider(tokenHash: String) async throws -> String?
    /// Records a new token for `rider`.
    func addToken(rider: String, tokenHash: String, now: Int64) async throws
    /// Applies `actions` (in order) for `rider` in one transaction; the outcome of each.
    func push(rider: String, device: SyncDevice, actions: [SyncAction], now: Int64) async throws -> [SyncOutcome]
    /// The entities changed after position `after`, at most `limit`; the last position
    /// listed and whether more wait. Names the device's last sync when given.
    func pull(rider: String, after: Int64, limit: Int, device: String?, now: Int64) async throws -> SyncPage
    /// The rider's devices, most recently synced first.
    func devices(rider: String) async throws -> [SyncDeviceRecord]
    /// Releases connections (PostgreSQL's client keeps running until this).
    func close() async
}

/// One page of a pull.
struct SyncPage: Sendable {
    var records: [SyncRecord]
    var last: Int64
    var more: Bool
}

/// The storage `--sync-db` names: `sqlite:PATH` or `postgres://USER:PASSWORD@HOST:PORT/DB`.
enum SyncStorageAddress: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(host: String, port: Int, user: String, password: String?, database: String)

    init(_ text: String) throws {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw ServerConfigurationError("--sync-db sqlite:PATH needs a path") }
            self = .sqlite(path: path)
            return
        }
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://"), let url = URLComponents(string: text),
            let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty
        else {
            throw ServerConfigurationError("--sync-db is sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        let database = String(url.path.drop { $0 == "/" })
        self = .postgres(
            host: host, port: url.port ?? 5432, user: user, password: url.password, database: database.isEmpty ? user : database)
    }

    /// Opens the storage, making its tables when they are missing.
    func open() async throws -> any SyncStorage {
        switch self {
        case .sqlite(let path): try SQLiteSyncStorage(path: path)
        case .postgres(let host, let port, let user, let password, let database):
            try await PostgresSyncStorage(host: host, port: port, user: user, password: password, database: database)
        }
    }
}

/// What both storages share: the actions' entities and ids, and the tables.
enum SyncStorageCoding {
    /// The entities `actions` touch, each once, in first-touched order.
    static func entities(of actions: [SyncAction]) -> [SyncEntity] {
        var seen: Set<SyncEntity> = []
        return actions.map(\.entity).filter { seen.insert($0).inserted }
    }

    /// Ids normalised (UUIDs in lower case), so that one action sent in either case is one.
    static func normalized(_ actions: [SyncAction]) -> [SyncAction] {
        actions.map { action in
            var action = action
            if SyncRules.isUUID(action.id) { action.id = action.id.lowercased() }
            if action.entity.kind == .note, SyncRules.isUUID(action.entity.id) { action.entity.id = action.entity.id.lowercased() }
            return action
        }
    }

    /// The layout both storages make (PostgreSQL reads BIGINT where SQLite reads INTEGER).
    static let tables = [
        "CREATE TABLE IF NOT EXISTS sync_riders (rider TEXT PRIMARY KEY, seq BIGINT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS sync_tokens (hash TEXT PRIMARY KEY, rider TEXT NOT NULL, created_at BIGINT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS sync_fields (rider TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, field TEXT NOT NULL,
          value TEXT NOT NULL, ts BIGINT NOT NULL, device TEXT NOT NULL, action TEXT NOT NULL,
          PRIMARY KEY (rider, kind, id, field))
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_entities (rider TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, seq BIGINT NOT NULL,
          PRIMARY KEY (rider, kind, id))
        """,
        "CREATE INDEX IF NOT EXISTS sync_entities_seq ON sync_entities (rider, seq)",
        """
        CREATE TABLE IF NOT EXISTS sync_outcomes (rider TEXT NOT NULL, action TEXT NOT NULL, outcome TEXT NOT NULL,
          PRIMARY KEY (rider, action))
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_devices (rider TEXT NOT NULL, device TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL,
          app_version TEXT NOT NULL, last_sync_at BIGINT NOT NULL, PRIMARY KEY (rider, device))
        """,
    ]
}
