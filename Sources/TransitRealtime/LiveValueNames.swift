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

    public static let unknownCause = Self(rawValue: "UNKNOWN_CAUSE")
    public static let otherCause = Self(rawValue: "OTHER_CAUSE")
    public static let technicalProblem = Self(rawValue: "TECHNICAL_PROBLEM")
    public static let strike = Self(rawValue: "STRIKE")
    public static let demonstration = Self(rawValue: "DEMONSTRATION")
    public static let accident = Self(rawValue: "ACCIDENT")
    public static let holiday = Self(rawValue: "HOLIDAY")
    public static let weather = Self(rawValue: "WEATHER")
    public static let maintenance = Self(rawValue: "MAINTENANCE")
    public static let construction = Self(rawValue: "CONSTRUCTION")
    public static let policeActivity = Self(rawValue: "POLICE_ACTIVITY")
    public static let medicalEmergency = Self(rawValue: "MEDICAL_EMERGENCY")
}

/// An alert's effect on service, its `.proto` spelling kept (see `AlertCause`).
public struct AlertEffect: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let noService = Self(rawValue: "NO_SERVICE")
    public static let reducedService = Self(rawValue: "REDUCED_SERVICE")
    public static let significantDelays = Self(rawValue: "SIGNIFICANT_DELAYS")
    public static let detour = Self(rawValue: "DETOUR")
    public static let additionalService = Self(rawValue: "ADDITIONAL_SERVICE")
    public static let modifiedService = Self(rawValue: "MODIFIED_SERVICE")
    public static let otherEffect = Self(rawValue: "OTHER_EFFECT")
    public static let unknownEffect = Self(rawValue: "UNKNOWN_EFFECT")
    public static let stopMoved = Self(rawValue: "STOP_MOVED")
    public static let noEffect = Self(rawValue: "NO_EFFECT")
    public static let accessibilityIssue = Self(rawValue: "ACCESSIBILITY_ISSUE")
}

/// Where a vehicle is relative to its stop (VehicleStopStatus), its `.proto` spelling kept.
public struct VehicleStopStatus: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let incomingAt = Self(rawValue: "INCOMING_AT")
    public static let stoppedAt = Self(rawValue: "STOPPED_AT")
    public static let inTransitTo = Self(rawValue: "IN_TRANSIT_TO")
}

/// How full a vehicle is (OccupancyStatus), its `.proto` spelling kept.
public struct OccupancyStatus: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let empty = Self(rawValue: "EMPTY")
    public static let manySeatsAvailable = Self(rawValue: "MANY_SEATS_AVAILABLE")
    public static let fewSeatsAvailable = Self(rawValue: "FEW_SEATS_AVAILABLE")
    public static let standingRoomOnly = Self(rawValue: "STANDING_ROOM_ONLY")
    public static let crushedStandingRoomOnly = Self(rawValue: "CRUSHED_STANDING_ROOM_ONLY")
    public static let full = Self(rawValue: "FULL")
    public static let notAcceptingPassengers = Self(rawValue: "NOT_ACCEPTING_PASSENGERS")
    public static let noDataAvailable = Self(rawValue: "NO_DATA_AVAILABLE")
    public static let notBoardable = Self(rawValue: "NOT_BOARDABLE")
}
