import Foundation

/// One way from an origin to a destination: walks and rides in order, with the instant the
/// rider leaves (the latest that keeps the journey) and arrives, in the feed's local time.
///
/// `Codable` as `transit-query plan --json` writes it: `departure`, `arrival`, `rides`, `legs`.
///
/// ```swift
/// for journey in try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), departingAt: .instant(Date())) {
///     print(journey.arrival, journey.rides, journey.legs.map(\.kind))
/// }
/// ```
public struct Journey: Hashable, Codable, Sendable, Identifiable {
    /// When the rider leaves, on the wall clock of the origin's feed.
    public var departureLocal: LocalDateTime
    /// When the rider arrives, on the wall clock of the destination's feed.
    public var arrivalLocal: LocalDateTime
    /// The number of rides (transfers + 1; 0 for a journey on foot).
    public var rides: Int
    /// The walks and rides, in order.
    public var legs: [JourneyLeg]
    /// What the rides cost by the feeds' fare rules; nil when a feed has no fares or its
    /// rules do not price every ride (never a guess).
    public var fare: JourneyFare?

    /// `departureLocal` as an instant.
    public var departure: Date { departureLocal.instant }
    /// `arrivalLocal` as an instant.
    public var arrival: Date { arrivalLocal.instant }
    /// The zone to show the journey's times in: its first ride's feed's (a journey on foot:
    /// the fixed offset of its departure).
    public var timeZone: TimeZone {
        legs.lazy.compactMap(\.boarding).first?.timeZone ?? TimeZone(secondsFromGMT: departureLocal.utcOffsetSeconds) ?? .gmt
    }

    /// The journey's trips and times: equal journeys have equal ids.
    public var id: String {
        legs.map { "\($0.kind.rawValue):\($0.boarding?.id ?? $0.toStopID ?? "")@\($0.departureLocal)" }.joined(separator: ">")
    }

    /// A journey built by hand (previews, tests).
    public init(departureLocal: LocalDateTime, arrivalLocal: LocalDateTime, rides: Int, legs: [JourneyLeg], fare: JourneyFare? = nil) {
        self.departureLocal = departureLocal
        self.arrivalLocal = arrivalLocal
        self.rides = rides
        self.legs = legs
        self.fare = fare
    }

    /// Writes every key, `fare` as null when there is none.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(departureLocal, forKey: .departureLocal)
        try c.encode(arrivalLocal, forKey: .arrivalLocal)
        try c.encode(rides, forKey: .rides)
        try c.encode(legs, forKey: .legs)
        try c.encode(fare, forKey: .fare)
    }

    private enum CodingKeys: String, CodingKey {
        case departureLocal = "departure"
        case arrivalLocal = "arrival"
        case rides, legs, fare
    }
}

/// A part of a journey: a walk between two places, or a ride on one trip from the stop
/// where the rider boards to the stop where they alight.
///
/// A ride carries the trip's two calls as `Departure`s, the same values the departures
/// board shows for that trip, stop and service day (`boarding`) and the arrivals board for
/// the alighting stop (`alighting`), so an app shows a ride with its board's views.
public struct JourneyLeg: Hashable, Codable, Sendable {
    /// A walk or a ride.
    public enum Kind: String, Codable, Sendable {
        case walk, ride
    }

    /// Walk or ride.
    public var kind: Kind
    /// The stop the leg leaves, nil for the origin point of a walk.
    public var fromStopID: String?
    /// The stop the leg reaches, nil for the destination point of a walk.
    public var toStopID: String?
    /// The feed of `fromStopID` (a bundle of several feeds may use one id in two).
    public var fromFeedID: String?
    /// The feed of `toStopID`.
    public var toFeedID: String?
    /// The stop the leg leaves with its feed, nil for a point.
    public var fromStop: StopRef? { fromStopID.flatMap { id in fromFeedID.map { StopRef(feedID: $0, stopID: id) } } }
    /// The stop the leg reaches with its feed, nil for a point.
    public var toStop: StopRef? { toStopID.flatMap { id in toFeedID.map { StopRef(feedID: $0, stopID: id) } } }
    /// When the leg starts, on the feed's wall clock.
    public var departureLocal: LocalDateTime
    /// When the leg ends, on the feed's wall clock.
    public var arrivalLocal: LocalDateTime
    /// A walk's straight-line length in metres (nil for rides).
    public var distance: Double?
    /// A ride's call where the rider boards.
    public var boarding: Departure?
    /// A ride's call where the rider alights (its arrival is the leg's).
    public var alighting: Departure?

