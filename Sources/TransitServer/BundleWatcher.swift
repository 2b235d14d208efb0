import Foundation
import Logging
import ServiceLifecycle
import TransitRuntime
import TransitStore
import UnixSignals

/// Notices new versions of the served bundles: every `interval` seconds, and at once on
/// `SIGHUP`, each bundle file is checked (`stat`: a rename over it or a rewrite changes it),
/// and a store's installed bundles are listed. A new version is opened and checked (its
/// description read, its timetable index loaded), matched against the live messages, and
/// swapped in atomically; requests in flight finish on the version they began with, which
/// closes when the last of them lets go. A version that fails to open is logged and the
/// old one goes on serving.
struct BundleWatcher: Service {
    let registry: BundleRegistry
    let paths: [String: String]
    let storeDirectory: String?
    let sources: LiveSources
    let interval: TimeInterval
    let clock: @Sendable () -> Date
    let metrics: ServerMetrics
    let logger: Logger

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(Int64(interval * 1000))) } } catch {
                        return
                    }
                    await checkAll()
                }
            }
            group.addTask {
                for await _ in hangups.cancelOnGracefulShutdown() {
                    logger.info("SIGHUP: checking bundles")
                    await checkAll()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Checks every bundle once.
    func checkAll() async {
        if let storeDirectory { await checkStore(storeDirectory) }
        for (name, path) in paths.sorted(by: { $0.key < $1.key }) {
            guard let current = registry[name] else { continue }
            let identity = FileIdentity(path: path)
            guard let identity, identity != current.file else { continue }
            await swap(current, path: path, identity: identity)
        }
    }

    private func checkStore(_ directory: String) async {
        do {
            let store = try BundleStore(directory: directory)
            for installed in try await store.status() {
                guard let current = registry[installed.id] else {
                    await add(installed.id, path: installed.path)
                    continue
                }
                guard current.info.contentHash != installed.contentHash else { continue }
                await swap(current, path: installed.path, identity: FileIdentity(path: installed.path))
            }
        } catch {
            logger.error("store check failed", metadata: ["store": "\(directory)", "error": "\(error)"])
        }
    }

    /// Serves a bundle the store installed after the server started.
    private func add(_ name: String, path: String) async {
        guard TransitServer.isSafeName(name) else { return }
        do {
            let identity = FileIdentity(path: path)
            let (bundle, info) = try ServedBundle.open(name: name, path: path)
            let live = await sources.view(for: bundle, named: name, now: clock())
            if registry.add(ServedBundle(name: name, bundle: bundle, info: info, file: identity, live: live)) {
                metrics.bundleVersion(name: name, contentHash: info.contentHash, serving: true)
                logger.info("bundle added", metadata: ["bundle": "\(name)", "version": "\(info.contentHash.prefix(12))"])
            }
        } catch {
            metrics.bundleRefused(name: name)
            logger.error("installed bundle refused", metadata: ["bundle": "\(name)", "path": "\(path)", "error": "\(error)"])
        }
    }

    /// Opens the new version at `path` and puts it in place of `current`.
    private func swap(_ current: ServedBundle, path: String, identity: FileIdentity?) async {
        let name = current.name
        do {
            let (bundle, info) = try ServedBundle.open(name: name, path: path)
            var replaced = current
            repeat {
                replaced = registry[name] ?? current
                let live = await sources.view(for: bundle, named: name, now: clock())
                let version = ServedBundle(name: name, bundle: bundle, info: info, file: identity, live: live)
                if registry.replace(replaced, with: version) { break }
            } while true
            metrics.bundleSwapped(name: name, from: replaced.info.contentHash, to: info.contentHash)
            logger.info(
                "bundle replaced",
                metadata: ["bundle": "\(name)", "from": "\(replaced.info.contentHash.prefix(12))", "to": "\(info.contentHash.prefix(12))"])
        } catch {
            metrics.bundleRefused(name: name)
            logger.error(
                "new version refused; the old one goes on", metadata: ["bundle": "\(name)", "path": "\(path)", "error": "\(error)"])
            // Remember the refused file, so that it is not opened again every interval.
            if let identity { registry.replace(current, with: current.with(file: identity)) }
        }
    }
}
