import Foundation

/// Downloads one file of the manifest into its partial file and checks it: resumes with the
/// bytes already there, retries transient failures with growing pauses (the one policy the
/// manifest fetch also follows), and compares the size and SHA-256 with the manifest before
/// anyone may use the file.
struct FileFetcher: Sendable {
    let transport: any StoreTransport
    let retries: RetryPolicy

    /// The transport for `url`: `file:` URLs are read directly, the rest go to `transport`.
    private func route(_ url: URL) -> any StoreTransport { url.isFileURL ? LocalFileTransport() : transport }

    /// What a failed fetch leaves for the next attempt: the transport's resume data. The
    /// partial file stays where it is when the failure was transient.
    struct Failure: Error {
        let error: StoreError
        let resumeData: Data?
        /// The partial file holds bytes worth continuing from (a transient failure after some
        /// of the file arrived).
        var keptPart = false
    }

    /// Fetches a small resource (the manifest) with the retry policy.
    func fetch(_ url: URL) async throws -> FetchedResource {
        var failures = 0
        while true {
            do {
                return try await route(url).fetch(url)
            } catch let error as TransportError {
                failures += 1
                guard error.transient, failures <= retries.limit else { throw StoreError(error, retried: failures > 1) }
                try await Task.sleep(nanoseconds: retries.pause(after: failures, retryAfter: error.retryAfter))
            }
        }
    }

    /// Fetches `url` into `part` until it holds `bytes` bytes whose SHA-256 is `sha256`.
    /// - Throws: `Failure` wrapping `StoreError.transfer` (after the retries, or at once when
    ///   permanent; the partial file is kept for a later attempt when the failure was
    ///   transient), `StoreError.storage` (the device is full), `StoreError.hashMismatch` (the
    ///   partial file is removed); `CancellationError`.
    func fetch(
        _ url: URL, bytes: Int64, sha256: String, into part: String, id: String, resumeData: Data?,
        report: @escaping @Sendable (JobState) -> Void
    ) async throws {
        var failures = 0
        var resume = resumeData
        var restartedAfterMismatch = false
        while true {
            var have = BundleFiles.stat(part)?.size ?? 0
            if have > bytes {
                Self.removePartial(part)
                have = 0
            }
            let resumed = have > 0
            if have < bytes {
                report(.downloading(done: have, total: bytes))
                do {
                    try await downloadAtMost(bytes, url, to: part, resumeData: resume, report: report)
                } catch var error as TransportError {
                    resume = error.resumeData ?? resume
                    if error.isDiskFull {
                        Self.removePartial(part)
                        throw Failure(error: .noSpace(error.message), resumeData: nil)
                    }
                    if error.status == 416 {
                        error = TransportError.shorter(url, has: error.serverLength ?? BundleFiles.stat(part)?.size ?? 0, listed: bytes)
                        Self.removePartial(part)
                    }
                    // An attempt that brought bytes starts the count again: a long download on
                    // a link that keeps dropping goes on while it progresses.
                    if (BundleFiles.stat(part)?.size ?? 0) > have { failures = 0 }
                    failures += 1
                    guard error.transient, failures <= retries.limit else {
                        // Offline keeps the bytes too: the job waits for the network and goes on.
                        let kept = (error.transient || error.isOffline) && (BundleFiles.stat(part)?.size ?? 0) > 0
                        if !kept { Self.removePartial(part) }
                        throw Failure(error: StoreError(error, retried: failures > 1), resumeData: resume, keptPart: kept)
                    }
                    try await Task.sleep(nanoseconds: retries.pause(after: failures, retryAfter: error.retryAfter))
                    continue
                }
                // The transfer ended as the server meant it to: a shorter file is the server's
                // (or a captive portal's page).
                let size = BundleFiles.stat(part)?.size ?? 0
                if size < bytes && WebPageCheck.fileLooksLikeHTML(part) {
                    Self.removePartial(part)
                    throw Failure(error: .transfer(WebPageCheck.explanation(url), transient: false), resumeData: nil)
                }
                if size < bytes {
                    Self.removePartial(part)
                    throw Failure(error: StoreError(TransportError.shorter(url, has: size, listed: bytes), retried: false), resumeData: nil)
                }
            }
            report(.verifying)
            let found = try await Task.detached { try FileDigest.sha256(of: part) }.value
            let size = BundleFiles.stat(part)?.size ?? 0
            if found == sha256 && size == bytes { return }
            if WebPageCheck.fileLooksLikeHTML(part) {
                Self.removePartial(part)
                throw Failure(error: .transfer(WebPageCheck.explanation(url), transient: false), resumeData: nil)
            }
            Self.removePartial(part)
            resume = nil
            // Bytes kept from an earlier attempt may be what went wrong: one fresh try.
            if resumed && !restartedAfterMismatch {
                restartedAfterMismatch = true
                continue
            }
            throw Failure(error: .hashMismatch(id: id, expected: sha256, found: found), resumeData: nil)
        }
    }
}

