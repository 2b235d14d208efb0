import Foundation

/// Downloads one file of the manifest into its partial file and checks it: resumes with the
/// bytes already there, retries transient failures with growing pauses, and compares the
/// size and SHA-256 with the manifest before anyone may use the file.
struct FileFetcher: Sendable {
    let transport: any StoreTransport
    let retries: RetryPolicy

    /// Fetches `url` into `part` until it holds `bytes` bytes whose SHA-256 is `sha256`.
    /// - Throws: `StoreError.transfer` (after the retries, or at once when permanent),
    ///   `StoreError.hashMismatch` (the partial file is removed), `CancellationError`.
    func fetch(
        _ url: URL, bytes: Int64, sha256: String, into part: String, id: String, report: @escaping @Sendable (JobState) -> Void
    ) async throws {
        var failures = 0
        var restartedAfterMismatch = false
        while true {
            var have = BundleFiles.stat(part)?.size ?? 0
            if have > bytes {
                try? FileManager.default.removeItem(atPath: part)
                have = 0
            }
            let resumed = have > 0
            if have < bytes {
                report(.downloading(done: have, total: bytes))
                do {
                    try await transport.download(url, to: part, resumingAt: have) { done in
                        report(.downloading(done: done, total: bytes))
                    }
                } catch let error as TransportError {
                    failures += 1
                    guard error.transient, failures <= retries.limit else {
                        throw StoreError.transfer(error.message, transient: error.transient)
                    }
                    try await Task.sleep(nanoseconds: retries.pause(after: failures))
                    continue
                }
                let size = BundleFiles.stat(part)?.size ?? 0
                if size < bytes {
                    failures += 1
                    guard failures <= retries.limit else {
                        throw StoreError.transfer("\(url.absoluteString) ended after \(size) of \(bytes) bytes", transient: true)
                    }
                    try await Task.sleep(nanoseconds: retries.pause(after: failures))
                    continue
                }
            }
            report(.verifying)
            let found = try await Task.detached { try FileDigest.sha256(of: part) }.value
            let size = BundleFiles.stat(part)?.size ?? 0
            if found == sha256 && size == bytes { return }
            try? FileManager.default.removeItem(atPath: part)
            // Bytes kept from an earlier attempt may be what went wrong: one fresh try.
            if resumed && !restartedAfterMismatch {
                restartedAfterMismatch = true
                continue
            }
            throw StoreError.hashMismatch(id: id, expected: sha256, found: found)
        }
    }
}

/// How often and how patiently transient failures are retried.
public struct RetryPolicy: Sendable {
    /// Attempts after the first one.
    public var limit: Int
    /// The pause before the first retry; it doubles each time, up to `maxPause`.
    public var firstPause: Double
    public var maxPause: Double

    public init(limit: Int = 5, firstPause: Double = 0.5, maxPause: Double = 30) {
        self.limit = limit
        self.firstPause = firstPause
        self.maxPause = maxPause
    }

    func pause(after failures: Int) -> UInt64 {
        let seconds = min(maxPause, firstPause * Double(1 << min(failures - 1, 20)))
        return UInt64(seconds * 1e9)
    }
}
