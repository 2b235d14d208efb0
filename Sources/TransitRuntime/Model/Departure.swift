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
    /// The feed the trip belongs to (its name in the bundle).
    public var feedID: String
    /// The stop_id the trip calls at (a platform when the board asked for a station).
    public var stopID: String
    /// The stop's stop_name.
    public var stopName: String
    /// The stop's platform_code, nil when the feed gives none.
    public var platformCode: String?
    /// The trip's trip_id.
    public var tripID: String
    /// The trip's route_id.
    public var routeID: String
    /// The route's route_short_name ("4", "S2"), nil when the feed leaves it empty.
    public var routeShortName: String?
    /// The route's route_long_name, nil when the feed leaves it empty.
    public var routeLongName: String?
    /// The route's route_type (tram, bus, rail...).
    public var routeType: RouteType
    /// The route's route_color, nil when not given.
    public var routeColor: HexColor?
    /// The route's route_text_color, nil when not given.
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
    /// Whether riders may board here (pickup_type).
    public var pickupType: PickupDropOffType
    /// True for instances of a frequencies.txt trip with exact_times = 0 (times are estimates).
    public var frequencyBased: Bool
    /// The trip's wheelchair_accessible.
    public var wheelchairAccessible: Accessibility
    /// The stop_time's stop_sequence.
    public var stopSequence: Int
    /// When the trip reaches the stop (equal to `departure` unless it waits there).
    public var arrivalLocal: LocalDateTime
    /// The arrival instant.
    public var arrival: Date { arrivalLocal.instant }
    /// Whether riders may alight here (drop_off_type).
    public var dropOffType: PickupDropOffType
    /// False when the stop's times are not exact: the feed left them empty and they were
    /// interpolated, or it marked them approximate (`timepoint` 0).
    public var timepoint: Bool
    /// The trip's direction_id (0 or 1), nil when not given.
    public var directionID: Int?
    /// trip_short_name: a train number, where the feed gives one.
    public var tripShortName: String?
    /// The agency_id of the route's agency, nil when the feed names none.
    public var agencyID: String?
    /// The agency's agency_name.
    public var agencyName: String?
    /// bikes_allowed.
    public var bikesAllowed: Accessibility
    /// For an instance of a frequency-based trip, when it leaves its first stop (its
    /// identity with `tripID` and `serviceDate`); nil for other trips.
    public var tripStartLocal: LocalDateTime?
    /// `tripStartLocal` as an instant.
    public var tripStart: Date? { tripStartLocal?.instant }
    /// Stops the trip calls at after this one.
    public var stopsRemaining: Int
    /// The feed's time zone (agency_timezone) as an IANA identifier, nil for a departure
    /// built by hand without one; `timeZone` is the zone to format the times in.
    public var timeZoneIdentifier: String?

    /// The zone the feed's wall clock runs in, to format `departure` and `arrival` with
    /// (`Date.FormatStyle(timeZone: d.timeZone)`); without an identifier, the fixed offset
    /// of `departureLocal`.
    public var timeZone: TimeZone {
        timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? TimeZone(secondsFromGMT: departureLocal.utcOffsetSeconds) ?? .gmt
    }
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
        agencyName: String? = nil, tripStartLocal: LocalDateTime? = nil, stopsRemaining: Int = 0, timeZone: TimeZone? = nil
    ) {
        self.init(
            feedID: feedID, stopID: stopID, stopName: stopName, platformCode: platformCode, tripID: tripID, routeID: routeID,
            routeShortName: routeShortName, routeLongName: routeLongName, routeType: routeType, routeColor: routeColor,
            routeTextColor: routeTextColor, headsign: headsign, serviceDate: serviceDate, departureSecs: departureSecs,
            departureLocal: departureLocal, pickupType: pickupType, frequencyBased: frequencyBased,
            wheelchairAccessible: wheelchairAccessible, stopSequence: stopSequence, arrivalLocal: arrivalLocal ?? departureLocal,
            dropOffType: dropOffType, timepoint: timepoint, directionID: directionID,
            tripShortName: tripShortName, agencyID: agencyID, agencyName: agencyName, bikesAllowed: bikesAllowed,
            tripStartLocal: tripStartLocal, stopsRemaining: stopsRemaining, timeZoneIdentifier: timeZone?.identifier)
    }

    /// Feed, trip, service date, the instance's start (frequency-based trips), stop and stop_sequence.
    public var id: String {
        "\(feedID)/\(tripID)/\(serviceDate)/\(tripStartLocal?.description ?? "")/\(stopID)/\(stopSequence)"
    }
}

/// The stored properties with their JSON keys: the one field list `Codable`, the command
/// line's JSON and apps share (a new field is a property and a key here).
extension Departure: Codable {
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
        case timeZoneIdentifier = "time_zone"
    }
}
