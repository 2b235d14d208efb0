/// What the server answered for one action: `SUCCESS` (its value stands, with the stamp it
/// was applied with), `CONFLICT` (a later change, or the note's deletion, won: `current` is
/// the entity as the server keeps it) or `REFUSED` (with its reason; the device marks it
/// `FAILED`). An action sent again gets the same outcome.
///
/// ```swift
/// for outcome in answer.outcomes where outcome.status == .conflict { print(outcome.current!) }
/// ```
public struct SyncOutcome: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        case success = "SUCCESS"
        case conflict = "CONFLICT"
        case refused = "REFUSED"
    }

    /// The action's id.
    public var id: String
    public var status: Status
    /// The stamp the action's writes were applied with (its own, or the server's clock when
    /// the device's ran ahead); nil when refused.
    public var stamp: SyncStamp?
    /// The entity as the server keeps it after the action (always for a conflict).
    public var current: SyncRecord?
    /// Why it was refused.
    public var reason: String?

    public init(id: String, status: Status, stamp: SyncStamp? = nil, current: SyncRecord? = nil, reason: String? = nil) {
        self.id = id
        self.status = status
        self.stamp = stamp
        self.current = current
        self.reason = reason
    }
}
