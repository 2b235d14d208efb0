import Foundation

/// How the store fetches manifests and files. `BundleStore` uses `BundleStore.defaultTransport()`
/// (URLSession on Apple platforms, AsyncHTTPClient on Linux) unless an app plugs in its own: a
/// background `URLSession`, a CDN client, a test double.
///
/// A download is shaped for a transfer that may outlive the process that started it: the
/// transport fills the file at `destination` (or moves a finished file there) and says where
/// the bytes came from; when it fails it may hand back opaque `resumeData`, which the store
/// keeps with the job and passes to the next attempt (in this process or a later one). The
/// store alone verifies the file (size, SHA-256) and installs it.
///
/// ```swift
/// struct LoggingTransport: StoreTransport {
///     let inner = BundleStore.defaultTransport(timeout: 20)
///     func fetch(_ url: URL) async throws -> FetchedResource { print("GET", url); return try await inner.fetch(url) }
///     func download(_ url: URL, to destination: String, resumeData: Data?,
///                   progress: @escaping @Sendable (Int64) -> Void) async throws -> FinishedDownload {
///         try await inner.download(url, to: destination, resumeData: resumeData, progress: progress)
///     }
/// }
/// ```
public protocol StoreTransport: Sendable {
    /// The whole resource (a manifest: small), following redirects. (`file:` URLs never reach
    /// a transport: the store reads them itself.)
    /// - Throws: `TransportError`.
    func fetch(_ url: URL) async throws -> FetchedResource

    /// Brings the resource into the file at `destination`. When the file already holds some
    /// of it (an earlier attempt), the transport may continue from there (HTTP Range) or start
    /// over; either way the file ends holding the resource's bytes as the server describes
    /// them, decoded when they were compressed on the wire. `progress` gets the file's length
    /// as it grows.
    /// - Throws: `TransportError` (with `resumeData` when the transport has something for the
    ///   next attempt); the bytes written so far stay in the file.
    func download(_ url: URL, to destination: String, resumeData: Data?, progress: @escaping @Sendable (Int64) -> Void)
        async throws -> FinishedDownload

    /// Asks whether `url`'s server can be reached at all (the connectivity probe): any HTTP
    /// answer, whatever its status, returns; no route, no name resolution, a refused
    /// connection or no answer in time throws `TransportError` with `isOffline`. The default
    /// fetches the resource; the store's own transports send a `HEAD`.
    func probe(_ url: URL) async throws
}

extension StoreTransport {
    /// Fetches `url` and ignores the body: a status error still proves the server is there.
    public func probe(_ url: URL) async throws {
        do { _ = try await fetch(url) } catch let error as TransportError where error.status != nil {}
    }
}

extension BundleStore {
    /// The store's default transport: URLSession on Apple platforms (system proxies, cellular,
    /// App Transport Security), AsyncHTTPClient on Linux (docs/store.md, "HTTP client", says why).
    /// `timeout` is the seconds without a byte before a request fails (and is retried);
    /// `trustedCertificates` are PEM files trusted besides the system's roots (Linux only:
    /// Apple platforms trust what the system trusts).
    public static func defaultTransport(timeout: TimeInterval = 30, trustedCertificates: [String] = []) -> any StoreTransport {
        #if canImport(AsyncHTTPClient)
            HTTPClientTransport(timeout: timeout, trustedCertificates: trustedCertificates)
        #else
            URLSessionTransport(timeout: timeout)
        #endif
    }
}

/// A small resource and the URL it finally came from (after redirects): relative names in a
/// manifest resolve against that URL.
public struct FetchedResource: Sendable, Equatable {
    /// The body.
    public var data: Data
    /// The URL it finally came from (after redirects).
    public var url: URL

    /// A resource built by hand (tests, custom transports).
    public init(data: Data, url: URL) {
        self.data = data
        self.url = url
    }
}

/// What a finished download reports: where the bytes came from and how many crossed the wire.
public struct FinishedDownload: Sendable, Equatable {
    /// The URL after redirects.
    public var url: URL
    /// Bytes received in bodies (compressed ones as sent); nil when the transport cannot tell.
    public var bytesOnWire: Int64?

    /// A finished download built by hand (custom transports).
    public init(url: URL, bytesOnWire: Int64? = nil) {
        self.url = url
        self.bytesOnWire = bytesOnWire
    }
}

/// A failed transfer. Transient ones (connection lost, time-outs, 5xx, 408, 429) are worth
/// retrying; the others (404, 403, a certificate that is not trusted, a bad URL, a file on the
/// server shorter than the manifest says) are not.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, naming the URL.
    public let message: String
    /// Worth retrying.
    public let transient: Bool
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// Whatever the transport needs to continue this transfer next time (opaque to the store).
    public var resumeData: Data?
    /// The device's storage is full (writing the file failed with ENOSPC): a storage problem
    /// of the device, not the server's.
    public var isDiskFull = false
    /// The length of the server's file, when it said (a 416's `Content-Range: bytes */N`).
    public var serverLength: Int64?
    /// The device is offline: no route, no name resolution, or the connection refused. Not
    /// retried: the store says so at once (`StoreError.offline`).
    public var isOffline = false
    /// Seconds the server asked to wait before the next attempt (`Retry-After` of a 503 or 429).
    public var retryAfter: Double?
    /// What the platform reported (`URLError` on Apple platforms), for an app that wants it.
    public var underlying: String?
    /// The kind of failure: given where the error is made, else the HTTP status's, else `.other`.
    public var failure: TransportFailure

    /// An offline failure for `url`: `reason` says how the network failed.
    public static func offline(_ url: URL, _ reason: String) -> TransportError {
        var error = TransportError("you are offline: \(url.host ?? url.absoluteString) cannot be reached (\(reason))", transient: false)
        error.isOffline = true
        error.underlying = reason
        error.failure = .offline
        return error
    }

    /// Seconds in a `Retry-After` header: a number of seconds, or an HTTP date.
    public static func retryAfter(_ header: String?, now: Date = Date()) -> Double? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if let seconds = Double(header), seconds >= 0, seconds.isFinite { return seconds }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format.date(from: header).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// A failure with its message; `failure` defaults to the HTTP status's kind (or `.other`).
    public init(_ message: String, transient: Bool, status: Int? = nil, resumeData: Data? = nil, failure: TransportFailure? = nil) {
        self.message = message
        self.transient = transient
        self.status = status
        self.resumeData = resumeData
        self.failure = failure ?? status.map { .http(status: $0) } ?? .other
    }

    /// The failure an HTTP status stands for.
    public static func http(_ status: Int, _ url: URL) -> TransportError {
        let transient = status >= 500 || status == 408 || status == 429
        return TransportError("HTTP \(status) for \(url.absoluteString)", transient: transient, status: status)
    }

    /// The server's file ends before the length the manifest gives it (`listed`, when the
    /// caller knows it); the status is 416, what a server answers a range past its end.
    public static func shorter(_ url: URL, has: Int64, listed: Int64?) -> TransportError {
        let listedText = listed.map { " but the manifest lists \($0)" } ?? ""
        var error = TransportError(
            "the server sent \(has) bytes of \(url.absoluteString)\(listedText): the file on the server is shorter than listed",
            transient: false, status: 416, failure: .damagedBody)
        error.serverLength = has
        return error
    }

    public var description: String { message }
}
