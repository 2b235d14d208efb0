import Foundation
import TransitRuntime

/// What the store knows of the network: one place that every source of news feeds, and that
/// jobs and screens read.
///
/// Its sources: the platform (`NWPathMonitor` on Apple platforms, while
/// `BundleStore.watchConnectivity` runs), the outcome of every real request the store makes
/// (a refused connection, no route or no name resolution: offline; any answer from a server:
/// online), the probes `watchConnectivity` sends to the manifest's host, and the app itself
/// (`report(_:)`, e.g. from its own reachability code or a test). A change is reported at
/// once, with no debounce: the first failed probe or request makes it offline.
///
/// ```swift
/// let monitor = ConnectivityMonitor()
/// let store = try BundleStore(directory: dir, connectivity: monitor)
/// for await path in monitor.changes() { badge.isHidden = path.isOnline }
/// ```
public final class ConnectivityMonitor: Sendable {
    private let box: Locked<Box>

    private struct Box {
        var path: NetworkPath
        var watchers: [UUID: AsyncStream<NetworkPath>.Continuation] = [:]
    }

    /// A monitor starting at `path` (online until something says otherwise).
    public init(_ path: NetworkPath = .online) {
        box = Locked(Box(path: path))
    }

    /// The network as last reported.
    public var path: NetworkPath { box.withLock { $0.path } }

    /// Says what the network is now (the platform's monitor, the app, a test). Reported to
    /// `changes()` when it differs from the last.
    public func report(_ path: NetworkPath) { change { $0 = path } }

    /// A request reached a server: online, keeping what is known of the path's cost.
    func requestReachedServer() { change { $0.isOnline = true } }

    /// A request could not reach its host at all: offline.
    func requestFoundNoNetwork() { change { $0.isOnline = false } }

    /// Changes the path under the lock; watchers hear of a change.
    private func change(_ body: (inout NetworkPath) -> Void) {
        let (path, watchers) = box.withLock { box -> (NetworkPath, [AsyncStream<NetworkPath>.Continuation]) in
            var path = box.path
            body(&path)
            guard box.path != path else { return (path, []) }
            box.path = path
            return (path, Array(box.watchers.values))
        }
        for watcher in watchers { watcher.yield(path) }
    }

    /// Each change of the path from now on, for as long as the caller iterates.
    public func changes() -> AsyncStream<NetworkPath> {
        AsyncStream(bufferingPolicy: .bufferingNewest(16)) { continuation in
            let key = UUID()
            box.withLock { $0.watchers[key] = continuation }
            continuation.onTermination = { [weak self] _ in
                self?.box.withLock { _ = $0.watchers.removeValue(forKey: key) }
            }
        }
    }

    deinit {
        for watcher in box.withLock({ Array($0.watchers.values) }) { watcher.finish() }
    }
}
