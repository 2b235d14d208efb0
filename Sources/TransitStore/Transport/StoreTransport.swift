import Foundation

/// How the store fetches manifests and files. `URLSessionTransport` is the one it uses unless
/// an app plugs in its own (a background session, a CDN client, a test double).
///
/// ```swift
/// struct LoggingTransport: StoreTransport {
///     let inner = URLSessionTransport()
///     func fetch(_ url: URL) async throws -> Data { print("GET", url); return try await inner.fetch(url) }
///     func download(_ url: URL, to path: String, resumingAt offset: Int64, progress: @escaping @Sendable (Int64) -> Void) async throws {
///         try await inner.download(url, to: path, resumingAt: offset, progress: progress)
///     }
/// }
/// ```
public protocol StoreTransport: Sendable {
    /// The whole resource (a manifest: small).
    /// - Throws: `TransportError`.
    func fetch(_ url: URL) async throws -> Data

    /// Writes the resource into the file at `path`. When `offset` > 0 the file already holds
    /// that many bytes of it: ask for the rest (HTTP Range) and append; a server that answers
    /// with the whole resource instead overwrites the file from the start. `progress` gets the
    /// file's length as it grows.
    /// - Throws: `TransportError`; the bytes written so far stay in the file for a later resume.
    func download(_ url: URL, to path: String, resumingAt offset: Int64, progress: @escaping @Sendable (Int64) -> Void) async throws
}

/// A failed transfer. Transient ones (connection lost, time-outs, 5xx, 408, 429) are worth
/// retrying; the others (404, 403, a bad URL) are not.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let transient: Bool
    /// The HTTP status, when the server answered.
    public let status: Int?

    public init(_ message: String, transient: Bool, status: Int? = nil) {
        self.message = message
        self.transient = transient
        self.status = status
    }

    /// The failure an HTTP status stands for.
    public static func http(_ status: Int, _ url: URL) -> TransportError {
        let transient = status >= 500 || status == 408 || status == 429
        return TransportError("HTTP \(status) for \(url.absoluteString)", transient: transient, status: status)
    }

    public var description: String { message }
}
