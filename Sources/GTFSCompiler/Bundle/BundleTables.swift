import BundleFormat

/// Inserts the transit rows of a model, table by table, with prepared statements that
/// name their columns (all but the patterns, which `insertPatterns` writes).
enum BundleTables {
    static func insert(_ m: BundleModel, into db: SQLiteDatabase) throws {
        let meta = try db.prepareInsert(into: "metadata", columns: ["key", "value"])
        for (key, value) in [
            ("generator", "gtfs-compile"), ("compiler_version", ToolkitVersion.current),
            ("schema_version", String(BundleSchema.version)),
            ("stop_times", String(m.stopTimeCount)), ("stops", String(m.stops.count)),
            ("routes", String(m.routes.count)), ("trips", String(m.trips.count)),
            ("patterns", String(m.patterns.count)), ("cities", String(m.cityCount)), ("bundle_id", m.bundleID),
        ] {
            try meta.run(key, value)
        }
        if let label = m.label { try meta.run("label", label) }
        let feed = try db.prepareInsert(
            into: "feeds",
            columns: [
                "fid", "feed_id", "timezone", "feed_version", "publisher_name", "first_service_date", "last_service_date",
                "last_trip_date", "max_time_secs", "has_frequencies", "sha256",
            ])
        for f in m.feeds {
            try feed.run(
                f.fid, f.feedID, f.timezone, f.version, f.publisher, f.firstDate, f.lastDate, f.lastTripDate, f.maxTimeSecs,
                f.hasFrequencies, f.sha256)
        }
        let agency = try db.prepareInsert(
            into: "agencies", columns: ["aid", "fid", "agency_id", "name", "url", "timezone", "lang", "phone"])
        for a in m.agencies {
            let r = a.record
            try agency.run(a.aid, a.fid, r.agencyID, r.name, r.url, r.timezone, r.lang, r.phone)
        }
        try insertStops(m, db)
        let dictRoute = try db.prepareInsert(into: "dict_route", columns: ["fid", "route_id", "rid"])
        let route = try db.prepareInsert(
            into: "routes", columns: ["rid", "fid", "aid", "short_name", "long_name", "route_type", "color", "text_color"])
        for r in m.routes {
            try dictRoute.run(r.fid, r.routeID, r.rid)
            try route.run(
                r.rid, r.fid, r.aid, r.record.shortName, r.record.longName, r.record.routeType, r.record.color, r.record.textColor)
        }
        let headsign = try db.prepareInsert(into: "headsigns", columns: ["hid", "text"])
        for h in m.headsigns { try headsign.run(h.hid, h.text) }
        try insertServices(m, db)
        try insertFrequencies(m, db)
    }

    private static func insertStops(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let dict = try db.prepareInsert(into: "dict_stop", columns: ["fid", "stop_id", "sid"])
        let stop = try db.prepareInsert(
            into: "stops",
            columns: ["sid", "fid", "name", "code", "lat", "lon", "location_type", "parent_sid", "platform_code", "wheelchair_boarding"])
        for s in m.stops {
            let r = s.record
            try dict.run(s.fid, s.stopID, s.sid)
            try stop.run(s.sid, s.fid, r.name, r.code, r.lat, r.lon, r.locationType, s.parentSid, r.platformCode, r.wheelchairBoarding)
        }
        // The search indexes, by the SQL a patch applier rebuilds them with.
        for index in DerivedTables.derived(from: "stops") { try DerivedTables.rebuild(index, in: db) }
    }

    private static func insertServices(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let dict = try db.prepareInsert(into: "dict_service", columns: ["fid", "service_id", "sv"])
        for s in m.services { try dict.run(s.fid, s.serviceID, s.sv) }
        let calendar = try db.prepareInsert(into: "calendar", columns: ["sv", "days", "start_date", "end_date"])
        for c in m.calendar { try calendar.run(c.sv, c.record.days, c.record.startDate, c.record.endDate) }
        // Each service's exceptions as two date sets (added, removed), packed.
        var added: [Int: [Int]] = [:]
        var removed: [Int: [Int]] = [:]
        for d in m.calendarDates {
            guard let day = CivilDate(yyyymmdd: d.date)?.dayNumber else { continue }
            if d.exceptionType == 1 { added[d.sv, default: []].append(day) } else { removed[d.sv, default: []].append(day) }
        }
        let dates = try db.prepareInsert(into: "service_dates", columns: ["sv", "added", "removed"])
        for sv in Set(added.keys).union(removed.keys).sorted() {
            try dates.run(sv, DateSetBlob.encode(added[sv] ?? []), DateSetBlob.encode(removed[sv] ?? []))
        }
    }

