import Foundation
import TransitRuntime

extension Catalogue {
    /// A feed inside a bundle on offer: its id, `feed_info.feed_version`, coverage, publisher
    /// and the organisations to credit.
    public struct FeedOffer: Sendable, Hashable, Codable {
        /// The feed's name in the bundle.
        public let feedID: String
        /// The feed's version, nil when not given.
        public let version: String?
        /// The days the feed has service for.
        public let coverage: Coverage
        /// Who publishes the feed (feed_info's feed_publisher_name), nil when not given.
        public let publisherName: String?
        /// The organisations to credit for the data (attributions.txt): what an app shows
        /// before the download, as many licences ask.
        public let attributions: [Attribution]

        /// A feed offer built by hand (previews, tests).
        public init(
            feedID: String, version: String? = nil, coverage: Coverage = Coverage(), publisherName: String? = nil,
            attributions: [Attribution] = []
        ) {
            self.feedID = feedID
            self.version = version
            self.coverage = coverage
            self.publisherName = publisherName
            self.attributions = attributions
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            feedID = try c.decode(String.self, forKey: .feedID)
            version = try c.decodeIfPresent(String.self, forKey: .version)
            coverage = try c.decode(Coverage.self, forKey: .coverage)
            publisherName = try c.decodeIfPresent(String.self, forKey: .publisherName)
            attributions = try c.decodeIfPresent([Attribution].self, forKey: .attributions) ?? []
        }

        private enum CodingKeys: String, CodingKey {
            case feedID = "feed_id"
            case version, coverage
            case publisherName = "publisher_name"
            case attributions
        }
    }

    /// The box a bundle's stops lie in, in degrees.
    ///
    /// ```swift
    /// let here = Coordinate(latitude: 48.58, longitude: 7.75)
    /// let local = catalogue.bundles.first { $0.boundingBox?.contains(here) == true }
    /// ```
    public struct BoundingBox: Sendable, Hashable, Codable {
        /// The southern edge, degrees.
        public let minLatitude: Double
        /// The western edge, degrees.
        public let minLongitude: Double
        /// The northern edge, degrees.
        public let maxLatitude: Double
        /// The eastern edge, degrees.
        public let maxLongitude: Double

        /// A box built by hand (previews, tests).
        public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
            self.minLatitude = minLatitude
            self.minLongitude = minLongitude
            self.maxLatitude = maxLatitude
            self.maxLongitude = maxLongitude
        }

        /// Whether `point` lies inside the box (edges included).
        public func contains(_ point: Coordinate) -> Bool {
            (minLatitude...maxLatitude).contains(point.latitude) && (minLongitude...maxLongitude).contains(point.longitude)
        }

        private enum CodingKeys: String, CodingKey {
            case minLatitude = "min_lat"
            case minLongitude = "min_lon"
            case maxLatitude = "max_lat"
            case maxLongitude = "max_lon"
        }
    }
}
