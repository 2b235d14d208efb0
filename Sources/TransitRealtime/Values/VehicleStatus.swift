import Foundation
import TransitRuntime

/// Where the vehicle running a trip instance was last seen, from a VehiclePosition.
/// `Codable` with snake_case keys and `timestamp` as an ISO 8601 instant in UTC (whatever
/// the encoder's date strategy), as the command line prints it.
public struct VehicleStatus: Sendable, Hashable, Codable {
    /// The vehicle's id from the message, nil when not given.
    public var vehicleID: String?
    /// The label riders see (a fleet number), nil when not given.
    public var label: String?
    /// Where the vehicle was, nil when not given.
    public var position: Coordinate?
    /// When the position was measured.
    public var timestamp: Date?
    /// INCOMING_AT, STOPPED_AT or IN_TRANSIT_TO.
    public var currentStatus: VehicleStopStatus?
    /// The stop the status refers to.
    public var stopID: String?
    /// EMPTY ... FULL, NOT_BOARDABLE.
    public var occupancy: OccupancyStatus?

    /// A status built by hand (previews, tests).
    public init(
        vehicleID: String? = nil, label: String? = nil, position: Coordinate? = nil, timestamp: Date? = nil,
        currentStatus: VehicleStopStatus? = nil, stopID: String? = nil, occupancy: OccupancyStatus? = nil
    ) {
        self.vehicleID = vehicleID
        self.label = label
        self.position = position
        self.timestamp = timestamp
        self.currentStatus = currentStatus
        self.stopID = stopID
        self.occupancy = occupancy
    }

    init(_ v: TransitRealtime_VehiclePosition) {
        self.init(
            vehicleID: v.hasVehicle && v.vehicle.hasID ? v.vehicle.id : nil,
            label: v.hasVehicle && v.vehicle.hasLabel && !v.vehicle.label.isEmpty ? v.vehicle.label : nil,
            position: v.hasPosition ? Coordinate(latitude: Double(v.position.latitude), longitude: Double(v.position.longitude)) : nil,
            timestamp: v.hasTimestamp ? Date(timeIntervalSince1970: TimeInterval(v.timestamp)) : nil,
            currentStatus: v.hasCurrentStatus ? VehicleStopStatus(rawValue: Self.name(v.currentStatus)) : nil,
            stopID: v.hasStopID ? v.stopID : nil,
            occupancy: v.hasOccupancyStatus ? OccupancyStatus(rawValue: Self.name(v.occupancyStatus)) : nil)
    }

    /// An enum value as the .proto spells it (`stoppedAt` -> `STOPPED_AT`).
    static func name(_ value: Any) -> String {
        var out = ""
        for character in String(describing: value) {
            if character.isUppercase { out += "_" }
            out += character.uppercased()
        }
        return out
    }

    private enum CodingKeys: String, CodingKey {
        case vehicleID = "vehicle_id"
        case label, position, timestamp
        case currentStatus = "current_status"
        case stopID = "stop_id"
        case occupancy
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let timestamp = try c.decodeInstantIfPresent(forKey: .timestamp)
        self.init(
            vehicleID: try c.decodeIfPresent(String.self, forKey: .vehicleID), label: try c.decodeIfPresent(String.self, forKey: .label),
            position: try c.decodeIfPresent(Coordinate.self, forKey: .position), timestamp: timestamp,
            currentStatus: try c.decodeIfPresent(VehicleStopStatus.self, forKey: .currentStatus),
            stopID: try c.decodeIfPresent(String.self, forKey: .stopID),
            occupancy: try c.decodeIfPresent(OccupancyStatus.self, forKey: .occupancy))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(vehicleID, forKey: .vehicleID)
        try c.encodeIfPresent(label, forKey: .label)
        try c.encodeIfPresent(position, forKey: .position)
        try c.encodeInstantIfPresent(timestamp, forKey: .timestamp)
        try c.encodeIfPresent(currentStatus, forKey: .currentStatus)
        try c.encodeIfPresent(stopID, forKey: .stopID)
        try c.encodeIfPresent(occupancy, forKey: .occupancy)
    }
}
