import Foundation

/// One trip's call at a stop, with everything a departure (or arrival) board shows.
/// `Codable` as `transit-query` writes it (snake_case keys, times as ISO 8601 local times
/// with their offset), and `Identifiable` by feed, trip, service date, instance start, stop
/// and stop_sequence.
///
/// ```swift
/// let at = LocalDateTime(iso: "2026-03-29T08:00:00+02:00")!
/// let preview = Departure(
///     feedID: "cts", stopID: "GARE", stopName: "Gare Centrale", tripID: "A1", routeID: "A", routeShortName: "A",
///     headsign: "Illkirch", serviceDate: ServiceDate("2026-03-29")!, departureSecs: 8 * 3600, departureLocal: at)
/// ```
public struct Departure: Sendable, Hashable, Identifiable {
    public var feedID: String
    public var stopID: String
    public var stopName: String
    public var platformCode: String?
    public var tripID: String
    public var routeID: String
    public var routeShortName: String?
    public var routeLongName: String?
    public var routeType: RouteType
    public var routeColor: HexColor?
    public var routeTextColor: HexColor?
    /// stop_headsign, else trip_headsign, else the name of the trip's last stop.
    public var headsign: String
    /// The service day the trip belongs to (not always the calendar day it leaves).
    public var serviceDate: ServiceDate
    /// GTFS seconds from noon minus 12 h of the service day; may pass 86400.
    public var departureSecs: Int
    /// The departure on the feed's wall clock (date, time of day, UTC offset).
    public var departureLocal: LocalDateTime
    /// The departure instant.
    public var departure: Date { departureLocal.instant }
    /// The departure as ISO 8601 local time with its UTC offset (`2026-03-29T08:00:00+02:00`).
    public var departureTime: String { departureLocal.description }
    public var pickupType: PickupDropOffType
    /// True for instances of a frequencies.txt trip with exact_times = 0 (times are estimates).
    public var frequencyBased: Bool
    /// The trip's wheelchair_accessible.
    public var wheelchairAccessible: Accessibility
    /// The stop_time's stop_sequence.
    public var stopSequence: Int
    /// When the trip reaches the stop (equal to `departure` unless it waits there).
    public var arrivalLocal: LocalDateTime
    public var arrival: Date { arrivalLocal.instant }
    public var dropOffType: PickupDropOffType
    /// False when the stop's times are not exact: the feed left them empty and they were
    /// interpolated, or it marked them approximate (`timepoint` 0).
    public var timepoint: Bool
    public var directionID: Int?
    /// trip_short_name: a train number, where the feed gives one.
    public var tripShortName: String?
    public var agencyID: String?
    public var agencyName: String?
    /// bikes_allowed.
    public var bikesAllowed: Accessibility
    /// For an instance of a frequency-based trip, when it leaves its first stop (its
    /// identity with `tripID` and `serviceDate`); nil for other trips.
    public var tripStartLocal: LocalDateTime?
    public var tripStart: Date? { tripStartLocal?.instant }
    /// Stops the trip calls at after this one.
    public var stopsRemaining: Int
}

extension Departure {
    /// A call built by hand (previews, tests); the instants follow from the local times.
    public init(
        feedID: String, stopID: String, stopName: String, platformCode: String? = nil, tripID: String, routeID: String,
        routeShortName: String? = nil, routeLongName: String? = nil, routeType: RouteType = .bus, routeColor: HexColor? = nil,
        routeTextColor: HexColor? = nil, headsign: String, serviceDate: ServiceDate, departureSecs: Int, departureLocal: LocalDateTime,
        arrivalLocal: LocalDateTime? = nil, pickupType: PickupDropOffType = .regular, dropOffType: PickupDropOffType = .regular,
        frequencyBased: Bool = false, wheelchairAccessible: Accessibility = .unknown, bikesAllowed: Accessibility = .unknown,
        stopSequence: Int = 1, timepoint: Bool = true, directionID: Int? = nil, tripShortName: String? = nil, agencyID: String? = nil,
        agencyName: String? = nil, tripStartLocal: LocalDateTime? = nil, stopsRemaining: Int = 0
    ) {
        self.init(
            feedID: feedID, stopID: stopID, stopName: stopName, platformCode: platformCode, tripID: tripID, routeID: routeID,
            routeShortName: routeShortName, routeLongName: routeLongName, routeType: routeType, routeColor: routeColor,
            routeTextColor: routeTextColor, headsign: headsign, serviceDate: serviceDate, departureSecs: departureSecs,
            departureLocal: departureLocal, pickupType: pickupType, frequencyBased: frequencyBased,
            wheelchairAccessible: wheelchairAccessible, stopSequence: stopSequence, arrivalLocal: arrivalLocal ?? departureLocal,
            dropOffType: dropOffType, timepoint: timepoint, directionID: directionID,
            tripShortName: tripShortName, agencyID: agencyID, agencyName: agencyName, bikesAllowed: bikesAllowed,
            tripStartLocal: tripStartLocal, stopsRemaining: stopsRemaining)
    }

    /// Feed, trip, service date, the instance's start (frequency-based trips), stop and stop_sequence.
    public var id: String {
        "\(feedID)/\(tripID)/\(serviceDate)/\(tripStartLocal?.description ?? "")/\(stopID)/\(stopSequence)"
    }
}

