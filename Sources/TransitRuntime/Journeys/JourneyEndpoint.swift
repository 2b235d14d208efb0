import BundleFormat

/// An origin or destination of a journey query as the planner searches it: its stops with
/// the walk to or from each, and its place (`JourneyPlanner`).
struct JourneyEndpoint {
    var stops: [(sid: Int, seconds: Int, metres: Double)]
    /// The stop id (nil for a point).
    var stopID: String?
    var coordinate: Coordinate?
    var fid: Int?

    /// A search's origins at this end: each stop, ready `instant` plus its access
    /// seconds (in the mirror, instants are negated: `-arrival` there).
    func origins(readyAt instant: Int) -> [(sid: Int, ready: Int, access: Int)] {
        stops.map { (sid: $0.sid, ready: instant + $0.seconds, access: $0.seconds) }
    }

    /// A search's targets at this end: each stop's egress (or access) seconds, the
    /// shortest where a stop is reached twice.
    var secondsBySid: [Int: Int] { Dictionary(stops.map { ($0.sid, $0.seconds) }, uniquingKeysWith: min) }

    /// Straight-line metres to another endpoint, when both have a place.
    func metres(to other: JourneyEndpoint) -> Double? {
        guard let a = coordinate, let b = other.coordinate else { return nil }
        return GeoDistance.metres(a.latitude, a.longitude, b.latitude, b.longitude)
    }
}
