/// route_type: the kind of vehicle, as GTFS codes it. The basic codes 0-12 have cases;
/// the extended codes (100-1700, Hierarchical Vehicle Type) keep their number in `extended`,
/// and anything else in `other`, so no value a feed gives is lost.
///
/// ```swift
/// RouteType(rawValue: 0) == .tram        // true
/// RouteType(rawValue: 109).rawValue      // 109 (.extended: suburban railway)
/// ```
public enum RouteType: RawRepresentable, Hashable, Sendable, Codable {
    case tram, subway, rail, bus, ferry, cableTram, aerialLift, funicular, trolleybus, monorail
    /// An extended code, 100-1799.
    case extended(Int)
    case other(Int)

    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .tram
        case 1: self = .subway
        case 2: self = .rail
        case 3: self = .bus
        case 4: self = .ferry
        case 5: self = .cableTram
        case 6: self = .aerialLift
        case 7: self = .funicular
        case 11: self = .trolleybus
        case 12: self = .monorail
        case 100..<1800: self = .extended(rawValue)
        default: self = .other(rawValue)
        }
    }

    // A switch, not a comparison: `==` of a RawRepresentable compares raw values.
    public var rawValue: Int {
        switch self {
        case .tram: return 0
        case .subway: return 1
        case .rail: return 2
        case .bus: return 3
        case .ferry: return 4
        case .cableTram: return 5
        case .aerialLift: return 6
        case .funicular: return 7
        case .trolleybus: return 11
        case .monorail: return 12
        case .extended(let code), .other(let code): return code
        }
    }
}

/// pickup_type and drop_off_type: whether riders may board (alight) at a stop.
public enum PickupDropOffType: RawRepresentable, Hashable, Sendable, Codable {
    /// 0 (or empty): as scheduled.
    case regular
    /// 1: not possible.
    case notAvailable
    /// 2: phone the agency.
    case phoneAgency
    /// 3: ask the driver.
    case coordinateWithDriver
    case other(Int)

    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .regular
        case 1: self = .notAvailable
        case 2: self = .phoneAgency
        case 3: self = .coordinateWithDriver
        default: self = .other(rawValue)
        }
    }

    public var rawValue: Int {
        switch self {
        case .regular: return 0
        case .notAvailable: return 1
        case .phoneAgency: return 2
        case .coordinateWithDriver: return 3
        case .other(let code): return code
        }
    }
}

/// wheelchair_boarding, wheelchair_accessible and bikes_allowed: 0 no information, 1 yes, 2 no.
public enum Accessibility: RawRepresentable, Hashable, Sendable, Codable {
    case unknown, yes, no
    case other(Int)

    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .unknown
        case 1: self = .yes
        case 2: self = .no
        default: self = .other(rawValue)
        }
    }

    public var rawValue: Int {
        switch self {
        case .unknown: return 0
        case .yes: return 1
        case .no: return 2
        case .other(let code): return code
        }
    }
}

/// location_type: what a row of stops.txt is.
public enum LocationType: RawRepresentable, Hashable, Sendable, Codable {
    case stop, station, entrance, genericNode, boardingArea
    case other(Int)

    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .stop
        case 1: self = .station
        case 2: self = .entrance
        case 3: self = .genericNode
        case 4: self = .boardingArea
        default: self = .other(rawValue)
        }
    }

    public var rawValue: Int {
        switch self {
        case .stop: return 0
        case .station: return 1
        case .entrance: return 2
        case .genericNode: return 3
        case .boardingArea: return 4
        case .other(let code): return code
        }
    }
}

/// transfer_type of transfers.txt.
public enum TransferType: RawRepresentable, Hashable, Sendable, Codable {
    case recommended, timed, minimumTime, notPossible, inSeat, inSeatNotAllowed
    case other(Int)

    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .recommended
        case 1: self = .timed
        case 2: self = .minimumTime
        case 3: self = .notPossible
        case 4: self = .inSeat
        case 5: self = .inSeatNotAllowed
        default: self = .other(rawValue)
        }
    }

    public var rawValue: Int {
        switch self {
        case .recommended: return 0
        case .timed: return 1
        case .minimumTime: return 2
        case .notPossible: return 3
        case .inSeat: return 4
        case .inSeatNotAllowed: return 5
        case .other(let code): return code
        }
    }
}
