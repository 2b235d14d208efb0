import Foundation

/// What happened, as `RiderData.events()` tells it.
public enum SyncEvent: Sendable, Hashable {
    /// The device's state changed (a local action, a pull): screens read it again.
    case changed
    /// A sync began.
    case syncStarted
    /// A sync ended; its report.
    case syncFinished(SyncReport)
    /// A sync stopped on an error (the outbox keeps what was not sent).
    case syncFailed(SyncError)
    /// A saved city's bundle download was queued in the store.
    case downloadQueued(String)
}
