/// A route (routes.txt): what riders call a line.
///
/// ```swift
/// let tram = Route(feedID: "cts", routeID: "A", shortName: "A", routeType: .tram, color: HexColor("E10D19"))
/// ```
public struct Route: Hashable, Codable, Sendable, Identifiable {
    /// The feed the route belongs to.
    public var feedID: String
    /// The route_id.
    public var routeID: String
    /// The agency_id of its agency, nil when the feed names none.
    public var agencyID: String?
    /// route_short_name ("4", "S2"), nil when empty.
    public var shortName: String?
    /// route_long_name, nil when empty.
    public var longName: String?
    /// route_type: tram, metro, rail, bus, ferry...
    public var routeType: RouteType
    /// route_color and route_text_color, when given (and RRGGBB).
    public var color: HexColor?
    /// route_text_color, nil when not given.
    public var textColor: HexColor?

    /// The feed and the route_id.
    public var id: String { "\(feedID)/\(routeID)" }

    /// A route built by hand (previews, tests).
    public init(
        feedID: String, routeID: String, agencyID: String? = nil, shortName: String? = nil, longName: String? = nil,
        routeType: RouteType, color: HexColor? = nil, textColor: HexColor? = nil
    ) {
        self.feedID = feedID
        self.routeID = routeID
        self.agencyID = agencyID
        self.shortName = shortName
        self.longName = longName
        self.routeType = routeType
        self.color = color
        self.textColor = textColor
    }

    /// The keys of `transit-query`'s JSON.
    private enum CodingKeys: String, CodingKey {
        case feedID = "feed"
        case routeID = "route_id"
        case agencyID = "agency_id"
        case shortName = "route_short_name"
        case longName = "route_long_name"
        case routeType = "route_type"
        case color = "route_color"
        case textColor = "route_text_color"
    }
}
