/// The line a trip follows on a map: the points of its `shapes.txt` shape, or, when the
/// trip has none, the line through its stops.
///
/// Every point of the feed's shape lies within 1 m of this line (points that add nothing on
/// a straight stretch are left out), reading each pair of neighbouring points as the
/// great-circle arc between them.
///
/// ```swift
/// let line = try bundle.shape(trip: "T1")
/// let polyline = line.points.map { ($0.latitude, $0.longitude) }
/// ```
public struct Shape: Hashable, Codable, Sendable, Identifiable {
    /// The feed of the shape or trip.
    public var feedID: String
    /// The shape_id, nil when the line runs through the stops of `tripID`.
    public var shapeID: String?
    /// The trip whose stops draw the line, when it has no shape (nil otherwise).
    public var tripID: String?
    /// The line, in the order the trips run it.
    public var points: [Coordinate]

    /// The feed and the shape_id (or, for a line through stops, the trip_id).
    public var id: String { "\(feedID)/\(shapeID.map { "shape:\($0)" } ?? "trip:\(tripID ?? "")")" }

    /// A line built by hand (previews, tests).
    public init(feedID: String, shapeID: String?, tripID: String?, points: [Coordinate]) {
        self.feedID = feedID
        self.shapeID = shapeID
        self.tripID = tripID
        self.points = points
    }

    private enum CodingKeys: String, CodingKey {
        case feedID = "feed"
        case shapeID = "shape_id"
        case tripID = "trip_id"
        case points
    }

    /// `points` as `[[latitude, longitude], ...]`: half the bytes of objects for lines of
    /// thousands of points, and the order people read coordinates in.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let pairs = try c.decode([[Double]].self, forKey: .points)
        guard pairs.allSatisfy({ $0.count == 2 }) else {
            throw DecodingError.dataCorruptedError(forKey: .points, in: c, debugDescription: "each point is [latitude, longitude]")
        }
        self.init(
            feedID: try c.decode(String.self, forKey: .feedID), shapeID: try c.decodeIfPresent(String.self, forKey: .shapeID),
            tripID: try c.decodeIfPresent(String.self, forKey: .tripID),
            points: pairs.map { Coordinate(latitude: $0[0], longitude: $0[1]) })
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(feedID, forKey: .feedID)
        try c.encodeIfPresent(shapeID, forKey: .shapeID)
        try c.encodeIfPresent(tripID, forKey: .tripID)
        try c.encode(points.map { [$0.latitude, $0.longitude] }, forKey: .points)
    }
}
