import Foundation
import TransitRealtime

/// `GET /v1`: the bundles served and the version of each.
struct BundleList: Encodable {
    struct Entry: Encodable {
        var name: String
        var bundleID: String
        var label: String?
        var contentHash: String
        var live: Bool

        enum CodingKeys: String, CodingKey {
            case name, label, live
            case bundleID = "bundle_id"
            case contentHash = "content_hash"
        }
    }
    var bundles: [Entry]

    init(_ versions: [ServedBundle]) {
        bundles = versions.map {
            Entry(name: $0.name, bundleID: $0.info.bundleID, label: $0.info.label, contentHash: $0.info.contentHash, live: $0.live != nil)
        }
    }
}

/// `GET /v1/NAME/realtime`: each live source of the bundle and the snapshot's report.
struct LiveReport: Encodable {
    struct Source: Encodable {
        var url: String
        var lastFetch: Date?
        var lastSuccess: Date?
        var lastChange: Date?
        /// Seconds from the message's header time to the server's clock.
        var ageSeconds: Double?
        var messageTime: Date?
        var entities: Int?
        var fetches: Int
        var failures: Int
        var lastError: String?

        enum CodingKeys: String, CodingKey {
            case url, entities, fetches, failures
            case lastFetch = "last_fetch"
            case lastSuccess = "last_success"
            case lastChange = "last_change"
            case ageSeconds = "age_seconds"
            case messageTime = "message_time"
            case lastError = "last_error"
        }
    }
    var bundle: String
    var contentHash: String
    var sources: [Source]
    var snapshot: RealtimeReport?
    var snapshotError: String?

    enum CodingKeys: String, CodingKey {
        case bundle, sources, snapshot
        case contentHash = "content_hash"
        case snapshotError = "snapshot_error"
    }

    init(name: String, state: ServerState) throws {
        guard let version = state.registry[name] else {
            throw ServerFailure(status: 404, code: "unknown_bundle", message: "no bundle named \"\(name.prefix(100))\"")
        }
        let now = state.configuration.now
        bundle = name
        contentHash = version.info.contentHash
        sources = state.sources.states(for: name).map { source in
            Source(
                url: source.source.url.absoluteString, lastFetch: source.lastFetch, lastSuccess: source.lastSuccess,
                lastChange: source.lastChange, ageSeconds: source.message.map { (now.timeIntervalSince($0.timestamp) * 10).rounded() / 10 },
                messageTime: source.message?.timestamp, entities: source.message?.entityCount, fetches: source.fetches,
                failures: source.failures, lastError: source.lastError)
        }
        snapshot = version.live?.snapshot?.report
        snapshotError = version.live?.error
    }
}
