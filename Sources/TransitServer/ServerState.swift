import Foundation
import Logging
import NIOPosix
import TransitRuntime

/// What every request of one server shares: its configuration, bundles, live sources,
/// metrics, log and the threads queries run on.
final class ServerState: Sendable {
    let configuration: ServerConfiguration
    let registry: BundleRegistry
    let sources: LiveSources
    let metrics: ServerMetrics
    let logger: Logger
    /// Queries block on SQLite: they run here, never on the event loops.
    let pool: NIOThreadPool
    /// The sync endpoints, nil without `--sync-db`.
    let sync: SyncResponder?
    /// `/openapi.json` for the names it was made for (made again when a bundle is added).
    private let openAPIDocument = Locked<(names: [String], json: [UInt8])>(([], []))
    private let draining = Locked(false)

    init(
        configuration: ServerConfiguration, registry: BundleRegistry, sources: LiveSources, metrics: ServerMetrics, logger: Logger,
        sync: SyncResponder? = nil
    ) {
        self.sync = sync
        self.configuration = configuration
        self.registry = registry
        self.sources = sources
        self.metrics = metrics
        self.logger = logger
        pool = NIOThreadPool(numberOfThreads: max(1, configuration.queryThreads))
    }

    /// `/openapi.json`, its `{bundle}` naming the bundles served now.
    var openAPI: [UInt8] {
        let names = registry.names
        return openAPIDocument.withLock { document in
            if document.names != names || document.json.isEmpty { document = (names, OpenAPIDocument.json(bundles: names)) }
            return document.json
        }
    }

    /// Runs `body` on a query thread.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }

    /// True once `SIGTERM` began the drain (`/readyz` then answers 503, so that a load
    /// balancer stops sending).
    var isDraining: Bool {
        get { draining.withLock { $0 } }
        set { draining.withLock { $0 = newValue } }
    }

    /// Why the server is not ready: no bundle, live sources not fresh, messages that could
    /// not be matched.
    func unreadyReasons() -> [String] {
        var reasons: [String] = []
        let versions = registry.all
        if versions.isEmpty && sync == nil { reasons.append("no bundle is served") }
        reasons += sources.unreadyReasons(at: Date())
        for version in versions {
            if let error = version.live?.error { reasons.append("live data of \(version.name) not matched: \(error)") }
        }
        return reasons
    }

    /// Sets the gauges read at `/metrics` time.
    func recordGauges() {
        let now = Date()
        for version in registry.all {
            metrics.bundleVersion(name: version.name, contentHash: version.info.contentHash, serving: true)
            for source in sources.states(for: version.name) {
                metrics.liveAge(
                    bundle: version.name, url: source.source.url.absoluteString,
                    seconds: source.lastSuccess.map { now.timeIntervalSince($0) } ?? -1)
            }
        }
    }
}