extension Departure: Codable {
    /// The keys of `transit-query`'s JSON, in its order.
    enum CodingKeys: String, CodingKey {
        case feedID = "feed"
        case stopID = "stop_id"
        case stopName = "stop_name"
        case platformCode = "platform_code"
        case tripID = "trip_id"
        case routeID = "route_id"
        case routeShortName = "route_short_name"
        case routeLongName = "route_long_name"
        case routeType = "route_type"
        case routeColor = "route_color"
        case routeTextColor = "route_text_color"
        case headsign
        case serviceDate = "service_date"
        case departureSecs = "departure_secs"
        case departureLocal = "departure_time"
        case pickupType = "pickup_type"
        case frequencyBased = "frequency_based"
        case wheelchairAccessible = "wheelchair_accessible"
        case stopSequence = "stop_sequence"
        case arrivalLocal = "arrival_time"
        case dropOffType = "drop_off_type"
        case timepoint
        case directionID = "direction_id"
        case tripShortName = "trip_short_name"
        case agencyID = "agency_id"
        case agencyName = "agency_name"
        case bikesAllowed = "bikes_allowed"
        case tripStartLocal = "trip_start"
        case stopsRemaining = "stops_remaining"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            feedID: try c.decode(String.self, forKey: .feedID), stopID: try c.decode(String.self, forKey: .stopID),
            stopName: try c.decode(String.self, forKey: .stopName), platformCode: try c.decodeIfPresent(String.self, forKey: .platformCode),
            tripID: try c.decode(String.self, forKey: .tripID), routeID: try c.decode(String.self, forKey: .routeID),
            routeShortName: try c.decodeIfPresent(String.self, forKey: .routeShortName),
            routeLongName: try c.decodeIfPresent(String.self, forKey: .routeLongName),
            routeType: try c.decode(RouteType.self, forKey: .routeType),
            routeColor: try c.decodeIfPresent(HexColor.self, forKey: .routeColor),
            routeTextColor: try c.decodeIfPresent(HexColor.self, forKey: .routeTextColor),
            headsign: try c.decode(String.self, forKey: .headsign),
            serviceDate: try c.decode(ServiceDate.self, forKey: .serviceDate),
            departureSecs: try c.decode(Int.self, forKey: .departureSecs),
            departureLocal: try c.decode(LocalDateTime.self, forKey: .departureLocal),
            arrivalLocal: try c.decodeIfPresent(LocalDateTime.self, forKey: .arrivalLocal),
            pickupType: try c.decodeIfPresent(PickupDropOffType.self, forKey: .pickupType) ?? .regular,
            dropOffType: try c.decodeIfPresent(PickupDropOffType.self, forKey: .dropOffType) ?? .regular,
            frequencyBased: try c.decodeIfPresent(Bool.self, forKey: .frequencyBased) ?? false,
            wheelchairAccessible: try c.decodeIfPresent(Accessibility.self, forKey: .wheelchairAccessible) ?? .unknown,
            bikesAllowed: try c.decodeIfPresent(Accessibility.self, forKey: .bikesAllowed) ?? .unknown,
            stopSequence: try c.decodeIfPresent(Int.self, forKey: .stopSequence) ?? 1,
            timepoint: try c.decodeIfPresent(Bool.self, forKey: .timepoint) ?? true,
            directionID: try c.decodeIfPresent(Int.self, forKey: .directionID),
            tripShortName: try c.decodeIfPresent(String.self, forKey: .tripShortName),
            agencyID: try c.decodeIfPresent(String.self, forKey: .agencyID),
            agencyName: try c.decodeIfPresent(String.self, forKey: .agencyName),
            tripStartLocal: try c.decodeIfPresent(LocalDateTime.self, forKey: .tripStartLocal),
            stopsRemaining: try c.decodeIfPresent(Int.self, forKey: .stopsRemaining) ?? 0)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(feedID, forKey: .feedID)
        try c.encode(stopID, forKey: .stopID)
        try c.encode(stopName, forKey: .stopName)
        try c.encodeIfPresent(platformCode, forKey: .platformCode)
        try c.encode(tripID, forKey: .tripID)
        try c.encode(routeID, forKey: .routeID)
        try c.encodeIfPresent(routeShortName, forKey: .routeShortName)
        try c.encodeIfPresent(routeLongName, forKey: .routeLongName)
        try c.encode(routeType, forKey: .routeType)
        try c.encodeIfPresent(routeColor, forKey: .routeColor)
        try c.encodeIfPresent(routeTextColor, forKey: .routeTextColor)
        try c.encode(headsign, forKey: .headsign)
        try c.encode(serviceDate, forKey: .serviceDate)
        try c.encode(departureSecs, forKey: .departureSecs)
        try c.encode(departureLocal, forKey: .departureLocal)
        try c.encode(pickupType, forKey: .pickupType)
        try c.encode(frequencyBased, forKey: .frequencyBased)
        try c.encode(wheelchairAccessible, forKey: .wheelchairAccessible)
        try c.encode(stopSequence, forKey: .stopSequence)
        try c.encode(arrivalLocal, forKey: .arrivalLocal)
        try c.encode(dropOffType, forKey: .dropOffType)
        try c.encode(timepoint, forKey: .timepoint)
        try c.encodeIfPresent(directionID, forKey: .directionID)
        try c.encodeIfPresent(tripShortName, forKey: .tripShortName)
        try c.encodeIfPresent(agencyID, forKey: .agencyID)
        try c.encodeIfPresent(agencyName, forKey: .agencyName)
        try c.encode(bikesAllowed, forKey: .bikesAllowed)
        try c.encodeIfPresent(tripStartLocal, forKey: .tripStartLocal)
        try c.encode(stopsRemaining, forKey: .stopsRemaining)
    }
}
