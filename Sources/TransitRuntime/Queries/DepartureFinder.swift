import BundleFormat
import TransitSQLite

/// Computes departures from a set of stops in a half-open window of instants,
/// following `departures-semantics.md`:
/// - every service day whose trips can reach the window is visited: the days of
///   the window and as many earlier days as the feed's largest time requires;
/// - a day's GTFS times count from `noon - 12 h` of that day in the feed's timezone;
/// - a trip runs when its service is active on that day;
/// - the last stop of a trip and stops with pickup_type 1 are not departures;
/// - frequency templates start at start_time + k * headway, strictly before end_time; a start
///   instant that two windows of one trip both produce counts once.
struct DepartureFinder {
    /// Which calls a board lists: departures (boarding allowed, not the last stop) at their
    /// departure time, or arrivals (alighting allowed, not the first stop) at their arrival.
    enum Kind {
        case departures, arrivals
    }

    /// One departure (or arrival) before its text fields are read.
    struct Candidate {
        var instant: Int
        var sid: Int
        var trip: PatternTripRecord
        var pattern: PatternCache.Pattern
        /// The stop's index in the pattern.
        var idx: Int
        /// The trip's start (its first departure), GTFS seconds of `serviceDay`.
        var tripStartSecs: Int
        var stopHeadsign: Int?
        var pickupType: Int
        var serviceDay: CivilDate
        var departureSecs: Int
        var frequencyBased: Bool
    }

    /// A frequency template's window at one stop (fixed per stop, so cached).
    struct TemplateAtStop: Sendable {
        var pattern: PatternCache.Pattern, idx: Int, trip: PatternTripRecord
        var offset: Int, pickupType: Int, stopHeadsign: Int?
        var start: Int, end: Int, headway: Int, exactTimes: Bool
        /// Earlier windows of the same trip that overlap this one: (start, end, headway).
        var earlier: [(start: Int, end: Int, headway: Int)] = []

        /// True when an earlier overlapping window of the trip also starts at `tripStart`.
        func startsEarlier(_ tripStart: Int) -> Bool {
            earlier.contains { tripStart >= $0.start && tripStart < $0.end && (tripStart - $0.start) % $0.headway == 0 }
        }
    }

    let kind: Kind
    let feed: FeedCatalog.Feed
    let calendar: ServiceCalendar
    let dayStarts: LockedCache<Int, Int>
    let templates: LockedCache<Int, [TemplateAtStop]>
    let patterns: PatternCache
    let entities: EntityCache
    let db: SQLiteDatabase
    /// The bundle, for the tables it may lack (`FrequencyTable`).
    let bundle: TransitBundle

    /// Candidates at `sids` with instants in [from, to), sorted by instant, stop_id, trip_id;
    /// at most `limit`.
    func candidates(at sids: [Int], from: Int, to: Int, limit: Int) throws -> [Candidate] {
        let clock = feed.clock
        let earlierDays = (feed.maxTimeSecs + 86_399) / 86_400
        let firstDay = clock.localDay(of: from).adding(days: -earlierDays)
        let lastDay = clock.localDay(of: to).adding(days: 1)
        var found: [Candidate] = []
        var day = firstDay
        while day <= lastDay {
            defer { day = day.adding(days: 1) }
            let start = feed.serviceDayStart(day, cachedIn: dayStarts)
            let low = from - start
            let high = to - start
            if high <= 0 || low > feed.maxTimeSecs { continue }
            let active = try calendar.active(on: day, db: db)
            for sid in sids {
                try regular(sid: sid, day: day, dayStart: start, low: low, high: high, active: active, into: &found)
                if feed.hasFrequencies {
                    try frequencies(sid: sid, day: day, dayStart: start, low: low, high: high, active: active, into: &found)
                }
            }
        }
        found.sort { ($0.instant, $0.sid, $0.trip.tid) < ($1.instant, $1.sid, $1.trip.tid) }
        try orderTiesByText(&found, upTo: limit)
        return Array(found.prefix(limit))
    }

