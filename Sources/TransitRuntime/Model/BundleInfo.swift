import Foundation

/// What a bundle holds: its identity, its feeds and their coverage, and counts.
/// `Codable` as `transit-query info --json` writes it.
///
/// ```swift
/// let info = try bundle.info()
/// if info.coverage.expires(withinDays: 7, from: ServiceDate("2026-06-28")!) { /* fetch an update */ }
/// ```
public struct BundleInfo: Sendable, Hashable, Codable, Identifiable {
    /// One GTFS feed compiled into the bundle.
    public struct Feed: Sendable, Hashable, Codable, Identifiable {
        /// The feed's name in the bundle.
        public var feedID: String
        /// The feed's IANA time zone name (agency_timezone), e.g. "Europe/Paris".
        public var timezone: String
        /// feed_info's feed_version, nil when not given.
        public var version: String?
        /// Declared coverage: feed_info dates, calendar ranges and calendar_dates together.
        public var firstServiceDate: ServiceDate?
        /// The last day with service.
        public var lastServiceDate: ServiceDate?
        /// The last service day on which any trip runs (may be before `lastServiceDate`).
        public var lastTripDate: ServiceDate?
        /// SHA-256 of the input feed (the zip file, or the folder's files in name order).
        public var sha256: String
        /// feed_info's feed_publisher_name: who publishes the feed.
        public var publisherName: String?
        /// feed_info's feed_publisher_url.
        public var publisherURL: String?
        /// feed_info's feed_lang: the language of the feed's texts (BCP 47, or "mul").
        public var language: String?
        /// feed_info's default_lang: the language for riders whose own the feed lacks.
        public var defaultLanguage: String?
        /// feed_info's feed_contact_email: where to report a problem with the data.
        public var contactEmail: String?
        /// feed_info's feed_contact_url.
        public var contactURL: String?
        /// attributions.txt: the organisations to credit, in the feed's order.
        public var attributions: [Attribution]

        /// The feed's id.
        public var id: String { feedID }

        /// The feed's time zone; nil only for a name this system's time zone database lacks.
        public var timeZone: TimeZone? { TimeZone(identifier: timezone) }

        /// A feed built by hand (previews, tests).
        public init(
            feedID: String, timezone: String, version: String? = nil, firstServiceDate: ServiceDate? = nil,
            lastServiceDate: ServiceDate? = nil, lastTripDate: ServiceDate? = nil, sha256: String = "", publisherName: String? = nil,
            publisherURL: String? = nil, language: String? = nil, defaultLanguage: String? = nil, contactEmail: String? = nil,
            contactURL: String? = nil, attributions: [Attribution] = []
        ) {
            self.feedID = feedID
            self.timezone = timezone
            self.version = version
            self.firstServiceDate = firstServiceDate
            self.lastServiceDate = lastServiceDate
            self.lastTripDate = lastTripDate
            self.sha256 = sha256
            self.publisherName = publisherName
            self.publisherURL = publisherURL
            self.language = language
            self.defaultLanguage = defaultLanguage
            self.contactEmail = contactEmail
            self.contactURL = contactURL
            self.attributions = attributions
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            feedID = try c.decode(String.self, forKey: .feedID)
            timezone = try c.decode(String.self, forKey: .timezone)
            version = try c.decodeIfPresent(String.self, forKey: .version)
            firstServiceDate = try c.decodeIfPresent(ServiceDate.self, forKey: .firstServiceDate)
            lastServiceDate = try c.decodeIfPresent(ServiceDate.self, forKey: .lastServiceDate)
            lastTripDate = try c.decodeIfPresent(ServiceDate.self, forKey: .lastTripDate)
            sha256 = try c.decode(String.self, forKey: .sha256)
            publisherName = try c.decodeIfPresent(String.self, forKey: .publisherName)
            publisherURL = try c.decodeIfPresent(String.self, forKey: .publisherURL)
            language = try c.decodeIfPresent(String.self, forKey: .language)
            defaultLanguage = try c.decodeIfPresent(String.self, forKey: .defaultLanguage)
            contactEmail = try c.decodeIfPresent(String.self, forKey: .contactEmail)
            contactURL = try c.decodeIfPresent(String.self, forKey: .contactURL)
            // Absent from what earlier versions wrote.
            attributions = try c.decodeIfPresent([Attribution].self, forKey: .attributions) ?? []
        }

