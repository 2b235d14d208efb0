import Foundation
import SyncFormat
import TransitRuntime

/// What the user chose for the store, kept in its state file.
///
/// ```swift
/// try await store.setPreferences(StorePreferences(maxBytes: 200_000_000, wifiOnly: true, pruneAfterDays: 14))
/// ```
public struct StorePreferences: Sendable, Hashable, Codable {
    /// The most bytes installed bundles and their photos may use; nil: no limit.
    public var maxBytes: Int64?
    /// Queue updates by itself when a fetched manifest has newer versions of installed bundles.
    public var autoUpdate: Bool
    /// A bundle is stale when its coverage ends within this many days.
    public var staleDays: Int
    /// Download on an unmetered network only: on an expensive one (cellular, a hotspot) jobs
    /// wait (`JobState.waiting(.expensiveNetwork)`), they do not fail.
    public var wifiOnly: Bool
    /// Cached bundles (viewed, never pinned or saved) not opened for this many days are
    /// removed by `prune()`: 1 to 90. The rider's synced preference of the same name
    /// (`TransitSync`) sets it on every device of the rider.
    public var pruneAfterDays: Int
    /// A bundle downloaded more than this many days ago is flagged (`InstalledBundle.isOld`):
    /// 1 to 365. Set, like `pruneAfterDays`, by the rider's synced preference.
    public var staleWarningDays: Int

    /// The range `pruneAfterDays` must be in: the rider's synced preference's (`SyncRules`).
    public static let pruneAfterDaysRange = SyncRules.pruneAfterDays
    /// The range `staleWarningDays` must be in: the rider's synced preference's.
    public static let staleWarningDaysRange = SyncRules.staleWarningDays

    /// Preferences with the defaults (no budget, automatic updates, 7 days' staleness, any
    /// network, pruning after 7 days, the age warning after 30) changed where given.
    public init(
        maxBytes: Int64? = nil, autoUpdate: Bool = true, staleDays: Int = 7, wifiOnly: Bool = false, pruneAfterDays: Int = 7,
        staleWarningDays: Int = 30
    ) {
        self.maxBytes = maxBytes
        self.autoUpdate = autoUpdate
        self.staleDays = staleDays
        self.wifiOnly = wifiOnly
        self.pruneAfterDays = pruneAfterDays
        self.staleWarningDays = staleWarningDays
    }

    /// Why these preferences cannot be saved, nil when they can.
    public var problem: String? {
        if let maxBytes, maxBytes < 0 { return "max_bytes must not be negative (\(maxBytes))" }
        if staleDays < 0 || staleDays > 366 { return "stale_days must be 0 to 366 (\(staleDays))" }
        for (name, value, range) in [
            ("prune_after_days", pruneAfterDays, Self.pruneAfterDaysRange),
            ("stale_warning_days", staleWarningDays, Self.staleWarningDaysRange),
        ] where !range.contains(value) {
            return "\(name) must be \(range.lowerBound) to \(range.upperBound) (\(value))"
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case maxBytes = "max_bytes"
        case autoUpdate = "auto_update"
        case staleDays = "stale_days"
        case wifiOnly = "wifi_only"
        case pruneAfterDays = "prune_after_days"
        case staleWarningDays = "stale_warning_days"
    }

    /// Missing keys take their defaults (preferences written by an older release).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = StorePreferences()
        self.init(
            maxBytes: try c.decodeIfPresent(Int64.self, forKey: .maxBytes),
            autoUpdate: try c.decodeIfPresent(Bool.self, forKey: .autoUpdate) ?? defaults.autoUpdate,
            staleDays: try c.decodeIfPresent(Int.self, forKey: .staleDays) ?? defaults.staleDays,
            wifiOnly: try c.decodeIfPresent(Bool.self, forKey: .wifiOnly) ?? defaults.wifiOnly,
            pruneAfterDays: try c.decodeIfPresent(Int.self, forKey: .pruneAfterDays) ?? defaults.pruneAfterDays,
            staleWarningDays: try c.decodeIfPresent(Int.self, forKey: .staleWarningDays) ?? defaults.staleWarningDays)
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
    /// Downloaded more than `StorePreferences.staleWarningDays` ago (default 30): the data
    /// may be out of date, whatever its coverage says. A city page says how old it is.
    public let isOld: Bool
    /// Bytes of the bundle's city photos kept beside it (counted in the budget).
    public let photoBytes: Int64

    /// An installed bundle built by hand (previews, tests).
    public init(
        id: String, path: String, contentHash: String, bytes: Int64, explicit: Bool, downloadedAt: Date, lastAccessedAt: Date,
        firstServiceDate: ServiceDate?, lastServiceDate: ServiceDate?, newerContentHash: String? = nil, isStale: Bool = false,
        isExpired: Bool = false, isOld: Bool = false, photoBytes: Int64 = 0
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
        self.isOld = isOld
        self.photoBytes = photoBytes
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
        case isOld = "old"
        case photoBytes = "photo_bytes"
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
