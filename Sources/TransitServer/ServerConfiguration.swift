import Foundation

/// What `transit-server serve` is told: the bundles it serves, where it listens, its clock,
/// its live sources and its bounds. Every field has the command line's default.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.bundles = [.init(name: "metro", path: "metro.db")]
/// configuration.port = 0
/// ```
public struct ServerConfiguration: Sendable {
    /// A bundle file served under a name (`--bundle NAME=PATH`).
    public struct NamedBundle: Sendable, Hashable {
        /// The name in request paths (`/v1/NAME/...`).
        public var name: String
        /// The bundle file; a new version replaces it by a rename.
        public var path: String

        /// A bundle served as `name`.
        public init(name: String, path: String) {
            self.name = name
            self.path = path
        }
    }

    /// A GTFS-Realtime URL fetched for a bundle (`--realtime NAME=URL`).
    public struct LiveSource: Sendable, Hashable {
        /// The bundle the messages are for.
        public var bundle: String
        /// Trip updates, vehicle positions or alerts (any mix), one message per fetch.
        public var url: URL

        /// A source for the bundle named `bundle`.
        public init(bundle: String, url: URL) {
            self.bundle = bundle
            self.url = url
        }
    }

    /// Bundle files by name.
    public var bundles: [NamedBundle] = []
    /// A `TransitStore` folder: every installed bundle, by its catalogue id.
    public var storeDirectory: String?
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port; 0 takes a free one.
    public var port = 8080
    /// A fixed clock (tests, replaying a recorded day); nil: the real one.
    public var fixedNow: Date?
    /// Live sources.
    public var liveSources: [LiveSource] = []
    /// Seconds between fetches of a live source (and the `max-age` of live answers).
    public var realtimeInterval: TimeInterval = 30
    /// Seconds between checks of the bundle files for a new version (at once on `SIGHUP`).
    public var bundleCheckInterval: TimeInterval = 2
    /// A live source is fresh while its last good fetch is younger than this many intervals.
    public var freshIntervals: Double = 3
    /// Seconds a connection may stay idle before it is closed.
    public var idleTimeout: TimeInterval = 30
    /// Seconds a request body may take to arrive.
    public var bodyTimeout: TimeInterval = 10
    /// The largest request body read (a batch), bytes.
    public var maxBodyBytes = 4 << 20
    /// The longest request target (path and query) answered, bytes.
    public var maxTargetBytes = 8 << 10
    /// Threads answering queries (default: the machine's active cores).
    public var queryThreads = ProcessInfo.processInfo.activeProcessorCount
    /// Seconds `SIGTERM` waits for requests in flight.
    public var drainTimeout: TimeInterval = 10
    /// `Access-Control-Allow-Origin` sent when set (CORS is off otherwise).
    public var corsOrigin: String?

    /// Where riders' synced data is kept (`--sync-db sqlite:PATH` or `postgres://...`);
    /// nil: the sync endpoints answer 404.
    public var syncDatabase: String?
    /// The HS256 key JWTs from the app's own login are checked with (`--jwt-secret-file`);
    /// nil: only tokens made by `transit-server token add` are taken.
    public var jwtSecret: Data?

    /// The defaults.
    public init() {}

    /// The moment a request is answered at.
    var now: Date { fixedNow ?? Date() }
}
