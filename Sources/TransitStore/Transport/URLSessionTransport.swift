import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The store's transport over `URLSession`: the default on Apple platforms
/// (system proxies, cellular and VPN on demand, App Transport Security; the system decodes
/// gzip, on Linux too). On Linux it runs over FoundationNetworking and is kept for comparison (`make
/// bench-store`); `HTTPClientTransport` is the default there. Downloads stream to the file as
/// the bytes arrive, never holding the whole file in memory; a partial file is continued with
/// Range.
///
/// ```swift
/// let store = try BundleStore(directory: dir, transport: URLSessionTransport(timeout: 15))
/// ```
public struct URLSessionTransport: StoreTransport {
    /// Seconds without a byte before a request fails (transient, so it is retried).
    public let timeout: TimeInterval

    /// A URLSession transport with a time-out (seconds without a byte).
    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
    }

    /// Fetches a small resource (the manifest) whole.
    public func fetch(_ url: URL) async throws -> FetchedResource {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw Self.failure(error, url)
        }
        if let http = response as? HTTPURLResponse, http.statusCode != 200 { throw TransportError.http(http.statusCode, url) }
        return FetchedResource(data: data, url: response.url ?? url)
    }

    /// A `HEAD` of `url`: any answer is the network being there; a time-out counts as offline.
    public func probe(_ url: URL) async throws {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: min(timeout, 5))
        request.httpMethod = "HEAD"
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(for: request)
        } catch {
            let failure = Self.failure(error, url)
            if let transport = failure as? TransportError, transport.failure == .timedOut {
                throw TransportError.offline(url, "no answer within \(Int(min(timeout, 5))) s")
            }
            throw failure
        }
    }

    /// Downloads `url` into `path`, resuming from `resumeData`, reporting bytes to `progress`.
    public func download(_ url: URL, to path: String, resumeData: Data?, progress: @escaping @Sendable (Int64) -> Void)
        async throws -> FinishedDownload
    {
        let sink = try FileSink(appendingTo: path)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if sink.offset > 0 {
            request.setValue("bytes=\(sink.offset)-", forHTTPHeaderField: "Range")
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        let receiver = DownloadReceiver(url: url, sink: sink, progress: progress)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: receiver, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        // FoundationNetworking does not enforce the request's time-out while waiting for an
        // answer: a watchdog ends a transfer that has received nothing for `timeout` seconds.
        let watchdog = Task {
            while !Task.isCancelled {
                try await Task.sleep(nanoseconds: UInt64(min(timeout, 1) * 250_000_000))
                if receiver.idleSeconds() > timeout {
                    receiver.fail(
                        TransportError("\(url.absoluteString): nothing received for \(timeout) s", transient: true, failure: .timedOut))
                    task.cancel()
                    return
                }
            }
        }
        defer { watchdog.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                receiver.start(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        return FinishedDownload(url: receiver.finalURL ?? url, bytesOnWire: nil)
    }

    static func failure(_ error: Error, _ url: URL) -> Error {
        if error is TransportError || error is CancellationError { return error }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cancelled: return CancellationError()
            case .badURL, .unsupportedURL, .fileDoesNotExist:
                return TransportError("\(url.absoluteString): \(urlError.localizedDescription)", transient: false, failure: .badURL)
            case .timedOut:
                return TransportError("\(url.absoluteString): \(urlError.localizedDescription)", transient: true, failure: .timedOut)
            case .networkConnectionLost:
                return TransportError("\(url.absoluteString): \(urlError.localizedDescription)", transient: true, failure: .interrupted)
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                return TransportError("\(url.absoluteString): \(urlError.localizedDescription)", transient: false, failure: .tls)
            case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .internationalRoamingOff,
                .dataNotAllowed:
                return TransportError.offline(url, "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
            default:
                return TransportError("\(url.absoluteString): \(urlError.localizedDescription)", transient: true)
            }
        }
        return TransportError("\(url.absoluteString): \(error)", transient: true)
    }
}

/// Receives one download's response and bytes on the session's queue and writes them out.
private final class DownloadReceiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let sink: FileSink
    private let progress: @Sendable (Int64) -> Void
    private var continuation: CheckedContinuation<Void, Error>?
    private var failure: Error?
    private var expectedEnd: Int64?
    /// The URL the response came from (after redirects).
    private(set) var finalURL: URL?
    private var lastActivity = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()

    init(url: URL, sink: FileSink, progress: @escaping @Sendable (Int64) -> Void) {
        self.url = url
        self.sink = sink
        self.progress = progress
    }

    func start(_ continuation: CheckedContinuation<Void, Error>) {
        lock.lock()
        self.continuation = continuation
        lastActivity = DispatchTime.now().uptimeNanoseconds
        lock.unlock()
    }

    func idleSeconds() -> Double {
        lock.lock()
        defer { lock.unlock() }
        return Double(DispatchTime.now().uptimeNanoseconds - lastActivity) / 1e9
    }

    /// Records why the transfer is being stopped (the watchdog's time-out).
    func fail(_ error: Error) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
    }

    private func touch() {
        lock.lock()
        lastActivity = DispatchTime.now().uptimeNanoseconds
        lock.unlock()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        touch()
        let http = response as? HTTPURLResponse
        finalURL = response.url
        do {
            // URLSession decodes gzip itself (Apple's, and FoundationNetworking's libcurl): the
            // bytes it hands over are the file's.
            try sink.begin(
                status: http?.statusCode ?? 200, contentRange: http?.value(forHTTPHeaderField: "Content-Range"),
                contentEncoding: nil, url: url)
            let plain = http?.value(forHTTPHeaderField: "Content-Encoding") == nil
            if plain && response.expectedContentLength >= 0 { expectedEnd = sink.offset + response.expectedContentLength }
            completionHandler(.allow)
        } catch {
            fail(error)
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        touch()
        lock.lock()
        let failed = failure != nil
        lock.unlock()
        guard !failed else { return }
        do {
            try sink.write(data)
            progress(sink.offset)
        } catch {
            fail(error)
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let recorded = failure
        lock.unlock()
        var outcome: Error? = recorded ?? error.map { URLSessionTransport.failure($0, url) }
        if outcome == nil, let end = expectedEnd, sink.offset < end {
            outcome = TransportError(
                "\(url.absoluteString): the connection closed after \(sink.offset) of \(end) bytes", transient: true,
                failure: .interrupted)
        }
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        if let outcome { continuation?.resume(throwing: outcome) } else { continuation?.resume() }
    }
}
