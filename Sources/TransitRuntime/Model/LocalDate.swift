import BundleFormat

/// A calendar date on a wall clock (in a feed's timezone), as `YYYY-MM-DD`. Unlike
/// `ServiceDate`, it says nothing about which service day a trip belongs to.
///
/// ```swift
/// let day = LocalDate("2026-03-29")!
/// let at = QueryTime.local(day, secondsOfDay: 8 * 3600)
/// ```
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    let civil: CivilDate

    /// Parses `YYYY-MM-DD`; nil when malformed or not a real date.
    public init?(_ text: String) {
        guard let civil = CivilDate(iso: text) else { return nil }
        self.civil = civil
    }

    init(_ civil: CivilDate) { self.civil = civil }

    public var description: String { civil.iso }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.civil < b.civil }
}

/// A moment as a feed's wall clock shows it: the local date, the time of day, and the UTC
/// offset in force. `description` is ISO 8601 (`2026-03-29T08:00:00+02:00`).
///
/// ```swift
/// let d = try bundle.departures(stop: "CENTRAL").first!
/// print(d.departureLocal.hour, d.departureLocal.minute)
/// ```
public struct LocalDateTime: Hashable, Sendable, CustomStringConvertible {
    public let date: LocalDate
    /// Seconds since local midnight, 0 to 86399.
    public let secondsOfDay: Int
    public let utcOffsetSeconds: Int

    public var hour: Int { secondsOfDay / 3600 }
    public var minute: Int { secondsOfDay / 60 % 60 }
    public var second: Int { secondsOfDay % 60 }

    public var description: String {
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let offset = abs(utcOffsetSeconds)
        return "\(date)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))\(sign)\(pad(offset / 3600, 2)):\(pad(offset / 60 % 60, 2))"
    }
}
