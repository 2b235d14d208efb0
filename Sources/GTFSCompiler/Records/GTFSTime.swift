/// Limits on GTFS times (seconds since noon minus 12 h of the service day).
enum GTFSTime {
    /// Past this a time is suspicious (the trip runs into its third service day): warned, kept.
    static let lateWarning: Int32 = 48 * 3600
    /// Past this a time is refused (its trip or frequency window dropped): a departures query
    /// looks back as many service days as the feed's largest time needs, so one absurd time
    /// would slow every query of the feed.
    static let limit: Int32 = 7 * 24 * 3600
}
