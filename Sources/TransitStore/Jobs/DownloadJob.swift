import Foundation
import TransitRuntime

/// Where a download job is. `downloading` carries bytes done and the total.
public enum JobState: Sendable, Hashable, CustomStringConvertible {
    case queued
    case downloading(done: Int64, total: Int64)
    case verifying
    case installing
    case done
    case failed(StoreError)
    case paused
    case cancelled

    /// Done, failed or cancelled: nothing more will happen to the job.
    public var isFinal: Bool {
        switch self {
        case .done, .failed, .cancelled: return true
        default: return false
        }
    }

    /// Final, or paused (until someone resumes it).
    public var isStopped: Bool { isFinal || self == .paused }

    /// The state's name (queued, downloading, ..., done).
    public var name: String {
        switch self {
        case .queued: return "queued"
        case .downloading: return "downloading"
        case .verifying: return "verifying"
        case .installing: return "installing"
        case .done: return "done"
        case .failed: return "failed"
        case .paused: return "paused"
        case .cancelled: return "cancelled"
        }
    }

    public var description: String {
        switch self {
        case .downloading(let done, let total): return "downloading \(done)/\(total) bytes"
        case .failed(let error): return "failed: \(error)"
        default: return name
        }
    }
}

/// One bundle being downloaded, updated or installed, as an app watches it.
///
/// ```swift
/// let job = try await store.download("lisbon", explicit: true)
/// for await state in job.updates {
///     if case .downloading(let done, let total) = state { progressView.progress = Double(done) / Double(total) }
/// }
/// if case .failed(let error) = job.state { show(error) }
/// ```
public final class DownloadJob: Sendable {
    /// The bundle the job downloads.
    public let bundleID: String
    private let box = Locked(Box())

    private struct Box {
        var state: JobState = .queued
        var watchers: [UUID: AsyncStream<JobState>.Continuation] = [:]
        var reportedBytes: Int64 = -1
    }

    init(bundleID: String) {
        self.bundleID = bundleID
    }

    /// The latest state.
    public var state: JobState { box.withLock { $0.state } }

    /// The job's states from the current one on; ends after the job stops (done, failed,
    /// cancelled or paused; a resumed job has new updates). Byte progress is reported every 64 KB or 2 % (whichever is less) and at
    /// the end, so a slow screen never falls behind. Each access makes a new sequence; several watchers are fine.
    public var updates: AsyncStream<JobState> {
        AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let key = UUID()
            let current = box.withLock { box -> JobState in
                if !box.state.isStopped { box.watchers[key] = continuation }
                return box.state
            }
            continuation.yield(current)
            if current.isStopped { continuation.finish() }
            continuation.onTermination = { [weak self] _ in
                self?.box.withLock { _ = $0.watchers.removeValue(forKey: key) }
            }
        }
    }

    /// Waits until the job stops (done, failed, cancelled or paused) and returns that state.
    @discardableResult
    public func finished() async -> JobState {
        for await state in updates where state.isStopped { return state }
        return state
    }

    func set(_ state: JobState) {
        let watchers = box.withLock { box -> [AsyncStream<JobState>.Continuation] in
            box.state = state
            if case .downloading(let done, let total) = state {
                guard done == total || done - box.reportedBytes >= min(1 << 16, max(1, total / 50)) else { return [] }
                box.reportedBytes = done
            }
            let list = Array(box.watchers.values)
            if state.isStopped { box.watchers.removeAll() }
            return list
        }
        for watcher in watchers {
            watcher.yield(state)
            if state.isStopped { watcher.finish() }
        }
    }
}
