/// Where a journey starts or ends: a stop (a station stands for all its platforms) or a
/// point, joined to the stops within the access distance by a walk.
///
/// ```swift
/// let from = JourneyPlace.stop("GARE_01")
/// let to = JourneyPlace.coordinate(Coordinate(latitude: 48.5734, longitude: 7.7521))
/// ```
/// `Codable` as `{"stop_id": "GARE_01", "feed": "cts"}` or `{"lat": 48.5734, "lon": 7.7521}`
/// (recent searches, a widget's saved trip).
public enum JourneyPlace: Hashable, Sendable {
    /// A stop_id (or a station's), with its feed when several feeds use the id.
    case stop(String, feed: String? = nil)
    /// A point; the rider walks to (or from) the stops near it.
    case coordinate(Coordinate)
}

extension JourneyPlace: Codable {
    private enum CodingKeys: String, CodingKey {
        case stopID = "stop_id"
        case feed, lat, lon
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let stop = try c.decodeIfPresent(String.self, forKey: .stopID) {
            self = .stop(stop, feed: try c.decodeIfPresent(String.self, forKey: .feed))
            return
        }
        guard let lat = try c.decodeIfPresent(Double.self, forKey: .lat), let lon = try c.decodeIfPresent(Double.self, forKey: .lon)
        else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a place is {\"stop_id\", \"feed\"} or {\"lat\", \"lon\"}"))
        }
        self = .coordinate(Coordinate(latitude: lat, longitude: lon))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .stop(let id, let feed):
            try c.encode(id, forKey: .stopID)
            try c.encodeIfPresent(feed, forKey: .feed)
        case .coordinate(let point):
            try c.encode(point.latitude, forKey: .lat)
            try c.encode(point.longitude, forKey: .lon)
        }
    }
}

extension JourneyPlace {
    /// The stop `ref` names.
    public static func stop(_ ref: StopRef) -> JourneyPlace { .stop(ref.stopID, feed: ref.feedID) }
}