    /// The `patterns`, `stop_patterns` and `trip_blocks` rows, packed (see `schemas/bundle.sql`);
    /// `BundleWriter` writes them on a second connection.
    static func insertPatterns(_ m: BundleModel, into db: SQLiteDatabase) throws {
        var tripsOfPattern: [Int: [PatternTripRecord]] = [:]
        for t in m.trips {
            tripsOfPattern[t.pid, default: []].append(
                PatternTripRecord(
                    tid: t.tid, startTime: t.startTimeSecs, sv: t.sv, rid: t.rid, hid: t.hid, directionID: t.directionID,
                    wheelchairAccessible: t.wheelchairAccessible, frequency: t.frequency))
        }
        var occurrences: [Int: [StopPatternsBlob.Occurrence]] = [:]
        let pattern = try db.prepareInsert(into: "patterns", columns: ["pid", "fid", "stops", "trips"])
        for p in m.patterns {
            let stops = p.stops.map(\.record)
            for (idx, s) in stops.enumerated() { occurrences[s.sid, default: []].append(.init(pid: p.pid, idx: idx)) }
            let trips = PatternTripsBlob.encode(tripsOfPattern[p.pid] ?? [])
            try pattern.run(p.pid, p.fid, PatternStopsBlob.encode(stops), trips)
        }
        let stopPatterns = try db.prepareInsert(into: "stop_patterns", columns: ["sid", "entries"])
        for (sid, list) in occurrences.sorted(by: { $0.key < $1.key }) { try stopPatterns.run(sid, StopPatternsBlob.encode(list)) }
        try insertTripBlocks(m, db)
    }

    /// Trip text ids by tid in `trip_blocks`, and each feed's trips in text order in `trip_ids`.
    private static func insertTripBlocks(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let block = try db.prepareInsert(into: "trip_blocks", columns: ["first_tid", "entries"])
        let byTid = m.trips.sorted { $0.tid < $1.tid }
        var start = 0
        while start < byTid.count {
            let first = TripBlock.firstTid(holding: byTid[start].tid)
            var entries: [TripBlock.Entry?] = []
            var i = start
            while i < byTid.count && byTid[i].tid < first + TripBlock.capacity {
                while first + entries.count < byTid[i].tid { entries.append(nil) }
                entries.append(TripBlock.Entry(tripID: byTid[i].tripID, pid: byTid[i].pid))
                i += 1
            }
            try block.run(first, TripBlock.encode(entries))
            start = i
        }
        let group = try db.prepareInsert(into: "trip_ids", columns: ["fid", "first_trip_id", "tids"])
        for feed in m.feeds {
            // The model keeps each feed's trips in byte order of their ids (with or without --base).
            let trips = m.trips.filter { $0.fid == feed.fid }
            var members: [BundleModel.Trip] = []
            for trip in trips {
                if TripIDGroup.startsGroup(at: trip.tripID, count: members.count), let first = members.first {
                    try group.run(feed.fid, first.tripID, TripIDGroup.encode(members.map(\.tid)))
                    members = []
                }
                members.append(trip)
            }
            if let first = members.first { try group.run(feed.fid, first.tripID, TripIDGroup.encode(members.map(\.tid))) }
        }
    }

    private static func insertFrequencies(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let frequency = try db.prepareInsert(
            into: "frequencies", columns: ["tid", "start_time_secs", "end_time_secs", "headway_secs", "exact_times"])
        for f in m.frequencies { try frequency.run(f.tid, f.start, f.end, f.headway, f.exactTimes) }
    }
}
