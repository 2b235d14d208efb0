import BundleFormat
import Foundation
import TransitSQLite

extension TransitBundle {
    /// Departures from a stop (or, for a station, from its platforms) in `[at, at + window)`,
    /// ordered by instant, feed, stop_id, trip_id.
    ///
    /// ```swift
    /// let board = try bundle.departures(from: "CENTRAL", at: try QueryTime.parse("2026-03-28T23:50"), within: 90 * 60)
    /// ```
    /// - Parameters:
    ///   - stop: the stop_id.
    ///   - feed: the feed id, needed only when several feeds use the stop_id.
    ///   - time: the window's start; a local time is read in the stop's feed timezone.
    ///   - window: the window's length in seconds, 0 to 7 days (default one hour).
    ///   - limit: the most departures returned (default 20).
    /// - Throws: `TransitError.unknownStop`, `.ambiguousStop`, `.unknownFeed`, `.dateOutOfRange`.
    public func departures(
        from stop: String, feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20
    ) throws -> [Departure] {
        try board(.departures, stops: [stop], feed: feed, at: time, window: window, limit: limit)
    }

    /// Departures from several stops at once (every platform at a street corner, say),
    /// merged in order: by instant, feed, stop_id, trip_id. A local `at` is read in each
    /// stop's feed timezone.
    ///
    /// ```swift
    /// let corner = try bundle.departures(from: ["1021", "1022", "1187"], at: .instant(Date()))
    /// ```
    /// - Throws: as `departures(from:feed:at:within:limit:)`, for the first stop that fails.
    public func departures(
        from stops: [String], feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20
    ) throws -> [Departure] {
        try board(.departures, stops: stops, feed: feed, at: time, window: window, limit: limit)
    }

    /// Arrivals at a stop (or its platforms, or several stops) in `[at, at + window)`: trips
    /// reaching it where riders may alight (drop_off_type not 1), the terminus included and
    /// a trip's first stop not, ordered by arrival instant, feed, stop_id, trip_id. Each
    /// element is the trip's call at the stop; `arrival` is the board's time.
    ///
    /// ```swift
    /// let arriving = try bundle.arrivals(to: "GARE_01", at: try QueryTime.parse("2026-03-29T08:00"))
    /// ```
    /// - Throws: as `departures(from:feed:at:within:limit:)`.
    public func arrivals(
        to stop: String, feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20
    ) throws -> [Departure] {
        try board(.arrivals, stops: [stop], feed: feed, at: time, window: window, limit: limit)
    }

    /// Arrivals at several stops at once, merged in order as `departures(from:)` merges.
    ///
    /// ```swift
    /// let arriving = try bundle.arrivals(to: ["1021", "1022"], at: .instant(Date()))
    /// ```
    public func arrivals(
        to stops: [String], feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20
    ) throws -> [Departure] {
        try board(.arrivals, stops: stops, feed: feed, at: time, window: window, limit: limit)
    }

    private func board(
        _ kind: DepartureFinder.Kind, stops: [String], feed: String?, at: QueryTime, window: TimeInterval, limit: Int
    ) throws -> [Departure] {
        guard window >= 0, window <= 7 * 86_400 else { throw TransitError.badArgument("the window must be 0 to 7 days") }
        let windowSeconds = Int(window.rounded(.up))
        guard limit >= 0 else { throw TransitError.badArgument("limit must not be negative") }
        guard !stops.isEmpty else { throw TransitError.badArgument("no stop given") }
        return try pool.with { db in
            // The stops (a station: with its platforms) of each feed, in the order given.
            var sidsOfFeed: [Int: [Int]] = [:]
            for stop in stops {
                let sid = try resolve(.stop, stop, feed: feed, db: db).id
                let row = try entities.stop(sid, db: db)
                var sids = [sid]
                if row.locationType == 1 { sids += try entities.children(of: sid, db: db) }
                for s in sids where !(sidsOfFeed[row.fid] ?? []).contains(s) { sidsOfFeed[row.fid, default: []].append(s) }
            }
            var all: [(candidate: DepartureFinder.Candidate, feed: FeedCatalog.Feed)] = []
            for (fid, sids) in sidsOfFeed.sorted(by: { $0.key < $1.key }) {
                let source = catalog.feed(fid: fid)
                let from = instant(at, in: source)
                try checkRange(source, from: from, to: from + windowSeconds)
                let finder = DepartureFinder(
                    kind: kind, feed: source, calendar: calendar, dayStarts: boardCaches.dayStarts, templates: boardCaches.templates,
                    patterns: patterns, entities: entities, db: db, bundle: self)
                let found = try finder.candidates(at: sids, from: from, to: from + windowSeconds, limit: limit)
                all += found.map { ($0, source) }
            }
            // Within a feed the finder's order holds; feeds are merged by instant, then feed id.
            if sidsOfFeed.count > 1 {
                all.sort {
                    $0.candidate.instant != $1.candidate.instant
                        ? $0.candidate.instant < $1.candidate.instant : $0.feed.feedID.utf8.lexicographicallyPrecedes($1.feed.feedID.utf8)
                }
            }
            return try all.prefix(limit).map { try departure($0.candidate, feed: $0.feed, db: db) }
        }
    }

