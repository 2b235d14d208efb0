import Foundation

/// A sync server and the rider's token for it (kept in memory only: the app keeps the token
/// where it keeps secrets, the Keychain on Apple platforms).
public struct SyncServer: Sendable, Hashable {
    /// The server's root (`https://host`, without `/v1`).
    public var url: URL
    public var token: String
    /// Seconds a request may take.
    public var timeout: TimeInterval

    public init(url: URL, token: String, timeout: TimeInterval = 10) {
        self.url = url
        self.token = token
        self.timeout = timeout
    }
}
