import BundleFormat

/// Counts for the one-screen summary and the `--report` file.
public struct CompileSummary: Sendable {
    /// One feed in the bundle: its counts and declared service coverage.
    public struct FeedSummary: Sendable, Encodable {
        /// The feed's name in the bundle.
        public let feed: String
        /// Stops kept.
        public let stops: Int
        /// Routes kept.
        public let routes: Int
        /// Trips kept.
        public let trips: Int
        /// Stop times kept.
        public let stopTimes: Int
        /// Declared coverage (feed_info, calendar ranges and calendar_dates together).
        public let firstDate: ServiceDate?
        /// The last day with service.
        public let lastDate: ServiceDate?

        enum CodingKeys: String, CodingKey {
            case feed, stops, routes, trips
            case stopTimes = "stop_times"
            case firstDate = "first_date"
            case lastDate = "last_date"
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(feed, forKey: .feed)
            try c.encode(stops, forKey: .stops)
            try c.encode(routes, forKey: .routes)
            try c.encode(trips, forKey: .trips)
            try c.encode(stopTimes, forKey: .stopTimes)
            try c.encodeIfPresent(firstDate, forKey: .firstDate)
            try c.encodeIfPresent(lastDate, forKey: .lastDate)
        }
    }

    /// Feeds compiled.
    public let feeds: Int
    /// Stops in the bundle.
    public let stops: Int
    /// Routes in the bundle.
    public let routes: Int
    /// Trips in the bundle.
    public let trips: Int
    /// Distinct stop patterns.
    public let patterns: Int
    /// Stop times in the bundle.
    public let stopTimes: Int
    /// The first and last day any feed declares.
    public let serviceDates: (first: ServiceDate?, last: ServiceDate?)
    /// Cities in the catalogue.
    public let cities: Int
    /// Warnings reported.
    public let warnings: Int
    /// Each feed's figures.
    public let perFeed: [FeedSummary]
    /// Set once the bundle is written.
    public internal(set) var bundleBytes = 0
    /// Wall-clock seconds the compile took.
    public internal(set) var seconds = 0.0
    /// The calendar, map and changes a report shows; nil unless the request asked for them.
    public internal(set) var facts: ReportFacts?

    init(model: BundleModel, cities: Int, warnings: Int) {
        feeds = model.feeds.count
        stops = model.stops.count
        routes = model.routes.count
        trips = model.trips.count
        patterns = model.patterns.count
        stopTimes = model.stopTimeCount
        serviceDates = (
            model.feeds.compactMap(\.firstDate).min().flatMap(Self.date), model.feeds.compactMap(\.lastDate).max().flatMap(Self.date)
        )
        self.cities = cities
        self.warnings = warnings
        perFeed = model.feeds.map { feed in
            FeedSummary(
                feed: feed.feedID, stops: feed.counts.stops, routes: feed.counts.routes, trips: feed.counts.trips,
                stopTimes: feed.counts.stopTimes, firstDate: feed.firstDate.flatMap(Self.date), lastDate: feed.lastDate.flatMap(Self.date))
        }
    }

    /// The model's `YYYYMMDD` as a date.
    private static func date(_ yyyymmdd: Int) -> ServiceDate? { CivilDate(yyyymmdd: yyyymmdd).map(ServiceDate.init) }
}
