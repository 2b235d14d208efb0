/// What a bundle holds.
public struct BundleInfo: Sendable, Equatable {
    public struct Feed: Sendable, Equatable {
        public var feedID: String
        public var timezone: String
        public var version: String?
        public var firstServiceDate: ServiceDate?
        public var lastServiceDate: ServiceDate?
        public var sha256: String
    }

    public var schemaVersion: Int
    public var feeds: [Feed]
    public var stops: Int
    public var routes: Int
    public var trips: Int
    public var patterns: Int
    public var stopTimes: Int
    public var cities: Int
}
