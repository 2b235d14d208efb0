import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import TransitRealtime

/// Fetches every live source at its interval, with `If-None-Match` / `If-Modified-Since`,
/// keeps the last good message, backs off after failures (doubling the wait, at most ten
/// intervals), and when a message changes matches the new set against the bundle being
/// served and swaps the live view in atomically.
struct RealtimeFetcher: Service {
    let sources: LiveSources
    let registry: BundleRegistry
    let clock: @Sendable () -> Date
    let metrics: ServerMetrics
    let logger: Logger

    /// Seconds one fetch may take (the interval, at most 20).
    var timeout: TimeInterval { min(sources.interval, 20) }

    func run() async throws {
        // A service that ends before shutdown ends the server: without sources, wait for it.
        guard sources.count > 0 else { return try await gracefulShutdown() }
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .follow(max: 5, allowCycles: false)))
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<sources.count {
                    group.addTask { await poll(index, client: client) }
                }
            }
        } onGracefulShutdown: {
        }
        try? await client.shutdown()
    }

    /// Fetches one source until the task is cancelled or the server shuts down.
    private func poll(_ index: Int, client: HTTPClient) async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            await fetch(index, client: client)
            let failures = sources.state(index).failures
            let wait = failures == 0 ? sources.interval : min(sources.interval * pow(2, Double(min(failures, 10))), sources.interval * 10)
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(Int64(wait * 1000))) } } catch { return }
        }
    }

    /// One conditional fetch; the message is replaced only when its bytes changed.
    func fetch(_ index: Int, client: HTTPClient) async {
        let state = sources.state(index)
        let url = state.source.url
        var request = HTTPClientRequest(url: url.absoluteString)
        if let etag = state.etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let modified = state.lastModified { request.headers.add(name: "If-Modified-Since", value: modified) }
        let started = Date()
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            switch response.status.code {
            case 304:
                sources.update(index) { $0.succeeded(at: started) }
            case 200:
                let body = try await response.body.collect(upTo: RealtimeMessage.maximumBytes)
                let bytes = Data(buffer: body)
                let message = try RealtimeMessage(data: bytes)
                let changed = bytes != state.bytes
                sources.update(index) { current in
                    current.succeeded(at: started)
                    current.etag = response.headers.first(name: "ETag")
                    current.lastModified = response.headers.first(name: "Last-Modified")
                    if changed {
                        current.message = message
                        current.bytes = bytes
                        current.lastChange = started
                    }
                }
                if changed { await rematch(state.source.bundle) }
            default:
                throw FetchFailure("HTTP \(response.status.code)")
            }
        } catch {
            let reason = (error as? FetchFailure)?.description ?? "\(error)"
            sources.update(index) { current in
                current.lastFetch = started
                current.fetches += 1
                current.failures += 1
                current.lastError = reason
            }
            metrics.liveFailure(bundle: state.source.bundle)
            logger.warning("live source failed", metadata: ["bundle": "\(state.source.bundle)", "url": "\(url)", "error": "\(reason)"])
        }
    }

    /// Matches the bundle's messages against its current version and swaps the live view in,
    /// again if a new bundle version arrived meanwhile.
    func rematch(_ bundle: String) async {
        while let current = registry[bundle] {
            let view = await sources.view(for: current.bundle, named: bundle, now: clock())
            if registry.replace(current, with: current.with(live: view)) { return }
        }
    }

    private struct FetchFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension LiveSources.State {
    /// A fetch that worked (200 or 304).
    mutating func succeeded(at time: Date) {
        lastFetch = time
        lastSuccess = time
        lastError = nil
        failures = 0
        fetches += 1
    }
}
