import Foundation
import SyncFormat

/// One action in the device's outbox, with where it stands (docs/sync-semantics.md,
/// "Actions"): `PENDING` → `SYNCING` → `SUCCESS`, `CONFLICT` or `FAILED`.
///
/// ```swift
/// for entry in try await rider.failed() { print(entry.action.type, entry.error ?? "") }   // "Sync failed", Retry
/// ```
public struct OutboxEntry: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        case pending = "PENDING"
        case syncing = "SYNCING"
        case success = "SUCCESS"
        case conflict = "CONFLICT"
        case failed = "FAILED"
    }

    public var action: SyncAction
    public var status: Status
    /// Attempts that failed (transport errors, time-outs, 5xx, 429); 5 make it `FAILED`.
    public var retryCount: Int
    /// When it was last sent (ms since 1970, the device's clock).
    public var lastAttemptAt: Int64?
    /// Why its last attempt failed, or why the server refused it.
    public var error: String?
    /// For a `CONFLICT`: the entity as the server kept it (what the change lost to).
    public var winner: SyncRecord?

    public init(
        action: SyncAction, status: Status, retryCount: Int = 0, lastAttemptAt: Int64? = nil, error: String? = nil,
        winner: SyncRecord? = nil
    ) {
        self.action = action
        self.status = status
        self.retryCount = retryCount
        self.lastAttemptAt = lastAttemptAt
        self.error = error
        self.winner = winner
    }

    private enum CodingKeys: String, CodingKey {
        case action, status, error, winner
        case retryCount = "retry_count"
        case lastAttemptAt = "last_attempt_at"
    }
}
