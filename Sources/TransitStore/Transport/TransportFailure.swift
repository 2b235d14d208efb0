/// What kind of transport failure a download met, for an app to branch on and word for the
/// rider ("You're offline", "The server is busy", "The connection is not secure"); the
/// message beside it names the URL and the platform's error.
///
/// ```swift
/// if case .failed(.transfer(_, _, .http(let status)))? = job.state, status == 503 { banner.text = "Try again later" }
/// ```
public enum TransportFailure: Sendable, Hashable {
    /// No route, no name resolution, the connection refused (`StoreError.offline` says it).
    case offline
    /// Nothing received within the time-out.
    case timedOut
    /// The TLS connection failed: a certificate not trusted or not for this host.
    case tls
    /// The server answered with this HTTP status (404, 503, ...).
    case http(status: Int)
    /// The body is larger than the manifest (or the manifest limit) allows.
    case tooLarge
    /// The connection closed before the whole body came.
    case interrupted
    /// The body came damaged: a compressed body that does not decode, a file shorter than
    /// the manifest lists.
    case damagedBody
    /// The URL cannot be fetched (not http, https or file; a redirect to another scheme).
    case badURL
    /// Anything else the platform reported.
    case other
}
