import CoreMetrics
import Foundation
import Prometheus

/// The server's metrics through swift-metrics, kept in its own Prometheus registry (one per
/// server, so several servers in one process never mix counts) and written by `/metrics`.
/// Labels take a bounded set of values only: commands from the command list, status codes,
/// configured bundle names and sources.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .seconds(2.5), .seconds(5),
        ]
        self.factory = factory
    }

    /// One answered request.
    func request(command: String, status: Int, seconds: Double) {
        Counter(label: "transit_requests_total", dimensions: [("command", command), ("status", "\(status)")], factory: factory)
            .increment()
        Timer(label: "transit_request_duration_seconds", dimensions: [("command", command)], factory: factory)
            .recordNanoseconds(Int64(seconds * 1e9))
    }

    /// A failed fetch of a live source.
    func liveFailure(bundle: String) {
        Counter(label: "transit_live_fetch_failures_total", dimensions: [("bundle", bundle)], factory: factory).increment()
    }

    /// A live source's age (seconds since its last good fetch) when `/metrics` is read.
    func liveAge(bundle: String, url: String, seconds: Double) {
        Gauge(label: "transit_live_source_age_seconds", dimensions: [("bundle", bundle), ("url", url)], factory: factory)
            .record(seconds)
    }

    /// The version a bundle is served at (a gauge of 1 per bundle and content hash; the
    /// replaced version's gauge goes to 0).
    func bundleVersion(name: String, contentHash: String, serving: Bool) {
        Gauge(label: "transit_bundle_version", dimensions: [("bundle", name), ("content_hash", contentHash)], factory: factory)
            .record(serving ? 1 : 0)
    }

    func bundleSwapped(name: String, from: String, to: String) {
        Counter(label: "transit_bundle_swaps_total", dimensions: [("bundle", name)], factory: factory).increment()
        bundleVersion(name: name, contentHash: from, serving: false)
        bundleVersion(name: name, contentHash: to, serving: true)
    }

    func bundleRefused(name: String) {
        Counter(label: "transit_bundle_refused_total", dimensions: [("bundle", name)], factory: factory).increment()
    }

    /// The Prometheus text.
    func text() -> [UInt8] { registry.emitToBuffer() }
}