        private enum CodingKeys: String, CodingKey {
            case feedID = "feed"
            case timezone
            case version = "feed_version"
            case firstServiceDate = "first_service_date"
            case lastServiceDate = "last_service_date"
            case lastTripDate = "last_trip_date"
            case sha256
            case publisherName = "publisher_name"
            case publisherURL = "publisher_url"
            case language = "feed_lang"
            case defaultLanguage = "default_lang"
            case contactEmail = "contact_email"
            case contactURL = "contact_url"
            case attributions
        }
    }

    /// The days a bundle (or one feed) answers for.
    public struct Coverage: Sendable, Hashable, Codable {
        /// The first day any feed has service.
        public var firstServiceDate: ServiceDate?
        /// The last day any feed has service.
        public var lastServiceDate: ServiceDate?
        /// The last calendar day a trip runs on.
        public var lastTripDate: ServiceDate?

        /// A coverage built by hand (previews, tests).
        public init(firstServiceDate: ServiceDate? = nil, lastServiceDate: ServiceDate? = nil, lastTripDate: ServiceDate? = nil) {
            self.firstServiceDate = firstServiceDate
            self.lastServiceDate = lastServiceDate
            self.lastTripDate = lastTripDate
        }

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

        private enum CodingKeys: String, CodingKey {
            case firstServiceDate = "first_service_date"
            case lastServiceDate = "last_service_date"
            case lastTripDate = "last_trip_date"
        }
    }

    /// `gtfs-compile --id` (default: the output file's name).
    public var bundleID: String
    /// `gtfs-compile --label`, e.g. a timetable's version.
    public var label: String?
    /// The gtfs-compile version that wrote the bundle.
    public var compilerVersion: String?
    /// The bundle's schema version (`TransitBundle.supportedSchemaVersion` reads it).
    public var schemaVersion: Int
    /// SHA-256 of the bundle's logical content (independent of the file's page layout).
    public var contentHash: String
    /// All feeds together: the earliest first day, the latest last days.
    public var coverage: Coverage
    /// The feeds inside.
    public var feeds: [Feed]
    /// Stops, stations and other locations.
    public var stops: Int
    /// Routes.
    public var routes: Int
    /// Trips.
    public var trips: Int
    /// Distinct stop patterns.
    public var patterns: Int
    /// Stop times.
    public var stopTimes: Int
    /// Cities in the catalogue.
    public var cities: Int

    /// The bundle id.
    public var id: String { bundleID }

    /// A bundle description built by hand (previews, tests); counts default to zero.
    public init(
        bundleID: String, label: String? = nil, compilerVersion: String? = nil, schemaVersion: Int, contentHash: String,
        coverage: Coverage = Coverage(), feeds: [Feed] = [], stops: Int = 0, routes: Int = 0, trips: Int = 0, patterns: Int = 0,
        stopTimes: Int = 0, cities: Int = 0
    ) {
        self.bundleID = bundleID
        self.label = label
        self.compilerVersion = compilerVersion
        self.schemaVersion = schemaVersion
        self.contentHash = contentHash
        self.coverage = coverage
        self.feeds = feeds
        self.stops = stops
        self.routes = routes
        self.trips = trips
        self.patterns = patterns
        self.stopTimes = stopTimes
        self.cities = cities
    }

    /// The keys of `transit-query info --json`.
    private enum CodingKeys: String, CodingKey {
        case bundleID = "bundle_id"
        case label
        case compilerVersion = "compiler_version"
        case schemaVersion = "schema_version"
        case contentHash = "content_sha256"
        case coverage, feeds, stops, routes, trips, patterns
        case stopTimes = "stop_times"
        case cities
    }
}
