import BundleFormat
import Foundation
import TransitSQLite

extension TransitBundle {
    /// A stop's timetable for one service day, as a printed timetable at the stop shows it:
    /// every departure of a trip belonging to service day `date` (times past 24:00 included,
    /// instances of frequency-based trips one by one), in time order. A station stands for
    /// its platforms.
    ///
    /// ```swift
    /// let day = try bundle.timetable(at: "GARE", on: ServiceDate(Date(), in: zone))
    /// ```
    /// - Throws: `TransitError.unknownStop`, `.ambiguousStop`, `.unknownFeed`, `.dateOutOfRange`.
    public func timetable(at stop: String, feed: String? = nil, on date: ServiceDate) throws -> [Departure] {
        // A service day's times run from its noon minus 12 h (midnight but on the days the
        // clock changes) for up to two days (GTFS times past 24:00): ask a little before.
        let start = QueryTime.local(date.adding(days: -1), secondsOfDay: 22 * 3600)
        return try departures(from: stop, feed: feed, at: start, within: 3 * 86_400, limit: Int.max).filter { $0.serviceDate == date }
    }

    /// A route's timetable for one service day: its trips that run on `date` (in one
    /// direction when given), each with its stops and times, ordered by their first
    /// departure (a frequency-based trip once, with its windows).
    ///
    /// ```swift
    /// for trip in try bundle.timetable(ofRoute: "A", direction: 0, on: day) { print(trip.stopTimes.first!.departureTime) }
    /// ```
    /// - Throws: `TransitError.unknownRoute`, `.ambiguousRoute`, `.unknownFeed`, `.dateOutOfRange`.
    public func timetable(ofRoute route: String, feed: String? = nil, direction: Int? = nil, on date: ServiceDate) throws
        -> [TripDetails]
    {
        let (feedID, tripIDs) = try pool.with { db -> (String, [String]) in
            let match = try resolve(.route, route, feed: feed, db: db)
            let ids = try trips(ofRoute: match.id, direction: direction, on: date, db: db).map {
                (start: $0.startTime, id: try patterns.trip($0.tid, db: db).tripID)
            }
            return (match.feed.feedID, ids.sorted { ($0.start, $0.id) < ($1.start, $1.id) }.map(\.id))
        }
        return try tripIDs.map { try trip($0, feed: feedID, on: date) }
    }
}
