import BundleFormat
import TransitSQLite

/// The lookups `TransitRealtime` matches live data with (`LiveSeam.swift`): trip schedules
/// as integers, service days, stops by sid, trips by route and start, frequency windows.
extension TransitBundle {
    /// A trip's schedule on `date` as integers, for matching live data to it (no names, no
    /// wall-clock conversions, unlike `trip(_:feed:on:)`).
    package func tripSchedule(_ id: String, feed: String? = nil, on date: ServiceDate) throws -> TripSchedule {
        try tripSchedule(tripSchedule(id, feed: feed), on: date)
    }

    /// A trip's stops and times with no day yet (`runsOnDate` false, `dayStart` 0): the
    /// trip is looked up once, then `tripSchedule(_:on:)` places it on each candidate day.
    /// Kept per trip id (live data names the same trips message after message; a kept
    /// schedule shares its stop columns with its pattern's other trips).
    package func tripSchedule(_ id: String, feed: String? = nil) throws -> TripSchedule {
        let key = TripScheduleKey(feed: feed, tripID: id)
        if let kept = liveCaches.tripSchedules.cached(key) { return kept }
        let schedule = try pool.with { db in
            let (match, pattern, trip) = try tripRecord(id, feed: feed, db: db)
            return try tripSchedule(trip, of: pattern, feed: match.feed, db: db)
        }
        liveCaches.tripSchedules.insert(key, schedule)
        return schedule
    }

    /// The schedule of `trip`, a trip of `pattern` in `feed`, with no day yet.
    func tripSchedule(_ trip: PatternTripRecord, of pattern: PatternCache.Pattern, feed: FeedCatalog.Feed, db: SQLiteDatabase) throws
        -> TripSchedule
    {
        try tripSchedule(trip, pid: pattern.pid, columns: patterns.stopColumns(of: pattern), feedID: feed.feedID, db: db)
    }

    /// The same, with its pattern (`pid`) and the pattern's stop columns at hand, in feed `feedID`.
    func tripSchedule(_ trip: PatternTripRecord, pid: Int, columns: TripSchedule.StopColumns, feedID: String, db: SQLiteDatabase)
        throws -> TripSchedule
    {
        var windows: [TripDetails.FrequencyWindow] = []
        if trip.frequency { windows = try FrequencyTable.windows(of: trip.tid, db: db, in: self) }
        var schedule = TripSchedule(
            feedID: feedID, tid: TripNumber(trip.tid), pid: PatternNumber(pid), rid: RouteNumber(trip.rid), hid: trip.hid,
            runsOnDate: false, dayStart: 0, frequencies: windows, stops: columns, base: windows.first?.startSecs ?? trip.startTime)
        schedule.service = ServiceNumber(trip.sv)
        return schedule
    }

    /// The route id and headsign of `schedule`'s trip: trip_headsign, else the name of the
    /// pattern's last stop (as `trip(_:feed:on:)` gives them).
    /// - Throws: `TransitError.corruptBundle` when the bundle has no such route or stop.
    package func names(of schedule: TripSchedule) throws -> (routeID: String, headsign: String) {
        try pool.with { db in
            let headsign =
                try schedule.hid.map { try entities.headsign($0, db: db) } ?? schedule.stops.records.last.map {
                    try entities.stop($0.sid, db: db).name
                }
                ?? ""
            return (try entities.route(schedule.rid.int, db: db).routeID, headsign)
        }
    }

    /// The sid of stop `stopID` of feed `feed`, nil when the feed has none (kept once
    /// looked up), for comparing live data's stops with a schedule's `sids`.
    package func sid(ofStop stopID: String, feed: String) -> StopNumber? {
        try? pool.with { db in StopNumber(try resolve(.stop, stopID, feed: feed, db: db).id) }
    }

    /// The text stop id of stop `sid`.
    /// - Throws: `TransitError.corruptBundle` when the bundle has no such stop.
    package func stopID(sid: StopNumber) throws -> String {
        if let row = entities.cachedStop(sid.int) { return row.stopID }
        return try pool.with { db in try entities.stop(sid.int, db: db).stopID }
    }

