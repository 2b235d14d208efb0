import BundleFormat

/// Computes departures from a set of stops in a half-open window of instants,
/// following `departures-semantics.md`:
/// - every service day whose trips can reach the window is visited: the days of
///   the window and as many earlier days as the feed's largest time requires;
/// - a day's GTFS times count from `noon - 12 h` of that day in the feed's timezone;
/// - a trip runs when its service is active on that day;
/// - the last stop of a trip and stops with pickup_type 1 are not departures;
/// - frequency templates start at start_time + k * headway, strictly before end_time.
struct DepartureFinder {
    /// One departure before its text fields are read.
    struct Candidate {
        var instant: Int
        var sid: Int
        var tid: Int
        var pid: Int
        var stopHeadsign: Int?
        var pickupType: Int
        var serviceDay: CivilDate
        var departureSecs: Int
        var frequencyBased: Bool
    }

    /// A frequency template's window at one stop (fixed per stop, so cached).
    struct TemplateAtStop: Sendable {
        var pid: Int, offset: Int, pickupType: Int, stopHeadsign: Int?, tid: Int, sv: Int
        var start: Int, end: Int, headway: Int, exactTimes: Bool
    }

    let feed: FeedCatalog.Feed
    let calendar: ServiceCalendar
    let dayStarts: LockedCache<Int, Int>
    let templates: LockedCache<Int, [TemplateAtStop]>
    let entities: EntityCache
    let db: SQLiteDatabase

    /// Candidates at `sids` with instants in [from, to), sorted by instant, stop, trip; at most `limit`.
    func candidates(at sids: [Int], from: Int, to: Int, limit: Int) throws -> [Candidate] {
        let clock = feed.clock
        let earlierDays = (feed.maxTimeSecs + 86_399) / 86_400
        let firstDay = clock.localDay(of: from).adding(days: -earlierDays)
        let lastDay = clock.localDay(of: to).adding(days: 1)
        var found: [Candidate] = []
        var day = firstDay
        while day <= lastDay {
            defer { day = day.adding(days: 1) }
            let start = dayStarts.value(feed.fid << 32 | (day.dayNumber & 0xFFFF_FFFF)) { clock.serviceDayStart(day) }
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
        found.sort { ($0.instant, $0.sid, $0.tid) < ($1.instant, $1.sid, $1.tid) }
        return Array(found.prefix(limit))
    }

    private func regular(
        sid: Int, day: CivilDate, dayStart: Int, low: Int, high: Int,
        active: ServiceCalendar.ActiveSet, into found: inout [Candidate]
    ) throws {
        for stop in try entities.departingStops(at: sid, db: db) {
            let trips = try entities.trips(ofPattern: stop.pid, db: db)
            var i = trips.lowerBound(low - stop.departureOffset)
            while i < trips.starts.count && Int(trips.starts[i]) < high - stop.departureOffset {
                if active.contains(Int(trips.services[i])) {
                    let secs = Int(trips.starts[i]) + stop.departureOffset
                    found.append(
                        Candidate(
                            instant: dayStart + secs, sid: sid, tid: Int(trips.tids[i]), pid: stop.pid,
                            stopHeadsign: stop.stopHeadsign, pickupType: stop.pickupType, serviceDay: day,
                            departureSecs: secs, frequencyBased: false))
                }
                i += 1
            }
        }
    }

    private func frequencies(
        sid: Int, day: CivilDate, dayStart: Int, low: Int, high: Int,
        active: ServiceCalendar.ActiveSet, into found: inout [Candidate]
    ) throws {
        let windows = try templates.value(sid) {
            let q = try db.cached(
                """
                SELECT ps.pid, ps.departure_offset_secs, ps.pickup_type, ps.hid, t.tid, t.sv,
                       f.start_time_secs, f.end_time_secs, f.headway_secs, f.exact_times
                FROM pattern_stops ps
                JOIN patterns p ON p.pid = ps.pid
                JOIN trips t ON t.pid = ps.pid AND t.frequency = 1
                JOIN frequencies f ON f.tid = t.tid
                WHERE ps.sid = ?1 AND \(BundleSQL.patternStopIsDeparture)
                """)
            q.bind([sid])
            var rows: [TemplateAtStop] = []
            while try q.step() {
                rows.append(
                    TemplateAtStop(
                        pid: q.int(0), offset: q.int(1), pickupType: q.int(2), stopHeadsign: q.optionalInt(3),
                        tid: q.int(4), sv: q.int(5), start: q.int(6), end: q.int(7), headway: q.int(8),
                        exactTimes: q.int(9) != 0))
            }
            return rows
        }
        for w in windows where active.contains(w.sv) {
            // First k with start + k*headway + offset >= low.
            let need = low - w.offset - w.start
            var tripStart = w.start + (need > 0 ? (need + w.headway - 1) / w.headway : 0) * w.headway
            while tripStart < w.end && tripStart + w.offset < high {
                let secs = tripStart + w.offset
                found.append(
                    Candidate(
                        instant: dayStart + secs, sid: sid, tid: w.tid, pid: w.pid, stopHeadsign: w.stopHeadsign,
                        pickupType: w.pickupType, serviceDay: day, departureSecs: secs, frequencyBased: !w.exactTimes))
                tripStart += w.headway
            }
        }
    }
}
