import Foundation
import TransitRuntime

/// A service alert and what it concerns. An alert concerns a departure when one of its
/// informed entities matches it (entities OR-ed), an entity matching when every field it
/// sets matches (fields AND-ed: agency, route, route type, direction, trip, stop), and
/// when one of its active periods holds the moment asked about (none: always).
public struct LiveAlert: Sendable, Hashable, Codable, Identifiable {
    /// One informed entity (EntitySelector); nil fields are not part of the selection.
    public struct Selector: Sendable, Hashable, Codable {
        public var agencyID: String?
        public var routeID: String?
        public var routeType: Int?
        public var directionID: Int?
        public var tripID: String?
        public var stopID: String?

        /// A selector built by hand (previews, tests): the fields given must all match.
        public init(
            agencyID: String? = nil, routeID: String? = nil, routeType: Int? = nil, directionID: Int? = nil, tripID: String? = nil,
            stopID: String? = nil
        ) {
            self.agencyID = agencyID
            self.routeID = routeID
            self.routeType = routeType
            self.directionID = directionID
            self.tripID = tripID
            self.stopID = stopID
        }

        private enum CodingKeys: String, CodingKey {
            case agencyID = "agency_id"
            case routeID = "route_id"
            case routeType = "route_type"
            case directionID = "direction_id"
            case tripID = "trip_id"
            case stopID = "stop_id"
        }
    }

    public var id: String
    public var cause: AlertCause
    public var effect: AlertEffect
    /// Texts by language tag ("" when the producer gives none).
    public var headerText: [String: String]
    public var descriptionText: [String: String]
    public var url: [String: String]
    /// Unix-second ranges; an open end is nil.
    public var activePeriods: [ClosedRange<Int>]
    public var informedEntities: [Selector]
    /// The places (from 1) of the message's active periods left out: ending before they
    /// start, or starting after 9999 (reported as `bad_time`; not encoded).
    var invalidPeriods: [Int] = []

    /// An alert built by hand (previews, tests).
    ///
    /// ```swift
    /// let strike = LiveAlert(id: "a1", cause: .strike, effect: .noService, headerText: ["en": "No trains today"],
    ///                        informedEntities: [.init(routeID: "S2")])
    /// ```
    public init(
        id: String, cause: AlertCause = .unknownCause, effect: AlertEffect = .unknownEffect, headerText: [String: String] = [:],
        descriptionText: [String: String] = [:], url: [String: String] = [:], activePeriods: [ClosedRange<Int>] = [],
        informedEntities: [Selector] = []
    ) {
        self.id = id
        self.cause = cause
        self.effect = effect
        self.headerText = headerText
        self.descriptionText = descriptionText
        self.url = url
        self.activePeriods = activePeriods
        self.informedEntities = informedEntities
    }

    /// The text in `language` (a tag like "en" matches "en-US"), else the untagged one, else any.
    public func header(in language: String? = nil) -> String? { Self.pick(headerText, language) }
    public func description(in language: String? = nil) -> String? { Self.pick(descriptionText, language) }

    /// True when the alert is active at `time` and concerns `departure`.
    public func concerns(_ departure: Departure, at time: Date) -> Bool {
        let now = Int(time.timeIntervalSince1970)
        guard activePeriods.isEmpty || activePeriods.contains(where: { $0.contains(now) }) else { return false }
        return informedEntities.contains { s in
            (s.agencyID == nil || s.agencyID == departure.agencyID) && (s.routeID == nil || s.routeID == departure.routeID)
                && (s.routeType == nil || s.routeType == departure.routeType.rawValue)
                && (s.directionID == nil || s.directionID == departure.directionID)
                && (s.tripID == nil || s.tripID == departure.tripID) && (s.stopID == nil || s.stopID == departure.stopID)
        }
    }

    private static func pick(_ texts: [String: String], _ language: String?) -> String? {
        if let language {
            if let exact = texts[language] { return exact }
            if let close = texts.first(where: { $0.key.lowercased().hasPrefix(language.lowercased() + "-") }) { return close.value }
        }
        return texts[""] ?? texts.sorted { $0.key < $1.key }.first?.value
    }

    init(_ alert: TransitRealtime_Alert, id: String) {
        func texts(_ has: Bool, _ t: TransitRealtime_TranslatedString) -> [String: String] {
            guard has else { return [:] }
            var out: [String: String] = [:]
            for translation in t.translation { out[translation.language] = translation.text }
            return out
        }
        self.id = id
        cause = alert.hasCause ? AlertCause(rawValue: VehicleStatus.name(alert.cause)) : .unknownCause
        effect = alert.hasEffect ? AlertEffect(rawValue: VehicleStatus.name(alert.effect)) : .unknownEffect
        headerText = texts(alert.hasHeaderText, alert.headerText)
        descriptionText = texts(alert.hasDescriptionText, alert.descriptionText)
        url = texts(alert.hasURL, alert.url)
        var periods: [ClosedRange<Int>] = []
        var invalid: [Int] = []
        for (index, period) in alert.activePeriod.enumerated() {
            let start = period.hasStart ? period.start : 0
            let end = period.hasEnd ? period.end : UInt64(RealtimeMessage.plausibleTimes.upperBound)
            guard start <= end, (period.hasStart ? start : 0) <= UInt64(RealtimeMessage.plausibleTimes.upperBound) else {
                invalid.append(index + 1)
                continue
            }
            // An open end is forever; a time past 9999 is clamped to it.
            periods.append(
                (period.hasStart ? Int(start) : Int.min)...(period.hasEnd ? Int(clamping: min(end, UInt64(Int.max))) : Int.max))
        }
        activePeriods = periods
        invalidPeriods = invalid
        informedEntities = alert.informedEntity.map { e in
            Selector(
                agencyID: e.hasAgencyID ? e.agencyID : nil, routeID: e.hasRouteID ? e.routeID : nil,
                routeType: e.hasRouteType ? Int(e.routeType) : nil,
                directionID: e.hasDirectionID ? Int(e.directionID) : (e.hasTrip && e.trip.hasDirectionID ? Int(e.trip.directionID) : nil),
                tripID: e.hasTrip && e.trip.hasTripID ? e.trip.tripID : nil, stopID: e.hasStopID ? e.stopID : nil)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, cause, effect
        case headerText = "header_text"
        case descriptionText = "description_text"
        case url
        case activePeriods = "active_periods"
        case informedEntities = "informed_entities"
    }
}
