/// Where a journey starts or ends: a stop (a station stands for all its platforms) or a
/// point, joined to the stops within the access distance by a walk.
///
/// ```swift
/// let from = JourneyPlace.stop("GARE_01")
/// let to = JourneyPlace.coordinate(Coordinate(latitude: 48.5734, longitude: 7.7521))
/// ```
public enum JourneyPlace: Hashable, Sendable {
    /// A stop_id (or a station's), with its feed when several feeds use the id.
    case stop(String, feed: String? = nil)
    /// A point; the rider walks to (or from) the stops near it.
    case coordinate(Coordinate)
}
