/// A trip's stops in order, with times on one service date.
public struct TripDetails: Sendable, Equatable {
    public struct StopTime: Sendable, Equatable {
        public var stopID: String
        public var stopName: String
        public var stopSequence: Int
        public var arrivalSecs: Int
        public var departureSecs: Int
        /// Wall-clock times on the service date, in the feed's timezone.
        public var arrivalLocal: LocalDateTime
        public var departureLocal: LocalDateTime
        /// The same as ISO 8601 local times with offset.
        public var arrivalTime: String { arrivalLocal.description }
        public var departureTime: String { departureLocal.description }
        public var pickupType: Int
        public var dropOffType: Int
        /// True when the feed left the time empty and it was interpolated.
        public var interpolated: Bool
    }

    /// One frequencies.txt window of a frequency-based trip.
    public struct FrequencyWindow: Sendable, Equatable {
        public var startSecs: Int
        public var endSecs: Int
        public var headwaySecs: Int
        public var exactTimes: Bool
    }

    public var feedID: String
    public var tripID: String
    public var routeID: String
    public var serviceDate: ServiceDate
    /// trip_headsign, else the name of the last stop.
    public var headsign: String
    /// Whether the trip's service runs on `serviceDate`.
    public var runsOnDate: Bool
    /// For a frequency-based trip these are the template's times (first start at its first window).
    public var stopTimes: [StopTime]
    /// Empty unless the trip is listed in frequencies.txt.
    public var frequencies: [FrequencyWindow]
}
