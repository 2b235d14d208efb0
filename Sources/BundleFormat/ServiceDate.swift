/// A service day (a calendar date in the feed's timezone), as `YYYY-MM-DD`. The one date
/// type of the libraries: `TransitRuntime` and `GTFSCompiler` both name it `ServiceDate`.
///
/// ```swift
/// let day = ServiceDate("2026-03-29")!
/// day.description   // "2026-03-29"
/// ```
public struct ServiceDate: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    package let civil: CivilDate

    /// Parses `YYYY-MM-DD`; nil when malformed or not a real date.
    public init?(_ text: String) {
        guard let civil = CivilDate(iso: text) else { return nil }
        self.civil = civil
    }

    /// The date `year`-`month`-`day`; nil when it does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard let civil = CivilDate(year: year, month: month, day: day) else { return nil }
        self.civil = civil
    }

    package init(_ civil: CivilDate) { self.civil = civil }

    public var description: String { civil.iso }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> ServiceDate { ServiceDate(civil.adding(days: days)) }

    public static func < (a: ServiceDate, b: ServiceDate) -> Bool { a.civil < b.civil }

    /// Encoded as `"YYYY-MM-DD"`.
    public init(from decoder: Decoder) throws { self = try decoder.decodeText("YYYY-MM-DD", ServiceDate.init) }

    public func encode(to encoder: Encoder) throws { try encoder.encodeText(description) }
}
