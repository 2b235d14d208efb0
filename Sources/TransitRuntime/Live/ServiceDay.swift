import BundleFormat

/// One service day of a feed (`TransitBundle.serviceDay(feed:on:)`): which services run,
/// and the Unix time of its noon minus 12 hours, from which its GTFS times count. Live data
/// places the trips it names on a few such days, each looked up once.
package struct ServiceDay: Sendable {
    package let dayStart: Int
    let active: ServiceCalendar.ActiveSet

    /// Whether service `sv` (a trip's `service`) runs that day.
    package func runs(_ service: ServiceNumber) -> Bool { active.contains(service) }
}
