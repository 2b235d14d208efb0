import Foundation
import TransitRuntime

/// What the user chose for the store, kept in its state file.
///
/// ```swift
/// try await store.setPreferences(StorePreferences(maxBytes: 200_000_000, autoUpdate: true))
/// ```
public struct StorePreferences: Sendable, Hashable, Codable {
    /// The most bytes installed bundles may use; nil: no limit.
    public var maxBytes: Int64?
    /// Queue updates by itself when a fetched manifest has newer versions of installed bundles.
    public var autoUpdate: Bool
    /// A bundle is stale when its coverage ends within this many days.
    public var staleDays: Int

    /// Preferences with the defaults (no budget, automatic updates, 7 days) changed where given.
    public init(maxBytes: Int64? = nil, autoUpdate: Bool = true, staleDays: Int = 7) {
        self.maxBytes = maxBytes
        self.autoUpdate = autoUpdate
        self.staleDays = staleDays
    }

    private enum CodingKeys: String, CodingKey {
        case maxBytes = "max_bytes"
        case autoUpdate = "auto_update"
        case staleDays = "stale_days"
    }
}

/// An installed bundle as the store sees it on a given day. `Codable` as `transit-store status
/// --json` writes it (dates with the encoder's date strategy; the CLI uses ISO 8601).
public struct InstalledBundle: Sendable, Hashable, Codable, Identifiable {
    public let id: String
    /// The bundle file's path (what `TransitBundle(path:)` opens).
    public let path: String
    /// The installed version's content hash.
    public let contentHash: String
    /// The bytes it takes on the device.
    public let bytes: Int64
    /// Downloaded because the user asked: never evicted automatically.
    public let explicit: Bool
    /// `explicit`, by the name a screen uses: the user pinned it.
    public var isPinned: Bool { explicit }
    /// When this version was installed.
    public let downloadedAt: Date
    /// When it was last opened (eviction takes the least recently opened first).
    public let lastAccessedAt: Date
    /// The first day with service.
    public let firstServiceDate: ServiceDate?
    /// The last day with service.
    public let lastServiceDate: ServiceDate?
    /// The manifest lists another version (its content hash), nil when it does not.
    public let newerContentHash: String?
    /// A newer version is listed, or the coverage ends within `staleDays`.
    public let isStale: Bool
    /// The day asked about is after the last service date.
    public let isExpired: Bool

    /// An installed bundle built by hand (previews, tests).
    public init(
        id: String, path: String, contentHash: String, bytes: Int64, explicit: Bool, downloadedAt: Date, lastAccessedAt: Date,
        firstServiceDate: ServiceDate?, lastServiceDate: ServiceDate?, newerContentHash: String? = nil, isStale: Bool = false,
        isExpired: Bool = false
    ) {
        self.id = id
        self.path = path
        self.contentHash = contentHash
        self.bytes = bytes
        self.explicit = explicit
        self.downloadedAt = downloadedAt
        self.lastAccessedAt = lastAccessedAt
        self.firstServiceDate = firstServiceDate
        self.lastServiceDate = lastServiceDate
        self.newerContentHash = newerContentHash
        self.isStale = isStale
        self.isExpired = isExpired
    }

    private enum CodingKeys: String, CodingKey {
        case id, path
        case contentHash = "content_sha256"
        case bytes, explicit
        case downloadedAt = "downloaded_at"
        case lastAccessedAt = "last_accessed_at"
        case firstServiceDate = "first_service_date"
        case lastServiceDate = "last_service_date"
        case newerContentHash = "newer_content_sha256"
        case isStale = "stale"
        case isExpired = "expired"
    }
}

/// A job not finished yet, as `BundleStore.pendingJobs()` lists it (in the order jobs run).
///
/// ```swift
/// for job in try await store.pendingJobs() where job.failure != nil { print(job.id, "waits:", job.failure!) }
/// ```
public struct PendingJob: Sendable, Hashable, Codable, Identifiable {
    /// The bundle's id.
    public var id: String
    /// The user asked for the bundle (pinned: never evicted automatically).
    public var explicit: Bool
    /// `explicit`, by the name a screen uses.
    public var isPinned: Bool { explicit }
    /// Paused: `resume` continues it.
    public var paused: Bool
    /// Why its last attempt failed (its partial file is kept for the next one), nil when none did.
    public var failure: String?

    /// A pending job built by hand (previews, tests).
    public init(id: String, explicit: Bool, paused: Bool, failure: String? = nil) {
        self.id = id
        self.explicit = explicit
        self.paused = paused
        self.failure = failure
    }
}