    /// Stop `sid` as `stop(_:feed:)` returns it.
    /// - Throws: `TransitError.corruptBundle` when the bundle has no such stop.
    package func stop(sid: StopNumber) throws -> Stop {
        try pool.with { db in try publicStop(try entities.stop(sid.int, db: db), distance: nil, db: db) }
    }

    /// `schedule` placed on `date`: whether its service runs that day and the Unix time the
    /// day starts.
    /// - Throws: `TransitError.dateOutOfRange` when `date` is outside the feed's timetable.
    package func tripSchedule(_ schedule: TripSchedule, on date: ServiceDate) throws -> TripSchedule {
        schedule.placed(on: try serviceDay(feed: schedule.feedID, on: date))
    }

    /// Feed `feed`'s service day `date`: which services run and when the day starts.
    /// - Throws: `TransitError.unknownFeed`; `.dateOutOfRange` when `date` is outside the
    ///   feed's timetable.
    package func serviceDay(feed: String, on date: ServiceDate) throws -> ServiceDay {
        let source = try catalog.feed(named: feed)
        try checkCoverage(of: source, on: date)
        let active = try calendar.cachedActive(on: date.civil) ?? pool.with { db in try calendar.active(on: date.civil, db: db) }
        let dayStart = source.serviceDayStart(date.civil, cachedIn: boardCaches.dayStarts)
        return ServiceDay(dayStart: dayStart, active: active)
    }
}

extension TransitBundle {
    /// The trips of a route (in one direction when given) that run on `date` and leave their
    /// first stop at `startSecs` (GTFS seconds), for live data naming a trip by route and
    /// start: the trips scheduled to start then (a timed trip, or an exact_times=1
    /// frequency whose grid start + k x headway has that time), else, when there is none,
    /// the headway-based (exact_times=0) frequency trips with a window holding it (their
    /// instances may start at any time of the window).
    package func tripIDs(route: String, feed: String?, direction: Int?, startSecs: Int, on date: ServiceDate) throws -> [String] {
        try pool.with { db in
            let rid = try resolve(.route, route, feed: feed, db: db).id
            var scheduled: [String] = []
            var headwayBased: [String] = []
            for trip in try trips(ofRoute: rid, direction: direction, on: date, db: db) {
                guard trip.frequency else {
                    if trip.startTime == startSecs { scheduled.append(try patterns.trip(trip.tid, db: db).tripID) }
                    continue
                }
                let windows = try FrequencyTable.windows(of: trip.tid, db: db, in: self)
                if windows.contains(where: { $0.exactTimes && $0.hasInstance(startingAt: startSecs) }) {
                    scheduled.append(try patterns.trip(trip.tid, db: db).tripID)
                } else if windows.contains(where: { !$0.exactTimes && $0.hasInstance(startingAt: startSecs) }) {
                    headwayBased.append(try patterns.trip(trip.tid, db: db).tripID)
                }
            }
            return scheduled.isEmpty ? headwayBased : scheduled
        }
    }

    /// Route `rid`'s trips (in one direction when given) that run on `date`, pattern by
    /// pattern (a pattern may be shared with other routes: only this route's trips).
    func trips(ofRoute rid: Int, direction: Int?, on date: ServiceDate, db: SQLiteDatabase) throws -> [PatternTripRecord] {
        let active = try calendar.active(on: date.civil, db: db)
        return try patterns.patterns(ofRoute: rid, db: db).flatMap { pattern in
            pattern.allTrips.filter {
                $0.rid == rid && active.contains($0.sv) && (direction == nil || $0.directionID == direction)
            }
        }
    }
}

extension TripDetails.FrequencyWindow {
    /// Whether `secs` (GTFS seconds) lies in the window, end excluded.
    package func holds(_ secs: Int) -> Bool { startSecs <= secs && secs < endSecs }

    /// Whether an instance of the trip may leave its first stop at `secs` (GTFS seconds) in
    /// this window (end excluded): with exact_times=1 only at start + k x headway (the
    /// GTFS-Realtime reference: "some multiple of headway_secs later than frequencies.txt
    /// start_time"), headway-based at any time of the window.
    package func hasInstance(startingAt secs: Int) -> Bool {
        guard holds(secs) else { return false }
        return !exactTimes || headwaySecs <= 0 || (secs - startSecs) % headwaySecs == 0
    }
}
