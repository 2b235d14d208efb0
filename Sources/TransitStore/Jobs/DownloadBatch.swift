import Foundation

/// How far a "Download all" has come: bundles finished out of all, bytes done out of all.
/// `Codable` as `transit-store download-all --json` prints it.
public struct BatchProgress: Sendable, Hashable, Codable {
    /// Jobs that ended (done, failed or cancelled).
    public var finishedJobs: Int
    /// Jobs that failed.
    public var failedJobs: Int
    /// Every job of the batch.
    public var totalJobs: Int
    /// Bytes downloaded so far (finished jobs count whole).
    public var doneBytes: Int64
    /// Bytes of every bundle of the batch, as the manifest lists them.
    public var totalBytes: Int64

    /// Done bytes over all bytes, 0 to 1 (1 for an empty batch).
    public var fraction: Double { totalBytes > 0 ? min(1, Double(doneBytes) / Double(totalBytes)) : 1 }

    private enum CodingKeys: String, CodingKey {
        case finishedJobs = "finished_jobs"
        case failedJobs = "failed_jobs"
        case totalJobs = "total_jobs"
        case doneBytes = "done_bytes"
        case totalBytes = "total_bytes"
    }
}

/// The jobs of `BundleStore.downloadAll`, run one after another, with their overall progress.
///
/// ```swift
/// let batch = try await store.downloadAll()
/// for await progress in batch.updates { bar.progress = progress.fraction }
/// ```
public final class DownloadBatch: Sendable {
    /// The batch's jobs, in the order they run.
    public let jobs: [DownloadJob]
    private let sizes: [Int64]

    init(jobs: [DownloadJob], sizes: [Int64]) {
        self.jobs = jobs
        self.sizes = sizes
    }

    /// Where the batch is now.
    public var progress: BatchProgress {
        var progress = BatchProgress(finishedJobs: 0, failedJobs: 0, totalJobs: jobs.count, doneBytes: 0, totalBytes: sizes.reduce(0, +))
        for (job, size) in zip(jobs, sizes) {
            switch job.state {
            case .done, .cancelled:
                progress.finishedJobs += 1
                progress.doneBytes += size
            case .failed:
                progress.finishedJobs += 1
                progress.failedJobs += 1
                progress.doneBytes += size
            case .downloading(let done, _): progress.doneBytes += min(done, size)
            case .verifying, .installing: progress.doneBytes += size
            case .queued, .waiting, .paused: break
            }
        }
        return progress
    }

    /// The overall progress after each change of a job, until every job has stopped.
    public var updates: AsyncStream<BatchProgress> {
        let jobs = self.jobs
        return AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let follower = Task {
                continuation.yield(self.progress)
                for job in jobs {
                    for await _ in job.updates { continuation.yield(self.progress) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in follower.cancel() }
        }
    }

    /// Waits until every job has stopped; answers the progress then.
    @discardableResult
    public func finished() async -> BatchProgress {
        for job in jobs { await job.finished() }
        return progress
    }
}