    /// Stop ids follow the map and trip ids the text unless `--base` kept older ids, so
    /// departures at the same instant are put in stop_id, trip_id order by their text (only
    /// where the limit can cut them).
    private func orderTiesByText(_ found: inout [Candidate], upTo limit: Int) throws {
        var start = 0
        while start < min(limit, found.count) {
            var end = start + 1
            while end < found.count && found[end].instant == found[start].instant { end += 1 }
            if end - start > 1 {
                let keyed = try found[start..<end].map { c in
                    (c, Array(try entities.stop(c.sid, db: db).stopID.utf8), Array(try patterns.trip(c.trip.tid, db: db).tripID.utf8))
                }
                let sorted = keyed.sorted {
                    $0.1 != $1.1 ? $0.1.lexicographicallyPrecedes($1.1) : $0.2.lexicographicallyPrecedes($1.2)
                }
                found.replaceSubrange(start..<end, with: sorted.map(\.0))
            }
            start = end
        }
    }

    /// The pattern stops at `sid` this board lists.
    private func places(at sid: Int) throws -> [PatternCache.Place] {
        kind == .departures ? try patterns.departingStops(at: sid, db: db) : try patterns.arrivingStops(at: sid, db: db)
    }

    private func regular(
        sid: Int, day: CivilDate, dayStart: Int, low: Int, high: Int,
        active: ServiceCalendar.ActiveSet, into found: inout [Candidate]
    ) throws {
        for departing in try places(at: sid) {
            let p = departing.pattern
            let stop = departing.stop
            let offset = kind == .departures ? stop.departureOffset : stop.arrivalOffset
            var i = p.firstRegular(startingAtOrAfter: low - offset)
            while i < p.regular.count && p.regular[i].startTime < high - offset {
                let trip = p.regular[i]
                if active.contains(trip.sv) {
                    let secs = trip.startTime + offset
                    found.append(
                        Candidate(
                            instant: dayStart + secs, sid: sid, trip: trip, pattern: p, idx: departing.idx, tripStartSecs: trip.startTime,
                            stopHeadsign: stop.hid, pickupType: stop.pickupType, serviceDay: day, departureSecs: secs, frequencyBased: false
                        ))
                }
                i += 1
            }
        }
    }

    private func frequencies(
        sid: Int, day: CivilDate, dayStart: Int, low: Int, high: Int,
        active: ServiceCalendar.ActiveSet, into found: inout [Candidate]
    ) throws {
        let windows = try templates.value(kind == .departures ? sid << 1 : sid << 1 | 1) {
            var rows: [TemplateAtStop] = []
            for departing in try places(at: sid) {
                for trip in departing.pattern.templates {
                    let first = rows.count
                    for window in try FrequencyTable.windows(of: trip.tid, db: db, in: bundle) {
                        var row = TemplateAtStop(
                            pattern: departing.pattern, idx: departing.idx, trip: trip,
                            offset: kind == .departures ? departing.stop.departureOffset : departing.stop.arrivalOffset,
                            pickupType: departing.stop.pickupType, stopHeadsign: departing.stop.hid, start: window.startSecs,
                            end: window.endSecs, headway: window.headwaySecs, exactTimes: window.exactTimes)
                        row.earlier = rows[first...].filter { $0.end > row.start }.map { ($0.start, $0.end, $0.headway) }
                        rows.append(row)
                    }
                }
            }
            return rows
        }
        for w in windows where active.contains(w.trip.sv) {
            // First k with start + k*headway + offset >= low.
            let need = low - w.offset - w.start
            var tripStart = w.start + (need > 0 ? (need + w.headway - 1) / w.headway : 0) * w.headway
            while tripStart < w.end && tripStart + w.offset < high {
                defer { tripStart += w.headway }
                if !w.earlier.isEmpty && w.startsEarlier(tripStart) { continue }
                let secs = tripStart + w.offset
                found.append(
                    Candidate(
                        instant: dayStart + secs, sid: sid, trip: w.trip, pattern: w.pattern, idx: w.idx, tripStartSecs: tripStart,
                        stopHeadsign: w.stopHeadsign, pickupType: w.pickupType, serviceDay: day, departureSecs: secs,
                        frequencyBased: !w.exactTimes))
            }
        }
    }
}
