import BundleFormat
import TransitSQLite

extension TransitBundle {
    /// A trip's stops in order with times on `date`. For a frequency-based trip the times
    /// are the template's, and `frequencies` lists its windows.
    ///
    /// ```swift
    /// let trip = try bundle.trip("T1", on: ServiceDate("2026-03-28")!)
    /// trip.stopTimes.map(\.departureTime)
    /// ```
    /// - Throws: `TransitError.unknownTrip`, `.ambiguousTrip`, `.unknownFeed`, `.dateOutOfRange`.
    public func trip(_ id: String, feed: String? = nil, on date: ServiceDate) throws -> TripDetails {
        try pool.with { db in
            let (match, pattern, trip) = try tripRecord(id, feed: feed, on: date, db: db)
            let source = match.feed
            let rid = trip.rid
            let sv = trip.sv
            let start = trip.startTime
            let tripHeadsign = trip.hid
            let windows = trip.frequency ? try FrequencyTable.windows(of: match.id, db: db, in: self) : []
            let base = windows.first?.startSecs ?? start
            let dayStart = source.clock.serviceDayStart(date.civil)
            let stopTimes = try pattern.stops.map { row -> TripDetails.StopTime in
                let stop = try entities.stop(row.sid, db: db)
                let arrival = base + row.arrivalOffset
                let departure = base + row.departureOffset
                return .init(
                    stopID: stop.stopID, stopName: stop.name, stopSequence: row.stopSequence, arrivalSecs: arrival,
                    departureSecs: departure, arrivalLocal: source.clock.local(dayStart + arrival),
                    departureLocal: source.clock.local(dayStart + departure),
                    pickupType: PickupDropOffType(rawValue: row.pickupType), dropOffType: PickupDropOffType(rawValue: row.dropOffType),
                    interpolated: row.interpolated, timepoint: row.isTimepoint,
                    coordinate: stop.lat.flatMap { lat in stop.lon.map { Coordinate(latitude: lat, longitude: $0) } })
            }
            let headsign = try tripHeadsign.map { try entities.headsign($0, db: db) } ?? stopTimes.last?.stopName ?? ""
            let active = try calendar.active(on: date.civil, db: db).contains(sv)
            return TripDetails(
                feedID: source.feedID, tripID: id, routeID: try entities.route(rid, db: db).routeID,
                serviceDate: date, headsign: headsign, runsOnDate: active, stopTimes: stopTimes,
                frequencies: windows)
        }
    }

    /// The trip `id`, its pattern and its record, checking that `date` is in its feed's timetable.
    private func tripRecord(_ id: String, feed: String?, on date: ServiceDate, db: SQLiteDatabase) throws -> (
        match: (id: Int, feed: FeedCatalog.Feed), pattern: PatternCache.Pattern, trip: PatternTripRecord
    ) {
        let record = try tripRecord(id, feed: feed, db: db)
        try checkCoverage(of: record.match.feed, on: date)
        return record
    }

    /// The trip `id`, its pattern and its record.
    func tripRecord(_ id: String, feed: String?, db: SQLiteDatabase) throws -> (
        match: (id: Int, feed: FeedCatalog.Feed), pattern: PatternCache.Pattern, trip: PatternTripRecord
    ) {
        let match = try resolve(.trip, id, feed: feed, db: db)
        let pattern = try patterns.pattern(patterns.trip(match.id, db: db).pid, db: db)
        guard let trip = pattern.trip(match.id) else { throw TransitError.unknownTrip(id) }
        return (match, pattern, trip)
    }

    /// Throws `TransitError.dateOutOfRange` when `date` is outside `source`'s timetable.
    func checkCoverage(of source: FeedCatalog.Feed, on date: ServiceDate) throws {
        if let first = source.firstDate, let last = source.lastDate, date.civil < first || date.civil > last {
            throw TransitError.dateOutOfRange(date.description, feed: source.feedID, first: first.iso, last: last.iso)
        }
    }
}