    /// `departureLocal` as an instant.
    public var departure: Date { departureLocal.instant }
    /// `arrivalLocal` as an instant.
    public var arrival: Date { arrivalLocal.instant }

    /// A leg built by hand (previews, tests).
    public init(
        kind: Kind, fromStopID: String?, toStopID: String?, fromFeedID: String? = nil, toFeedID: String? = nil,
        departureLocal: LocalDateTime, arrivalLocal: LocalDateTime, distance: Double? = nil, boarding: Departure? = nil,
        alighting: Departure? = nil
    ) {
        self.kind = kind
        self.fromStopID = fromStopID
        self.toStopID = toStopID
        self.fromFeedID = fromFeedID ?? boarding?.feedID
        self.toFeedID = toFeedID ?? alighting?.feedID
        self.departureLocal = departureLocal
        self.arrivalLocal = arrivalLocal
        self.distance = distance
        self.boarding = boarding
        self.alighting = alighting
    }

    private enum CodingKeys: String, CodingKey {
        case kind
        case fromStopID = "from_stop"
        case toStopID = "to_stop"
        case fromFeedID = "from_feed"
        case toFeedID = "to_feed"
        case departureLocal = "departure"
        case arrivalLocal = "arrival"
        case distance = "distance_m"
        case feed
        case tripID = "trip_id"
        case routeID = "route_id"
        case serviceDate = "service_date"
        case headsign
        case boarding, alighting
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Kind.self, forKey: .kind)
        fromStopID = try c.decodeIfPresent(String.self, forKey: .fromStopID)
        toStopID = try c.decodeIfPresent(String.self, forKey: .toStopID)
        fromFeedID = try c.decodeIfPresent(String.self, forKey: .fromFeedID)
        toFeedID = try c.decodeIfPresent(String.self, forKey: .toFeedID)
        departureLocal = try c.decode(LocalDateTime.self, forKey: .departureLocal)
        arrivalLocal = try c.decode(LocalDateTime.self, forKey: .arrivalLocal)
        distance = try c.decodeIfPresent(Double.self, forKey: .distance)
        boarding = try c.decodeIfPresent(Departure.self, forKey: .boarding)
        alighting = try c.decodeIfPresent(Departure.self, forKey: .alighting)
    }

    /// A ride's trip fields are also written at the leg's top level (`feed`, `trip_id`,
    /// `route_id`, `service_date`, `headsign`), for scripts.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(fromStopID, forKey: .fromStopID)
        try c.encode(toStopID, forKey: .toStopID)
        try c.encodeIfPresent(fromFeedID, forKey: .fromFeedID)
        try c.encodeIfPresent(toFeedID, forKey: .toFeedID)
        try c.encode(departureLocal, forKey: .departureLocal)
        try c.encode(arrivalLocal, forKey: .arrivalLocal)
        try c.encodeIfPresent(distance, forKey: .distance)
        if let boarding {
            try c.encode(boarding.feedID, forKey: .feed)
            try c.encode(boarding.tripID, forKey: .tripID)
            try c.encode(boarding.routeID, forKey: .routeID)
            try c.encode(boarding.serviceDate, forKey: .serviceDate)
            try c.encode(boarding.headsign, forKey: .headsign)
            try c.encode(boarding, forKey: .boarding)
        }
        try c.encodeIfPresent(alighting, forKey: .alighting)
    }
}
