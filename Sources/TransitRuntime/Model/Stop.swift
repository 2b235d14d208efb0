/// A stop, platform or station.
public struct Stop: Sendable, Equatable {
    public var feedID: String
    public var stopID: String
    public var name: String
    public var code: String?
    public var lat: Double?
    public var lon: Double?
    /// 0 stop or platform, 1 station, 2 entrance, 3 generic node, 4 boarding area.
    public var locationType: Int
    /// The parent station's stop_id.
    public var parentStation: String?
    public var platformCode: String?
    public var wheelchairBoarding: Int
    /// Metres from the query point, for nearby searches.
    public var distanceMetres: Double?
}
