import Foundation
import TransitRuntime

/// A departure (or arrival) with what the live data says about it. Without live data for
/// its trip it is the timetable's departure with state `scheduled` and no prediction.
public struct LiveDeparture: Sendable, Hashable, Identifiable {
    /// The timetable's call, as the offline board gives it.
    public var scheduled: Departure
    /// What the live data says of the call: scheduled, updated, skipped, cancelled...
    public var state: LiveState
    /// The predicted departure, nil without a prediction.
    public var predictedDeparture: Date?
    /// The predicted arrival, nil without a prediction.
    public var predictedArrival: Date?
    /// How late (negative: early) the call is at this stop's departure, in seconds, when
    /// predicted: `Duration.seconds(delay)` or a formatter's `TimeInterval`.
    public var delay: TimeInterval?
    /// The producer's uncertainty of the prediction, in seconds, nil when not given.
    public var uncertainty: TimeInterval?
    /// The platform the update assigns, when it moves the call to another stop.
    public var assignedStopID: String?
    /// Where the vehicle running the trip was last seen, when a fresh position is at hand.
    public var vehicle: VehicleStatus?
    /// The alerts active at the moment asked about that concern this call.
    public var alerts: [LiveAlert]

    /// The board's id of the call: the scheduled departure's.
    public var id: String { scheduled.id }
    /// True when a prediction was applied.
    public var isRealtime: Bool { predictedDeparture != nil }
    /// The instant to show and sort by: the prediction, else the timetable.
    public var departure: Date { predictedDeparture ?? scheduled.departure }
    /// The predicted arrival, else the scheduled one.
    public var arrival: Date { predictedArrival ?? scheduled.arrival }

    /// A live call built by hand (previews, tests).
    public init(
        scheduled: Departure, state: LiveState = .scheduled, predictedDeparture: Date? = nil, predictedArrival: Date? = nil,
        delay: TimeInterval? = nil, uncertainty: TimeInterval? = nil, assignedStopID: String? = nil, vehicle: VehicleStatus? = nil,
        alerts: [LiveAlert] = []
    ) {
        self.scheduled = scheduled
        self.state = state
        self.predictedDeparture = predictedDeparture
        self.predictedArrival = predictedArrival
        self.delay = delay
        self.uncertainty = uncertainty
        self.assignedStopID = assignedStopID
        self.vehicle = vehicle
        self.alerts = alerts
    }
}

/// How old a snapshot's messages may be, at the moment a board is asked, to be applied.
public struct RealtimeFreshness: Sendable, Hashable {
    /// Seconds trip updates stay usable (default 300).
    public var tripUpdates: TimeInterval
    /// Seconds a vehicle position stays usable (default 900).
    public var vehicles: TimeInterval

    /// 5 minutes for trip updates, 15 for vehicle positions.
    public init(tripUpdates: TimeInterval = 300, vehicles: TimeInterval = 900) {
        self.tripUpdates = tripUpdates
        self.vehicles = vehicles
    }

    /// Whether a vehicle's position is recent enough to show at `now`: its own measuring
    /// time (`VehiclePosition.timestamp`) at most `vehicles` old and not more than
    /// `RealtimeSnapshot.clockSkewAllowance` ahead; a position without one takes its
    /// message's time, judged for the whole snapshot.
    public func isCurrent(_ vehicle: VehicleStatus, at now: Date) -> Bool {
        guard let measured = vehicle.timestamp else { return true }
        let age = now.timeIntervalSince(measured)
        return age <= vehicles && age >= -RealtimeSnapshot.clockSkewAllowance
    }
}

/// `Codable` as `transit-query departures --realtime --json` prints a call: the offline
/// departure's keys, then the live ones (instants as ISO 8601 in UTC).
extension LiveDeparture: Codable {
    private enum LiveKeys: String, CodingKey {
        case state = "realtime_state"
        case predictedDeparture = "predicted_departure"
        case predictedArrival = "predicted_arrival"
        case delay, uncertainty
        case assignedStopID = "assigned_stop_id"
        case vehicle, alerts
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: LiveKeys.self)
        self.init(
            scheduled: try Departure(from: decoder), state: try c.decode(LiveState.self, forKey: .state),
            predictedDeparture: try c.decodeInstantIfPresent(forKey: .predictedDeparture),
            predictedArrival: try c.decodeInstantIfPresent(forKey: .predictedArrival),
            delay: try c.decodeIfPresent(TimeInterval.self, forKey: .delay),
            uncertainty: try c.decodeIfPresent(TimeInterval.self, forKey: .uncertainty),
            assignedStopID: try c.decodeIfPresent(String.self, forKey: .assignedStopID),
            vehicle: try c.decodeIfPresent(VehicleStatus.self, forKey: .vehicle),
            alerts: try c.decodeIfPresent([LiveAlert].self, forKey: .alerts) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        try scheduled.encode(to: encoder)
        var c = encoder.container(keyedBy: LiveKeys.self)
        try c.encode(state, forKey: .state)
        try c.encodeInstantIfPresent(predictedDeparture, forKey: .predictedDeparture)
        try c.encodeInstantIfPresent(predictedArrival, forKey: .predictedArrival)
        try c.encodeIfPresent(delay, forKey: .delay)
        try c.encodeIfPresent(uncertainty, forKey: .uncertainty)
        try c.encodeIfPresent(assignedStopID, forKey: .assignedStopID)
        try c.encodeIfPresent(vehicle, forKey: .vehicle)
        if !alerts.isEmpty { try c.encode(alerts, forKey: .alerts) }
    }
}
