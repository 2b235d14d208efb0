import Foundation

/// The choices a journey query leaves to the rider, with the defaults of
/// journey-semantics.md.
///
/// ```swift
/// var options = JourneyOptions()
/// options.maxTransfers = 2
/// options.wheelchair = true
/// ```
/// `Codable` with snake_case keys (a screen keeps the rider's last choices).
public struct JourneyOptions: Hashable, Sendable, Codable {
    /// The most transfers a journey may make (default 4: at most 5 rides).
    public var maxTransfers: Int
    /// Seconds needed to change vehicles at one stop, and added to a walk between two
    /// stops (default 120; whole seconds are used).
    public var changeTime: TimeInterval
    /// Walking speed in metres per second (default 1.2).
    public var walkingSpeed: Double
    /// The farthest two stops may be apart for a walk between rides, in metres (default 400).
    public var transferDistance: Double
    /// The farthest a coordinate may be from the stops it walks to or from, in metres (default 800).
    public var accessDistance: Double
    /// Only stops with accessible boarding (a platform inheriting its station's) and trips
    /// marked wheelchair accessible (default false).
    public var wheelchair: Bool
    /// How far after the departure time (before the arrival time, arriving by) journeys are
    /// looked for, in seconds (default 24 hours).
    public var horizon: Double
    /// A budget for range queries: the most instants in the window a search runs from (a
    /// rider leaving the origin to catch a trip), the earliest ones; nil (the default) runs
    /// from every one, as journey-semantics.md asks. A window with more answers for its
    /// start: every journey that leaves before the first instant left out, exactly as a
    /// query with the window ending there (`TransitBundle.journeyRange`, whose `end` says
    /// where). Each search costs up to one depart-at query, and a busy origin's 2-hour
    /// window can hold dozens of instants.
    public var rangeSearches: Int?

    /// Options with the defaults of journey-semantics.md, changed where given.
    public init(
        maxTransfers: Int = 4, changeTime: TimeInterval = 120, walkingSpeed: Double = 1.2, transferDistance: Double = 400,
        accessDistance: Double = 800, wheelchair: Bool = false, horizon: Double = 86_400, rangeSearches: Int? = nil
    ) {
        self.maxTransfers = maxTransfers
        self.changeTime = changeTime
        self.walkingSpeed = walkingSpeed
        self.transferDistance = transferDistance
        self.accessDistance = accessDistance
        self.wheelchair = wheelchair
        self.horizon = horizon
        self.rangeSearches = rangeSearches
    }

    private enum CodingKeys: String, CodingKey {
        case maxTransfers = "max_transfers"
        case changeTime = "change_time"
        case walkingSpeed = "walking_speed"
        case transferDistance = "transfer_distance"
        case accessDistance = "access_distance"
        case wheelchair, horizon
        case rangeSearches = "range_searches"
    }
}
