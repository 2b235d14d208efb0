import BundleFormat

extension TransitBundle {
    /// A trip's stops in order with times on `date`. For a frequency-based trip the times
    /// are the template's, and `frequencies` lists its windows.
    ///
    /// ```swift
    /// let trip = try bundle.trip(id: "T1", date: ServiceDate("2026-03-28")!)
    /// trip.stopTimes.map(\.departureTime)
    /// ```
    /// - Throws: `TransitError.unknownTrip`, `.ambiguousTrip`, `.unknownFeed`, `.dateOutOfRange`.
    public func trip(id: String, feed: String? = nil, date: ServiceDate) throws -> TripDetails {
        try pool.with { db in
            let match = try resolve(.trip, id, feed: feed, db: db)
            let source = match.feed
            if let first = source.firstDate, let last = source.lastDate, date.civil < first || date.civil > last {
                throw TransitError.dateOutOfRange(date.description, feed: source.feedID, first: first.iso, last: last.iso)
            }
            let t = try db.cached("SELECT pid, rid, sv, start_time_secs, hid, frequency FROM trips WHERE tid = ?1")
            t.bind([match.id])
            guard try t.step() else { throw TransitError.unknownTrip(id) }
            let pid = t.int("pid")
            let rid = t.int("rid")
            let sv = t.int("sv")
            let start = t.int("start_time_secs")
            let tripHeadsign = t.optionalInt("hid")
            var windows: [TripDetails.FrequencyWindow] = []
            if t.int("frequency") != 0 {
                let f = try db.cached(
                    "SELECT start_time_secs, end_time_secs, headway_secs, exact_times FROM frequencies WHERE tid = ?1 ORDER BY start_time_secs"
                )
                f.bind([match.id])
                while try f.step() {
                    windows.append(.init(startSecs: f.int(0), endSecs: f.int(1), headwaySecs: f.int(2), exactTimes: f.int(3) != 0))
                }
            }
            let base = windows.first?.startSecs ?? start
            let dayStart = source.clock.serviceDayStart(date.civil)
            let ps = try db.cached(
                """
                SELECT stop_sequence, sid, arrival_offset_secs, departure_offset_secs, pickup_type, drop_off_type, interpolated
                FROM pattern_stops WHERE pid = ?1 ORDER BY idx
                """)
            ps.bind([pid])
            var rows: [(Int, Int, Int, Int, Int, Int, Bool)] = []
            while try ps.step() {
                let departure = ps.int(3)
                rows.append((ps.int(0), ps.int(1), ps.optionalInt(2) ?? departure, departure, ps.int(4), ps.int(5), ps.int(6) != 0))
            }
            let stopTimes = try rows.map { row -> TripDetails.StopTime in
                let stop = try entities.stop(row.1, db: db)
                let arrival = base + row.2
                let departure = base + row.3
                return .init(
                    stopID: stop.stopID, stopName: stop.name, stopSequence: row.0, arrivalSecs: arrival,
                    departureSecs: departure, arrivalLocal: source.clock.local(dayStart + arrival),
                    departureLocal: source.clock.local(dayStart + departure), pickupType: row.4, dropOffType: row.5,
                    interpolated: row.6)
            }
            let headsign = try tripHeadsign.map { try entities.headsign($0, db: db) } ?? stopTimes.last?.stopName ?? ""
            let active = try calendar.active(on: date.civil, db: db).contains(sv)
            return TripDetails(
                feedID: source.feedID, tripID: id, routeID: try entities.route(rid, db: db).routeID,
                serviceDate: date, headsign: headsign, runsOnDate: active, stopTimes: stopTimes,
                frequencies: windows)
        }
    }
}
