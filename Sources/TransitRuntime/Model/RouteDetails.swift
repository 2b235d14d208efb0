/// A route and its stops in order, per direction, from the stop patterns its trips follow.
///
/// ```swift
/// let line = try bundle.route("A")
/// for direction in line.directions { print(direction.headsign ?? "", direction.stops.map(\.name)) }
/// ```
public struct RouteDetails: Hashable, Codable, Sendable, Identifiable {
    /// One direction_id's stops (trips without direction_id form their own direction).
    public struct Direction: Hashable, Codable, Sendable {
        /// The direction_id, nil for trips without one.
        public var directionID: Int?
        /// The headsign most of its trips show (trip_headsign, else the last stop's name).
        public var headsign: String?
        /// Every stop a trip of the direction calls at, in the order they run: the stops of
        /// its longest pattern, with the stops of the others fitted in where they are visited.
        public var stops: [Stop]
        /// Trips of the route in this direction.
        public var tripCount: Int

        /// A direction built by hand (previews, tests).
        public init(directionID: Int?, headsign: String?, stops: [Stop], tripCount: Int) {
            self.directionID = directionID
            self.headsign = headsign
            self.stops = stops
            self.tripCount = tripCount
        }

        private enum CodingKeys: String, CodingKey {
            case directionID = "direction_id"
            case headsign, stops
            case tripCount = "trips"
        }
    }

    /// The route.
    public var route: Route
    /// By direction_id, none last.
    public var directions: [Direction]

    public var id: String { route.id }

    /// Details built by hand (previews, tests).
    public init(route: Route, directions: [Direction]) {
        self.route = route
        self.directions = directions
    }
}
