/// The bodies of the sync endpoints (docs/sync-semantics.md, docs/transit-server.md "Sync").

/// A device as it names itself in each sync.
public struct SyncDevice: Sendable, Hashable, Codable {
    /// The device's own id (made once, kept on the device).
    public var id: String
    /// A name the rider recognises ("Anna's phone").
    public var name: String
    /// Its type ("phone", "tablet", "cli").
    public var type: String
    /// The app's version.
    public var appVersion: String

    public init(id: String, name: String, type: String, appVersion: String) {
        self.id = id
        self.name = name
        self.type = type
        self.appVersion = appVersion
    }

    /// Why this is not a device's description, nil when it is one.
    public var problem: String? {
        if let problem = SyncRules.problem(withID: id, naming: "a device id") { return problem }
        for (label, text) in [("name", name), ("type", type), ("app version", appVersion)] where text.utf8.count > 200 {
            return "a device's \(label) is at most 200 bytes"
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, type
        case appVersion = "app_version"
    }
}

/// `POST /v1/sync/push`'s body: the device and its actions in the order they were made.
public struct SyncPushRequest: Sendable, Hashable, Codable {
    public var device: SyncDevice
    public var actions: [SyncAction]

    public init(device: SyncDevice, actions: [SyncAction]) {
        self.device = device
        self.actions = actions
    }
}

/// `POST /v1/sync/push`'s answer: each action's outcome, in the order sent.
public struct SyncPushResponse: Sendable, Hashable, Codable {
    public var outcomes: [SyncOutcome]
    /// The server's clock when it applied the push (ms since 1970).
    public var serverTime: Int64

    public init(outcomes: [SyncOutcome], serverTime: Int64) {
        self.outcomes = outcomes
        self.serverTime = serverTime
    }

    private enum CodingKeys: String, CodingKey {
        case outcomes
        case serverTime = "server_time"
    }
}

/// `GET /v1/sync/pull`'s answer: the entities changed after the cursor asked with (all of
/// them without one), in the order they changed, and the cursor to ask with next.
public struct SyncPullResponse: Sendable, Hashable, Codable {
    public var records: [SyncRecord]
    /// Opaque: sent back as `?cursor=` on the next pull.
    public var cursor: String
    /// More changes wait: pull again with `cursor` at once.
    public var more: Bool

    public init(records: [SyncRecord], cursor: String, more: Bool) {
        self.records = records
        self.cursor = cursor
        self.more = more
    }
}

/// One of the rider's devices, as `GET /v1/sync/devices` lists it.
public struct SyncDeviceRecord: Sendable, Hashable, Codable {
    public var device: SyncDevice
    /// When it last pushed or pulled (ms since 1970, the server's clock).
    public var lastSyncAt: Int64

    public init(device: SyncDevice, lastSyncAt: Int64) {
        self.device = device
        self.lastSyncAt = lastSyncAt
    }

    private enum CodingKeys: String, CodingKey {
        case device
        case lastSyncAt = "last_sync_at"
    }
}

/// `GET /v1/sync/devices`'s answer.
public struct SyncDeviceList: Sendable, Hashable, Codable {
    public var devices: [SyncDeviceRecord]

    public init(devices: [SyncDeviceRecord]) { self.devices = devices }
}
