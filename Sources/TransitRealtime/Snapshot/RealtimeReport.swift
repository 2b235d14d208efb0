/// What a message matched in the timetable, like MOTIS's statistics: entities, trip
/// updates, stop time updates and vehicles matched, clamps applied, and each entity or
/// update not matched with its reason. `Codable` as `transit-query realtime --json` prints it.
public struct RealtimeReport: Sendable, Hashable, Codable {
    /// Why an entity or a stop time update was not applied.
    public enum Reason: String, Sendable, Hashable, Codable {
        case unknownTrip = "unknown_trip"
        case notRunning = "trip_not_running_that_day"
        case unknownStop = "unknown_stop"
        case sequenceMismatch = "sequence_mismatch"
        case stopVisitedTwice = "stop_visited_twice_without_sequence"
        case frequencyWithoutStartTime = "frequency_trip_without_start_time"
        case noTripID = "no_trip_id"
        case unsupported = "unsupported_relationship"
        case badTime = "bad_time"
        /// The entity's bytes do not decode (its `entityID` is `#` and its place in the
        /// message, from 1; `detail` says what is wrong); the message's other entities apply.
        case malformedEntity = "malformed_entity"
        /// A frequency-based trip with exact_times=1 runs at start_time + k x headway_secs
        /// of its window; the descriptor's start_time is none of those.
        case startTimeOffGrid = "start_time_not_on_headway_grid"
        /// A note, not a miss: the message's header time is more than
        /// `RealtimeSnapshot.clockSkewAllowance` ahead of `now`; trips were matched at `now`
        /// and the data ages from `now`.
        case headerFromTheFuture = "header_from_the_future"
        /// A note, not a miss: the trip update's trip-level `delay` was applied to the calls
        /// before its first stop time update.
        case tripDelayUsed = "trip_delay_used"
    }

    /// One entity (or one of its stop time updates) left out.
    public struct Unmatched: Sendable, Hashable, Codable {
        /// The FeedEntity's id.
        public var entityID: String
        /// The trip_id the entity names, when it names one.
        public var tripID: String?
        /// The stop_id of the stop time update concerned, when any.
        public var stopID: String?
        /// The stop_sequence of the stop time update concerned, when any.
        public var stopSequence: Int?
        /// Why, as a code to branch on.
        public var reason: Reason
        /// Words for a person, e.g. the service days tried.
        public var detail: String?

        /// An entry built by hand (previews, tests).
        public init(
            entityID: String, tripID: String? = nil, stopID: String? = nil, stopSequence: Int? = nil, reason: Reason,
            detail: String? = nil
        ) {
            self.entityID = entityID
            self.tripID = tripID
            self.stopID = stopID
            self.stopSequence = stopSequence
            self.reason = reason
            self.detail = detail
        }

        private enum CodingKeys: String, CodingKey {
            case entityID = "entity_id"
            case tripID = "trip_id"
            case stopID = "stop_id"
            case stopSequence = "stop_sequence"
            case reason, detail
        }
    }

    /// Entities in the messages.
    public var entities = 0
    /// Trip updates among them.
    public var tripUpdates = 0
    /// Trip updates matched to a trip instance (or added as a new trip).
    public var tripUpdatesMatched = 0
    /// Stop time updates in the trip updates.
    public var stopTimeUpdates = 0
    /// Stop time updates matched to a call of their trip.
    public var stopTimeUpdatesMatched = 0
    /// Vehicle positions in the messages.
    public var vehicles = 0
    /// Vehicle positions matched to a trip instance.
    public var vehiclesMatched = 0
    /// Alerts in the messages.
    public var alerts = 0
    /// Predicted times raised so that a trip never runs backwards.
    public var clamps = 0
    /// What could not be used, each with its reason.
    public var unmatched: [Unmatched] = []
    /// What was applied otherwise than the message says, with its reason
    /// (`header_from_the_future`, `trip_delay_used`): applied, and said.
    public var notes: [Unmatched] = []

    /// An empty report.
    public init() {}

    /// Adds `other`'s counts and, after this report's, its unmatched entities.
    mutating func append(_ other: RealtimeReport) {
        entities += other.entities
        tripUpdates += other.tripUpdates
        tripUpdatesMatched += other.tripUpdatesMatched
        stopTimeUpdates += other.stopTimeUpdates
        stopTimeUpdatesMatched += other.stopTimeUpdatesMatched
        vehicles += other.vehicles
        vehiclesMatched += other.vehiclesMatched
        alerts += other.alerts
        clamps += other.clamps
        unmatched += other.unmatched
        notes += other.notes
    }

    private enum CodingKeys: String, CodingKey {
        case entities
        case tripUpdates = "trip_updates"
        case tripUpdatesMatched = "trip_updates_matched"
        case stopTimeUpdates = "stop_time_updates"
        case stopTimeUpdatesMatched = "stop_time_updates_matched"
        case vehicles
        case vehiclesMatched = "vehicles_matched"
        case alerts, clamps, unmatched, notes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        entities = try c.decode(Int.self, forKey: .entities)
        tripUpdates = try c.decode(Int.self, forKey: .tripUpdates)
        tripUpdatesMatched = try c.decode(Int.self, forKey: .tripUpdatesMatched)
        stopTimeUpdates = try c.decode(Int.self, forKey: .stopTimeUpdates)
        stopTimeUpdatesMatched = try c.decode(Int.self, forKey: .stopTimeUpdatesMatched)
        vehicles = try c.decode(Int.self, forKey: .vehicles)
        vehiclesMatched = try c.decode(Int.self, forKey: .vehiclesMatched)
        alerts = try c.decode(Int.self, forKey: .alerts)
        clamps = try c.decode(Int.self, forKey: .clamps)
        unmatched = try c.decode([Unmatched].self, forKey: .unmatched)
        // Reports written before notes existed have none.
        notes = try c.decodeIfPresent([Unmatched].self, forKey: .notes) ?? []
    }
}
