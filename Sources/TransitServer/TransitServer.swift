import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import SyncFormat
import TransitStore

/// `transit-server`: the runtime over HTTP (docs/server-semantics.md). It opens every bundle
/// before it listens, answers each request from one version of its bundle, fetches live
/// data, swaps in new bundle versions, and on `SIGTERM` (or `SIGINT`) stops accepting,
/// finishes the requests in flight and returns.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.bundles = [.init(name: "metro", path: "metro.db")]
/// let server = try await TransitServer(configuration: configuration)
/// try await server.run { host, port in print("listening on http://\(host):\(port)") }
/// ```
public struct TransitServer: Sendable {
    let state: ServerState
    private let paths: [String: String]

    /// Opens the bundles (files and a store's installed ones).
    /// - Throws: the runtime's error for a bundle that cannot be opened (nothing is served
    ///   half-configured), `ServerConfigurationError` for names given twice or live sources
    ///   of a bundle not served.
    public init(configuration: ServerConfiguration, logger: Logger = Logger(label: "transit-server")) async throws {
        var served: [ServedBundle] = []
        var paths: [String: String] = [:]
        for named in configuration.bundles {
            guard paths[named.name] == nil else { throw ServerConfigurationError("bundle name \(named.name) given twice") }
            guard named.name != "sync" else { throw ServerConfigurationError("bundle name sync is taken by /v1/sync") }
            guard Self.isSafeName(named.name) else {
                throw ServerConfigurationError("bundle name \(named.name): letters, digits, '.', '_' and '-' only")
            }
            let identity = FileIdentity(path: named.path)
            let (bundle, info) = try ServedBundle.open(name: named.name, path: named.path)
            served.append(ServedBundle(name: named.name, bundle: bundle, info: info, file: identity, live: nil))
            paths[named.name] = named.path
        }
        if let directory = configuration.storeDirectory {
            let store = try BundleStore(directory: directory)
            for installed in try await store.status() where paths[installed.id] == nil && installed.id != "sync" {
                let (bundle, info) = try ServedBundle.open(name: installed.id, path: installed.path)
                served.append(
                    ServedBundle(name: installed.id, bundle: bundle, info: info, file: FileIdentity(path: installed.path), live: nil))
            }
        }
        let names = Set(served.map(\.name))
        for source in configuration.liveSources where !names.contains(source.bundle) {
            throw ServerConfigurationError("--realtime \(source.bundle)=...: no bundle of that name")
        }
        let sources = LiveSources(
            configuration.liveSources, interval: configuration.realtimeInterval, freshIntervals: configuration.freshIntervals)
        // A bundle with sources starts with an empty live view: live until the first message.
        served = served.map { sources.hasSources(for: $0.name) ? $0.with(live: LiveView(snapshot: nil, generation: 0)) : $0 }
        var sync: SyncResponder?
        if let address = configuration.syncDatabase {
            let storage = try await SyncStorageAddress(address).open()
            let key = configuration.jwtSecret.map { SymmetricKey(data: $0) }
            sync = SyncResponder(
                storage: storage, authentication: RiderAuthentication(storage: storage, jwtKey: key),
                bodyTimeout: configuration.bodyTimeout, clock: { configuration.now })
        }
        state = ServerState(
            configuration: configuration, registry: BundleRegistry(served), sources: sources, metrics: ServerMetrics(), logger: logger,
            sync: sync)
        self.paths = paths
    }

    /// The names of the bundles served.
    public var bundleNames: [String] { state.registry.names }

    /// Serves until `SIGTERM` or `SIGINT` (or the task is cancelled), then drains: no new
    /// connection, requests in flight answered (for at most `drainTimeout` seconds).
    /// `onListening` gets the address once connections are accepted.
    public func run(onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) async throws {
        let configuration = state.configuration
        Self.raiseOpenFileLimit()
        state.pool.start()
        let state = self.state
        let application = Application(
            responder: QueryResponder(state: state),
            server: .http1(configuration: .init(idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000)))),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                await onListening(configuration.host, channel.localAddress?.port ?? configuration.port)
            },
            logger: state.logger)
        let clock: @Sendable () -> Date = { configuration.now }
        let fetcher = RealtimeFetcher(
            sources: state.sources, registry: state.registry, clock: clock, metrics: state.metrics, logger: state.logger)
        let watcher = BundleWatcher(
            registry: state.registry, paths: paths, storeDirectory: configuration.storeDirectory, sources: state.sources,
            interval: configuration.bundleCheckInterval, clock: clock, metrics: state.metrics, logger: state.logger)
        let drain = DrainSignal(state: state)
        // Shut down in reverse order: the drain flag first (readiness 503), then the
        // watchers, the HTTP server last.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: application), .init(service: fetcher), .init(service: watcher), .init(service: drain)],
                gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [], logger: state.logger))
        do {
            try await group.run()
        } catch {
            try? await state.pool.shutdownGracefully()
            await state.sync?.storage.close()
            throw error
        }
        try? await state.pool.shutdownGracefully()
        await state.sync?.storage.close()
    }

    /// Each connection takes a file descriptor: the soft limit (often 1,024) goes up to the
    /// hard one, so that thousands of idle connections do not starve new ones.
    static func raiseOpenFileLimit() {
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = min(limit.rlim_max, 1 << 20)
        _ = setrlimit(resource, &limit)
    }

    /// Bundle names go into paths and metric labels: a safe alphabet only.
    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 100
            && name.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 46 || byte == 95 || byte == 45
            } && name != "." && name != ".."
    }
}

/// A server configuration that cannot run.
public struct ServerConfigurationError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Marks the server draining when shutdown begins, so `/readyz` says so.
private struct DrainSignal: Service {
    let state: ServerState

    func run() async throws {
        try? await gracefulShutdown()
        state.isDraining = true
    }
}
