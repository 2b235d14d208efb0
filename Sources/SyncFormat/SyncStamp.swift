/// The order of writes: `(timestamp, device_id, action id)`, compared in that order. The
/// higher stamp wins a field (docs/sync-semantics.md, "Who wins").
///
/// ```swift
/// let stamp = SyncStamp(timestamp: 1_764_000_000_000, deviceID: "phone", actionID: "…")
/// ```
public struct SyncStamp: Sendable, Hashable, Codable, Comparable {
    /// Milliseconds since 1970 UTC, by the device's clock (the server's when it ran ahead).
    public var timestamp: Int64
    public var deviceID: String
    public var actionID: String

    public init(timestamp: Int64, deviceID: String, actionID: String) {
        self.timestamp = timestamp
        self.deviceID = deviceID
        self.actionID = actionID
    }

    public static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        if lhs.deviceID != rhs.deviceID { return lhs.deviceID.utf8.lexicographicallyPrecedes(rhs.deviceID.utf8) }
        return lhs.actionID.utf8.lexicographicallyPrecedes(rhs.actionID.utf8)
    }

    private enum CodingKeys: String, CodingKey {
        case timestamp
        case deviceID = "device_id"
        case actionID = "action_id"
    }
}
