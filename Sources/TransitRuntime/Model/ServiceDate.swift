import BundleFormat

/// A service day (a calendar date in the feed's timezone), as `YYYY-MM-DD`: the date type
/// the compiler's summary uses too.
///
/// ```swift
/// let day = ServiceDate("2026-03-29")!
/// day.description   // "2026-03-29"
/// day.adding(days: 1)   // 2026-03-30
/// ```
public typealias ServiceDate = BundleFormat.ServiceDate
