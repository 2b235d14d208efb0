import Foundation

/// Why a change or a sync did not happen, as a person reads it.
///
/// ```swift
/// do { try await rider.sync() } catch SyncError.offline { banner("Pending sync") }
/// ```
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app said the network is gone (not counted as an attempt).
    case offline
    /// No server was given (`connect(to:)`).
    case notConnected
    /// The server did not answer (no connection, a time-out, a cut): counted as an attempt.
    case unreachable(String)
    /// The server does not take the token (401).
    case unauthorised
    /// The server refused the request as a whole, with its reason (a server of another version).
    case refused(status: Int, reason: String)
    /// The server failed (5xx, 429): counted as an attempt.
    case server(status: Int, message: String)
    /// The change breaks the rules (a text too long, an unknown note): nothing was queued.
    case invalid(String)
    /// The device's own file could not be read or written.
    case storage(String)

    public var description: String {
        switch self {
        case .offline: "the device is offline: the changes wait in the outbox"
        case .notConnected: "no sync server is set (connect(to:))"
        case .unreachable(let reason): "the sync server cannot be reached: \(reason)"
        case .unauthorised: "the sync server does not take this token (401)"
        case .refused(let status, let reason): "the sync server refused the request (HTTP \(status)): \(reason)"
        case .server(let status, let message): "the sync server failed (HTTP \(status)): \(message)"
        case .invalid(let reason): reason
        case .storage(let reason): "the rider's data cannot be kept: \(reason)"
        }
    }
}
