/// A stop, platform or station.
///
/// ```swift
/// let preview = Stop(feedID: "cts", stopID: "GARE", name: "Gare Centrale", latitude: 48.585, longitude: 7.735)
/// ```
public struct Stop: Hashable, Codable, Sendable, Identifiable {
    /// The feed the stop belongs to.
    public var feedID: String
    /// The stop_id.
    public var stopID: String
    /// The stop_name (a platform without one shows its station's).
    public var name: String
    /// The stop_code riders see on signs, nil when not given.
    public var code: String?
    /// stop_lat in degrees, nil when not given (`coordinate` has both).
    public var latitude: Double?
    /// stop_lon in degrees, nil when not given.
    public var longitude: Double?
    /// Where the stop is, for a map; nil for a stop without coordinates (a generic node or
    /// boarding area may have none).
    ///
    /// ```swift
    /// let pins = stops.compactMap { stop in stop.coordinate.map { (stop.name, $0) } }
    /// ```
    public var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
    /// Stop or platform, station, entrance, generic node or boarding area (location_type).
    public var locationType: LocationType
    /// The parent station's stop_id.
    public var parentStation: String?
    /// The platform_code, nil when not given.
    public var platformCode: String?
    /// wheelchair_boarding (a platform that leaves it empty takes its station's).
    public var wheelchairBoarding: Accessibility
    /// Metres from the query point, for nearby searches.
    public var distanceMetres: Double?
    /// The station floor the stop lies on (levels.txt), nil when the feed names none.
    public var level: StopLevel?

    /// The feed and the stop_id.
    public var id: String { "\(feedID)/\(stopID)" }

    /// A stop built by hand (previews, tests).
    public init(
        feedID: String, stopID: String, name: String, code: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        locationType: LocationType = .stop, parentStation: String? = nil, platformCode: String? = nil,
        wheelchairBoarding: Accessibility = .unknown,
        distanceMetres: Double? = nil, level: StopLevel? = nil
    ) {
        self.feedID = feedID
        self.stopID = stopID
        self.name = name
        self.code = code
        self.latitude = latitude
        self.longitude = longitude
        self.locationType = locationType
        self.parentStation = parentStation
        self.platformCode = platformCode
        self.wheelchairBoarding = wheelchairBoarding
        self.distanceMetres = distanceMetres
        self.level = level
    }

    /// The keys of `transit-query`'s JSON.
    private enum CodingKeys: String, CodingKey {
        case feedID = "feed"
        case stopID = "stop_id"
        case name = "stop_name"
        case code = "stop_code"
        case latitude = "lat"
        case longitude = "lon"
        case locationType = "location_type"
        case parentStation = "parent_station"
        case platformCode = "platform_code"
        case wheelchairBoarding = "wheelchair_boarding"
        case distanceMetres = "distance_m"
        case level
    }
}
