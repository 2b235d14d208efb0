import Foundation

/// What one sync did: each action sent and its outcome, the entities pulled.
public struct SyncReport: Sendable, Hashable, Codable {
    /// The actions sent, in order, as they ended (`SUCCESS`, `CONFLICT`, `FAILED`, or
    /// `PENDING` again after a failed attempt).
    public var actions: [OutboxEntry]
    /// Entities the pull brought.
    public var pulled: Int
    /// Actions still waiting.
    public var pending: Int

    public init(actions: [OutboxEntry], pulled: Int, pending: Int) {
        self.actions = actions
        self.pulled = pulled
        self.pending = pending
    }
}
