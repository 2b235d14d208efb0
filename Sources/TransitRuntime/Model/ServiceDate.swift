import BundleFormat
import Foundation

/// A service day (a calendar date in the feed's timezone), as `YYYY-MM-DD`: the date type
/// the compiler's summary uses too.
///
/// ```swift
/// let day = ServiceDate("2026-03-29")!
/// day.description   // "2026-03-29"
/// day.adding(days: 1)   // 2026-03-30
/// ```
public typealias ServiceDate = BundleFormat.ServiceDate

extension ServiceDate {
    /// The calendar date `instant` falls on in `timeZone` (a feed's `Departure.timeZone` or
    /// `BundleInfo` zone): the day to ask `trip(_:on:)` about "today".
    ///
    /// ```swift
    /// let today = ServiceDate(Date(), in: departure.timeZone)
    /// ```
    public init(_ instant: Date, in timeZone: TimeZone) { self = LocalDateTime(instant, in: timeZone).date }

    /// The first instant of this date in `timeZone` (its local midnight, or the first
    /// moment after it on a day whose clock skips midnight).
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = civil.components
        return calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: parts.day))
            ?? Date(timeIntervalSince1970: TimeInterval(civil.dayNumber * 86_400 - timeZone.secondsFromGMT()))
    }
}
