import Foundation
import TransitRuntime

/// A service alert and what it concerns. An alert concerns a departure when one of its
/// informed entities matches it (entities OR-ed), an entity matching when every field it
/// sets matches (fields AND-ed: agency, route, route type, direction, trip, stop), and
/// when one of its active periods holds the moment asked about (none: always).
public struct LiveAlert: Sendable, Hashable, Codable, Identifiable {
    /// One informed entity (EntitySelector); nil fields are not part of the selection.
    public struct Selector: Sendable, Hashable, Codable {
        /// agency_id the entity names.
        public var agencyID: String?
        /// route_id the entity names.
        public var routeID: String?
        /// route_type the entity names.
        public var routeType: Int?
        /// direction_id the entity names.
        public var directionID: Int?
        /// trip_id the entity names.
        public var tripID: String?
        /// stop_id the entity names.
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

    /// When an alert applies: from `start` to `end`, either open (nil: since ever, or for
    /// good), as the message's TimeRange says. `Codable` as ISO 8601 instants.
    ///
    /// ```swift
    /// if let until = alert.activePeriods.first?.end { banner.text = "until \(until.formatted(date: .omitted, time: .shortened))" }
    /// ```
    public struct ActivePeriod: Sendable, Hashable, Codable {
        /// The first instant, nil when the period has no start.
        public var start: Date?
        /// The last instant, nil when the period has no end.
        public var end: Date?

        /// A period built by hand (previews, tests).
        public init(start: Date? = nil, end: Date? = nil) {
            self.start = start
            self.end = end
        }

        /// The period as a `DateInterval`, nil when an end is open.
        public var dateInterval: DateInterval? {
            guard let start, let end else { return nil }
            return DateInterval(start: start, end: end)
        }

        /// Whether `date` lies in the period, ends included.
        public func contains(_ date: Date) -> Bool { (start.map { $0 <= date } ?? true) && (end.map { date <= $0 } ?? true) }

        private enum CodingKeys: String, CodingKey { case start, end }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(start: try c.decodeInstantIfPresent(forKey: .start), end: try c.decodeInstantIfPresent(forKey: .end))
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeInstantIfPresent(start, forKey: .start)
            try c.encodeInstantIfPresent(end, forKey: .end)
        }
    }

    public var id: String
    /// Why (strike, weather, ...), `.unknownCause` when not given.
    public var cause: AlertCause
    /// What it does to service (no service, detour, ...), `.unknownEffect` when not given.
    public var effect: AlertEffect
    /// Texts by language tag ("" when the producer gives none).
    public var headerText: [String: String]
    /// The longer text by language tag.
    public var descriptionText: [String: String]
    /// A page about the alert by language tag.
    public var url: [String: String]
    /// When the alert applies (none: always).
    public var activePeriods: [ActivePeriod]
    /// What the alert concerns (any one of them).
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
        descriptionText: [String: String] = [:], url: [String: String] = [:], activePeriods: [ActivePeriod] = [],
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
    /// The description in `language`, chosen as `header(in:)` chooses.
    public func description(in language: String? = nil) -> String? { Self.pick(descriptionText, language) }

    /// True when the alert is active at `time` and concerns `departure`.
    public func concerns(_ departure: Departure, at time: Date) -> Bool {
        guard activePeriods.isEmpty || activePeriods.contains(where: { $0.contains(time) }) else { return false }
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
        var periods: [ActivePeriod] = []
        var invalid: [Int] = []
        let latest = UInt64(RealtimeMessage.plausibleTimes.upperBound)
        for (index, period) in alert.activePeriod.enumerated() {
            let start = period.hasStart ? period.start : 0
            let end = period.hasEnd ? period.end : latest
            guard start <= end, start <= latest else {
                invalid.append(index + 1)
                continue
            }
            // An open end is forever; a time past 9999 is clamped to it.
            periods.append(
                ActivePeriod(
                    start: period.hasStart ? Date(timeIntervalSince1970: TimeInterval(start)) : nil,
                    end: period.hasEnd ? Date(timeIntervalSince1970: TimeInterval(min(end, latest))) : nil))
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
