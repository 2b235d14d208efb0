/// A point on the Earth in degrees (WGS 84), as GTFS gives stops and shapes.
///
/// ```swift
/// let gare = Coordinate(latitude: 48.5850, longitude: 7.7350)
/// ```
public struct Coordinate: Hashable, Codable, Sendable {
    /// Degrees north (negative: south).
    public var latitude: Double
    /// Degrees east (negative: west).
    public var longitude: Double

    /// The point at `latitude`, `longitude` degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
