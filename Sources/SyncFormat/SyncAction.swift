/// One change a rider made on a device, as it travels to the server: its id (a UUID v4 made
/// on the device), its type, the entity it changes, the fields it sets (`UPDATE_NOTE` and
/// `UPDATE_PREFERENCES` only those they change), the device's clock and the device.
///
/// ```swift
/// let save = SyncAction(
///     id: "6b1f…", type: .save, entity: SyncEntity(SyncTarget(kind: .city, id: "lyon")),
///     timestamp: 1_764_000_000_000, deviceID: "phone-1")
/// ```
public struct SyncAction: Sendable, Hashable, Codable {
    public enum ActionType: String, Sendable, Hashable, Codable, CaseIterable {
        case save = "SAVE"
        case unsave = "UNSAVE"
        case addNote = "ADD_NOTE"
        case updateNote = "UPDATE_NOTE"
        case deleteNote = "DELETE_NOTE"
        case updatePreferences = "UPDATE_PREFERENCES"
    }

    public var id: String
    public var type: ActionType
    public var entity: SyncEntity
    /// The fields it sets: `target` and `text` (`ADD_NOTE`; either for `UPDATE_NOTE`), the
    /// preferences it changes (`UPDATE_PREFERENCES`); empty for the others.
    public var payload: [String: SyncValue]
    /// Milliseconds since 1970 UTC, by the device's clock.
    public var timestamp: Int64
    public var deviceID: String

    public init(
        id: String, type: ActionType, entity: SyncEntity, payload: [String: SyncValue] = [:], timestamp: Int64, deviceID: String
    ) {
        self.id = id
        self.type = type
        self.entity = entity
        self.payload = payload
        self.timestamp = timestamp
        self.deviceID = deviceID
    }

    /// The fields this action writes, with their values: `saved` for `SAVE`/`UNSAVE`,
    /// `deleted` for `DELETE_NOTE`, `deleted: false` besides the payload for `ADD_NOTE`.
    public var writes: [String: SyncValue] {
        switch type {
        case .save: ["saved": .bool(true)]
        case .unsave: ["saved": .bool(false)]
        case .addNote: payload.merging(["deleted": .bool(false)]) { $1 }
        case .updateNote, .updatePreferences: payload
        case .deleteNote: ["deleted": .bool(true)]
        }
    }

    /// The stamp its writes carry (before the server's clock check).
    public var stamp: SyncStamp { SyncStamp(timestamp: timestamp, deviceID: deviceID, actionID: id) }

    private enum CodingKeys: String, CodingKey {
        case id, type, entity, payload, timestamp
        case deviceID = "device_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(ActionType.self, forKey: .type)
        entity = try container.decode(SyncEntity.self, forKey: .entity)
        payload = try container.decodeIfPresent([String: SyncValue].self, forKey: .payload) ?? [:]
        timestamp = try container.decode(Int64.self, forKey: .timestamp)
        deviceID = try container.decode(String.self, forKey: .deviceID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(entity, forKey: .entity)
        if !payload.isEmpty { try container.encode(payload, forKey: .payload) }
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(deviceID, forKey: .deviceID)
    }
}
