import BundleFormat

/// Counts for the one-screen summary and the `--report` file.
public struct CompileSummary: Sendable {
    /// One feed in the bundle: its counts and declared service coverage.
    public struct FeedSummary: Sendable, Encodable {
        public let feed: String
        public let stops: Int
        public let routes: Int
        public let trips: Int
        public let stopTimes: Int
        /// Declared coverage (feed_info, calendar ranges and calendar_dates together).
        public let firstDate: ServiceDate?
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

    public let feeds: Int
    public let stops: Int
    public let routes: Int
    public let trips: Int
    public let patterns: Int
    public let stopTimes: Int
    /// The first and last day any feed declares.
    public let serviceDates: (first: ServiceDate?, last: ServiceDate?)
    public let cities: Int
    public let warnings: Int
    public let perFeed: [FeedSummary]
    /// Set once the bundle is written.
    public internal(set) var bundleBytes = 0
    public internal(set) var seconds = 0.0

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