    /// The instant a board at `stop` starting at `time` starts: a local time read in the
    /// stop's feed time zone (for live boards, which widen the window around it).
    package func windowStart(_ time: QueryTime, stop: String, feed: String?) throws -> Date {
        if case .instant(let date) = time { return date }
        return try pool.with { db in
            let source = try resolve(.stop, stop, feed: feed, db: db).feed
            return Date(timeIntervalSince1970: TimeInterval(instant(time, in: source)))
        }
    }

    /// The instant of `time` in `feed`'s time zone (the bundle's first feed when nil): for a
    /// moment given once for several boards, such as the live data's `now` (a local time in a
    /// clock change's gap or overlap read as the boards read it).
    ///
    /// ```swift
    /// let now = try bundle.instant(of: try QueryTime.parse("2026-03-29T02:30"))
    /// ```
    public func instant(of time: QueryTime, feed: String? = nil) throws -> Date {
        Date(timeIntervalSince1970: TimeInterval(instant(time, in: try feedNamed(feed))))
    }

    /// The clock of `feed` (the bundle's first feed when nil): local days and wall-clock times.
    package func clock(feed: String?) throws -> FeedClock { try feedNamed(feed).clock }

    private func feedNamed(_ feed: String?) throws -> FeedCatalog.Feed {
        guard let feed else {
            guard let first = catalog.feeds.first else { throw TransitError.corruptBundle(reason: "the bundle has no feed") }
            return first
        }
        return try catalog.feed(named: feed)
    }

    func instant(_ time: QueryTime, in feed: FeedCatalog.Feed) -> Int {
        switch time {
        case .instant(let date): return Int(date.timeIntervalSince1970.rounded(.down))
        case .local(let day, let seconds): return feed.clock.instant(localDay: day.civil, secondsOfDay: seconds)
        }
    }

    /// Refuses windows that no service day of the feed can reach.
    func checkRange(_ feed: FeedCatalog.Feed, from: Int, to: Int) throws {
        guard let first = feed.firstDate, let last = feed.lastDate else { return }
        let earlierDays = (feed.maxTimeSecs + 86_399) / 86_400
        let startDay = feed.clock.localDay(of: from)
        let endDay = feed.clock.localDay(of: max(from, to - 1))
        if endDay < first.adding(days: -1) || startDay > last.adding(days: earlierDays) {
            throw TransitError.dateOutOfRange(startDay.iso, feed: feed.feedID, first: first.iso, last: last.iso)
        }
    }

    func departure(_ c: DepartureFinder.Candidate, feed: FeedCatalog.Feed, db: SQLiteDatabase) throws -> Departure {
        let stop = try entities.stop(c.sid, db: db)
        let trip = c.trip
        let tripID = try patterns.trip(trip.tid, db: db).tripID
        let route = try entities.route(trip.rid, db: db)
        let headsign: String
        if let hid = c.stopHeadsign ?? trip.hid {
            headsign = try entities.headsign(hid, db: db)
        } else {
            headsign = try entities.stop(c.pattern.stops.last?.sid ?? c.sid, db: db).name
        }
        let place = c.pattern.stops[c.idx]
        let dayStart = c.instant - c.departureSecs
        let arrivalInstant = dayStart + c.tripStartSecs + place.arrivalOffset
        let departureInstant = dayStart + c.tripStartSecs + place.departureOffset
        let departureLocal = feed.clock.local(departureInstant)
        // Most stops have no dwell: one wall-clock conversion serves both times.
        let arrivalLocal = arrivalInstant == departureInstant ? departureLocal : feed.clock.local(arrivalInstant)
        return Departure(
            feedID: feed.feedID, stopID: stop.stopID, stopName: stop.name, platformCode: stop.platformCode,
            tripID: tripID, routeID: route.routeID, routeShortName: route.shortName,
            routeLongName: route.longName, routeType: route.routeType, routeColor: route.color,
            routeTextColor: route.textColor, headsign: headsign, serviceDate: ServiceDate(c.serviceDay),
            departureSecs: c.tripStartSecs + place.departureOffset, departureLocal: departureLocal,
            pickupType: PickupDropOffType(rawValue: place.pickupType),
            frequencyBased: c.frequencyBased, wheelchairAccessible: Accessibility(rawValue: trip.wheelchairAccessible),
            stopSequence: place.stopSequence,
            arrivalLocal: arrivalLocal,
            dropOffType: PickupDropOffType(rawValue: place.dropOffType), timepoint: place.isTimepoint,
            directionID: trip.directionID,
            tripShortName: try tripShortName(trip.tid, db: db), agencyID: route.agencyID, agencyName: route.agencyName,
            bikesAllowed: Accessibility(rawValue: trip.bikesAllowed),
            tripStartLocal: trip.frequency ? feed.clock.local(dayStart + c.tripStartSecs) : nil,
            stopsRemaining: c.pattern.stops.count - c.idx - 1, timeZoneIdentifier: feed.clock.timeZoneIdentifier)
    }

    private func tripShortName(_ tid: Int, db: SQLiteDatabase) throws -> String? {
        guard hasTripNames else { return nil }
        return try boardCaches.tripNames.value(tid) {
            let q = try db.cached("SELECT short_name FROM trip_names WHERE tid = ?1")
            q.bind([tid])
            return try q.step() ? q.string(0) : nil
        }
    }
}
