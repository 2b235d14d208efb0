/// A trip's stops in order, with times on one service date. `Codable` as `transit-query
/// trip --json` writes it, `Identifiable` by feed, trip and service date.
///
/// ```swift
/// let trip = try bundle.trip("T1", on: ServiceDate("2026-03-28")!)
/// trip.stopTimes.map(\.departureTime)
/// ```
public struct TripDetails: Sendable, Hashable, Codable, Identifiable {
    /// One call of the trip: the stop, its times on the service date and how riders may use it.
    public struct StopTime: Sendable, Hashable, Codable {
        /// The stop_id of the call.
        public var stopID: String
        /// The stop's name.
        public var stopName: String
        /// The stop_time's stop_sequence.
        public var stopSequence: Int
        /// The arrival in GTFS seconds of the service day (may pass 86400).
        public var arrivalSecs: Int
        /// The departure in GTFS seconds of the service day (may pass 86400).
        public var departureSecs: Int
        /// Wall-clock times on the service date, in the feed's timezone.
        public var arrivalLocal: LocalDateTime
        /// The departure on the feed's wall clock.
        public var departureLocal: LocalDateTime
        /// The same as ISO 8601 local times with offset.
        public var arrivalTime: String { arrivalLocal.description }
        /// `departureLocal` as ISO 8601.
        public var departureTime: String { departureLocal.description }
        /// Whether riders may board (pickup_type).
        public var pickupType: PickupDropOffType
        /// Whether riders may alight (drop_off_type).
        public var dropOffType: PickupDropOffType
        /// True when the feed left the time empty and it was interpolated.
        public var interpolated: Bool
        /// True when the times are exact: given by the feed (not interpolated) and not marked
        /// approximate (`timepoint` 0).
        public var timepoint: Bool
        /// Where the stop is (a map's marker), nil when the feed gives no position.
        public var coordinate: Coordinate?

        /// A call built by hand (previews, tests).
        public init(
            stopID: String, stopName: String, stopSequence: Int, arrivalSecs: Int, departureSecs: Int, arrivalLocal: LocalDateTime,
            departureLocal: LocalDateTime, pickupType: PickupDropOffType = .regular, dropOffType: PickupDropOffType = .regular,
            interpolated: Bool = false, timepoint: Bool = true, coordinate: Coordinate? = nil
        ) {
            self.stopID = stopID
            self.stopName = stopName
            self.stopSequence = stopSequence
            self.arrivalSecs = arrivalSecs
            self.departureSecs = departureSecs
            self.arrivalLocal = arrivalLocal
            self.departureLocal = departureLocal
            self.pickupType = pickupType
            self.dropOffType = dropOffType
            self.interpolated = interpolated
            self.timepoint = timepoint
            self.coordinate = coordinate
        }

        private enum CodingKeys: String, CodingKey {
            case stopID = "stop_id"
            case stopName = "stop_name"
            case stopSequence = "stop_sequence"
            case arrivalSecs = "arrival_secs"
            case departureSecs = "departure_secs"
            case arrivalLocal = "arrival_time"
            case departureLocal = "departure_time"
            case pickupType = "pickup_type"
            case dropOffType = "drop_off_type"
            case interpolated
            case timepoint
            case coordinate
        }
    }

    /// One frequencies.txt window of a frequency-based trip.
    public struct FrequencyWindow: Sendable, Hashable, Codable {
        /// start_time in GTFS seconds.
        public var startSecs: Int
        /// end_time in GTFS seconds (excluded).
        public var endSecs: Int
        /// headway_secs.
        public var headwaySecs: Int
        /// exact_times = 1: instances leave exactly at start_time + k x headway.
        public var exactTimes: Bool

        /// A window built by hand (previews, tests).
        public init(startSecs: Int, endSecs: Int, headwaySecs: Int, exactTimes: Bool) {
            self.startSecs = startSecs
            self.endSecs = endSecs
            self.headwaySecs = headwaySecs
            self.exactTimes = exactTimes
        }

        private enum CodingKeys: String, CodingKey {
            case startSecs = "start_secs"
            case endSecs = "end_secs"
            case headwaySecs = "headway_secs"
            case exactTimes = "exact_times"
        }
    }

    /// The feed the trip belongs to.
    public var feedID: String
    /// The trip_id.
    public var tripID: String
    /// The trip's route_id.
    public var routeID: String
    /// The service day the times are on.
    public var serviceDate: ServiceDate
    /// trip_headsign, else the name of the last stop.
    public var headsign: String
    /// Whether the trip's service runs on `serviceDate`.
    public var runsOnDate: Bool
    /// For a frequency-based trip these are the template's times (first start at its first window).
    public var stopTimes: [StopTime]
    /// Empty unless the trip is listed in frequencies.txt.
    public var frequencies: [FrequencyWindow]

    /// The feed, the trip_id and the service date.
    public var id: String { "\(feedID)/\(tripID)/\(serviceDate)" }

    /// Trip details built by hand (previews, tests).
    public init(
        feedID: String, tripID: String, routeID: String, serviceDate: ServiceDate, headsign: String, runsOnDate: Bool,
        stopTimes: [StopTime], frequencies: [FrequencyWindow] = []
    ) {
        self.feedID = feedID
        self.tripID = tripID
        self.routeID = routeID
        self.serviceDate = serviceDate
        self.headsign = headsign
        self.runsOnDate = runsOnDate
        self.stopTimes = stopTimes
        self.frequencies = frequencies
    }

    /// The keys of `transit-query`'s JSON.
    private enum CodingKeys: String, CodingKey {
        case feedID = "feed"
        case tripID = "trip_id"
        case routeID = "route_id"
        case serviceDate = "service_date"
        case headsign
        case runsOnDate = "runs_on_date"
        case stopTimes = "stop_times"
        case frequencies
    }
}
