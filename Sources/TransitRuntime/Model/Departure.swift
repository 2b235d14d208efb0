import Foundation

/// One trip's call at a stop, with everything a departure (or arrival) board shows.
public struct Departure: Sendable, Equatable {
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
    /// The departure instant.
    public var departure: Date
    /// The departure on the feed's wall clock (date, time of day, UTC offset).
    public var departureLocal: LocalDateTime
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
    public var arrival: Date
    public var arrivalLocal: LocalDateTime
    public var dropOffType: PickupDropOffType
    /// False when the feed left the stop's times empty and they were interpolated.
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
    public var tripStart: Date?
    public var tripStartLocal: LocalDateTime?
    /// Stops the trip calls at after this one.
    public var stopsRemaining: Int
}
