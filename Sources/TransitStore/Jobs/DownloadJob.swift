import Foundation
import TransitRuntime

/// What a waiting job waits for.
public enum NetworkWait: String, Sendable, Hashable, Codable {
    /// The device is offline: the job runs when the store is back online.
    case offline
    /// The network is expensive and the rider chose `wifiOnly`: the job runs on another one.
    case expensiveNetwork = "expensive_network"
}

/// Where a download job is. `downloading` carries bytes done and the total.
public enum JobState: Sendable, Hashable, CustomStringConvertible {
    case queued
    /// Not failed: kept, and run by itself when the network allows it (`watchConnectivity`).
    case waiting(NetworkWait)
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

    /// Final, paused (until someone resumes it) or waiting for the network: nothing happens
    /// to the job until something changes (a waiting job has new `updates` when it runs).
    public var isStopped: Bool {
        if case .waiting = self { return true }
        return isFinal || self == .paused
    }

    /// The state's name (queued, downloading, ..., done).
    public var name: String {
        switch self {
        case .queued: return "queued"
        case .waiting: return "waiting"
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
        case .waiting(.offline): return "waiting for the network (offline)"
        case .waiting(.expensiveNetwork): return "waiting for a network that is not expensive (Wi-Fi only)"
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
    /// The job's own id (each job of a bundle has another): its row in `jobHistory()`.
    public let id: String
    /// The bundle the job downloads.
    public let bundleID: String
    private let box = Locked(Box())

    private struct Box {
        var state: JobState = .queued
        var watchers: [UUID: AsyncStream<JobState>.Continuation] = [:]
        var reportedBytes: Int64 = -1
    }

    init(bundleID: String) {
        id = UUID().uuidString.lowercased()
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
