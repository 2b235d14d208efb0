/// What a bundle holds: its identity, its feeds and their coverage, and counts.
///
/// ```swift
/// let info = try bundle.info()
/// if info.coverage.expires(withinDays: 7, from: ServiceDate("2026-06-28")!) { /* fetch an update */ }
/// ```
public struct BundleInfo: Sendable, Equatable {
    public struct Feed: Sendable, Equatable {
        public var feedID: String
        public var timezone: String
        public var version: String?
        /// Declared coverage: feed_info dates, calendar ranges and calendar_dates together.
        public var firstServiceDate: ServiceDate?
        public var lastServiceDate: ServiceDate?
        /// The last service day on which any trip runs (may be before `lastServiceDate`).
        public var lastTripDate: ServiceDate?
        /// SHA-256 of the input feed (the zip file, or the folder's files in name order).
        public var sha256: String
    }

    /// The days a bundle (or one feed) answers for.
    public struct Coverage: Sendable, Equatable {
        public var firstServiceDate: ServiceDate?
        public var lastServiceDate: ServiceDate?
        public var lastTripDate: ServiceDate?

        /// True when `date` is after the last declared day: departures on it are out of range.
        public func isExpired(on date: ServiceDate) -> Bool {
            guard let last = lastServiceDate else { return false }
            return date > last
        }

        /// True when the declared coverage ends fewer than `days` days after `date`.
        public func expires(withinDays days: Int, from date: ServiceDate) -> Bool {
            guard let last = lastServiceDate else { return false }
            return date.adding(days: days) > last
        }
    }

    /// `gtfs-compile --id` (default: the output file's name).
    public var bundleID: String
    /// `gtfs-compile --label`, e.g. a timetable's version.
    public var label: String?
    public var compilerVersion: String?
    public var schemaVersion: Int
    /// SHA-256 of the bundle's logical content (independent of the file's page layout).
    public var contentHash: String
    /// All feeds together: the earliest first day, the latest last days.
    public var coverage: Coverage
    public var feeds: [Feed]
    public var stops: Int
    public var routes: Int
    public var trips: Int
    public var patterns: Int
    public var stopTimes: Int
    public var cities: Int
}
