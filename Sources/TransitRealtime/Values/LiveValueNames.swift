/// The GTFS-Realtime enumerations a board shows, as values that keep what the producer
/// sent: each is its `.proto` spelling (`rawValue`, also its `Codable` form), with the
/// specification's values as constants to compare with, and any other spelling (a newer
/// version of the specification) kept as it came.
///
/// ```swift
/// if alert.effect == .noService { row.strikeThrough() }
/// if call.vehicle?.occupancy == .full { badge.text = "Full" }
/// ```
public struct AlertCause: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The cause is not known.
    public static let unknownCause = Self(rawValue: "UNKNOWN_CAUSE")
    /// A cause not in the list.
    public static let otherCause = Self(rawValue: "OTHER_CAUSE")
    /// A technical problem.
    public static let technicalProblem = Self(rawValue: "TECHNICAL_PROBLEM")
    /// A strike.
    public static let strike = Self(rawValue: "STRIKE")
    /// A demonstration.
    public static let demonstration = Self(rawValue: "DEMONSTRATION")
    /// An accident.
    public static let accident = Self(rawValue: "ACCIDENT")
    /// A holiday.
    public static let holiday = Self(rawValue: "HOLIDAY")
    /// The weather.
    public static let weather = Self(rawValue: "WEATHER")
    /// Maintenance work.
    public static let maintenance = Self(rawValue: "MAINTENANCE")
    /// Construction work.
    public static let construction = Self(rawValue: "CONSTRUCTION")
    /// Police activity.
    public static let policeActivity = Self(rawValue: "POLICE_ACTIVITY")
    /// A medical emergency.
    public static let medicalEmergency = Self(rawValue: "MEDICAL_EMERGENCY")
}

/// An alert's effect on service, its `.proto` spelling kept (see `AlertCause`).
public struct AlertEffect: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// No service on what the alert concerns.
    public static let noService = Self(rawValue: "NO_SERVICE")
    /// Less service than scheduled.
    public static let reducedService = Self(rawValue: "REDUCED_SERVICE")
    /// Significant delays.
    public static let significantDelays = Self(rawValue: "SIGNIFICANT_DELAYS")
    /// A detour.
    public static let detour = Self(rawValue: "DETOUR")
    /// More service than scheduled.
    public static let additionalService = Self(rawValue: "ADDITIONAL_SERVICE")
    /// Service changed otherwise.
    public static let modifiedService = Self(rawValue: "MODIFIED_SERVICE")
    /// An effect not in the list.
    public static let otherEffect = Self(rawValue: "OTHER_EFFECT")
    /// The effect is not known.
    public static let unknownEffect = Self(rawValue: "UNKNOWN_EFFECT")
    /// A stop moved.
    public static let stopMoved = Self(rawValue: "STOP_MOVED")
    /// No effect on service (information only).
    public static let noEffect = Self(rawValue: "NO_EFFECT")
    /// An accessibility problem (a lift out of order...).
    public static let accessibilityIssue = Self(rawValue: "ACCESSIBILITY_ISSUE")
}

/// Where a vehicle is relative to its stop (VehicleStopStatus), its `.proto` spelling kept.
public struct VehicleStopStatus: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// About to arrive at the stop.
    public static let incomingAt = Self(rawValue: "INCOMING_AT")
    /// Standing at the stop.
    public static let stoppedAt = Self(rawValue: "STOPPED_AT")
    /// On its way to the stop.
    public static let inTransitTo = Self(rawValue: "IN_TRANSIT_TO")
}

/// How full a vehicle is (OccupancyStatus), its `.proto` spelling kept.
public struct OccupancyStatus: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Empty or nearly.
    public static let empty = Self(rawValue: "EMPTY")
    /// Many seats free.
    public static let manySeatsAvailable = Self(rawValue: "MANY_SEATS_AVAILABLE")
    /// Few seats free.
    public static let fewSeatsAvailable = Self(rawValue: "FEW_SEATS_AVAILABLE")
    /// Standing room only.
    public static let standingRoomOnly = Self(rawValue: "STANDING_ROOM_ONLY")
    /// Crowded: little standing room.
    public static let crushedStandingRoomOnly = Self(rawValue: "CRUSHED_STANDING_ROOM_ONLY")
    /// Full.
    public static let full = Self(rawValue: "FULL")
    /// Not taking riders.
    public static let notAcceptingPassengers = Self(rawValue: "NOT_ACCEPTING_PASSENGERS")
    /// The producer has no occupancy data.
    public static let noDataAvailable = Self(rawValue: "NO_DATA_AVAILABLE")
    /// Riders cannot board (a non-revenue car).
    public static let notBoardable = Self(rawValue: "NOT_BOARDABLE")
}