extension FileFetcher {
    /// The transport's download, stopped as soon as the file holds more than the `bytes` the
    /// manifest lists (an endless or too long body never fills the device).
    /// - Throws: the transport's `TransportError`, or a permanent one for a body longer than listed.
    func downloadAtMost(
        _ bytes: Int64, _ url: URL, to part: String, resumeData: Data?, listing: String = "the manifest lists",
        report: @escaping @Sendable (JobState) -> Void
    ) async throws {
        let transport = route(url)
        let tooLong = Overrun()
        let transfer = Task {
            _ = try await transport.download(url, to: part, resumeData: resumeData) { done in
                if done > bytes { tooLong.stop() }
                report(.downloading(done: min(done, bytes), total: bytes))
            }
        }
        tooLong.watch(transfer)
        let outcome = await withTaskCancellationHandler {
            await transfer.result
        } onCancel: {
            transfer.cancel()
        }
        if tooLong.happened {
            Self.removePartial(part)
            throw TransportError(
                "\(url.absoluteString) sends more than the \(bytes) bytes \(listing)", transient: false, failure: .tooLarge)
        }
        try Task.checkCancellation()
        _ = try outcome.get()
    }

    /// Removes a partial file and the validator kept beside it.
    static func removePartial(_ part: String) {
        try? FileManager.default.removeItem(atPath: part)
        ValidatorFile(partial: part).remove()
    }
}

extension StoreError {
    /// The store's word for a transport failure.
    init(_ error: TransportError, retried: Bool) {
        if error.isDiskFull {
            self = .noSpace(error.message)
        } else if error.isOffline {
            self = .offline(error.message)
        } else {
            self = .transfer(error.message, transient: error.transient && retried, failure: error.failure)
        }
    }
}

/// How often and how patiently transient failures are retried, for the manifest and for
/// files alike.
public struct RetryPolicy: Sendable {
    /// Attempts after the first one.
    public var limit: Int
    /// The pause before the first retry; it doubles each time, up to `maxPause`.
    public var firstPause: Double
    /// The longest pause between retries, seconds.
    public var maxPause: Double
    /// The longest wait a server's `Retry-After` is honoured for (longer asks wait this long).
    public var maxRetryAfter: Double

    /// A policy: `limit` retries, pauses doubling from `firstPause` to `maxPause`, a server's Retry-After honoured up to `maxRetryAfter`.
    public init(limit: Int = 5, firstPause: Double = 0.5, maxPause: Double = 30, maxRetryAfter: Double = 120) {
        self.limit = limit
        self.firstPause = firstPause
        self.maxPause = maxPause
        self.maxRetryAfter = maxRetryAfter
    }

    /// The pause before the next attempt: doubling from `firstPause` up to `maxPause`, each
    /// drawn between half and all of that (jitter: devices that lost the same server do not
    /// come back at the same instant), and at least what the server asked (`Retry-After`),
    /// up to `maxRetryAfter`. Nanoseconds.
    public func pause(after failures: Int, retryAfter: Double? = nil) -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return pause(after: failures, retryAfter: retryAfter, using: &generator)
    }

    func pause(after failures: Int, retryAfter: Double?, using generator: inout some RandomNumberGenerator) -> UInt64 {
        let ceiling = min(maxPause, firstPause * Double(1 << min(max(failures, 1) - 1, 20)))
        var seconds = ceiling * Double.random(in: 0.5...1, using: &generator)
        if let retryAfter { seconds = max(seconds, min(retryAfter, maxRetryAfter)) }
        return UInt64(max(0, seconds) * 1e9)
    }
}

/// Whether a download went past its listed size, and the transfer to stop when it does
/// (progress may be reported from a transport's own queue, outside the transfer's task).
private final class Overrun: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var transfer: Task<Void, Error>?

    func watch(_ task: Task<Void, Error>) {
        let stopNow = lock.withLock {
            transfer = task
            return stopped
        }
        if stopNow { task.cancel() }
    }

    func stop() {
        let task = lock.withLock {
            stopped = true
            return transfer
        }
        task?.cancel()
    }

    var happened: Bool { lock.withLock { stopped } }
}
