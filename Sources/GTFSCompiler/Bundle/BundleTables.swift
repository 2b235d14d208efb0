import TransitStore

/// Inserts the transit rows of a model, table by table, with prepared statements
/// (all but the patterns, which `insertPatterns` writes).
enum BundleTables {
    static func insert(_ m: BundleModel, into db: SQLiteDatabase) throws {
        let meta = try db.prepare("INSERT INTO metadata (key, value) VALUES (?, ?)")
        for (key, value) in [
            ("generator", "gtfs-compile"), ("compiler_version", ToolkitVersion.current),
            ("schema_version", String(BundleSchema.version)),
            ("stop_times", String(m.stopTimeCount)), ("stops", String(m.stops.count)),
            ("routes", String(m.routes.count)), ("trips", String(m.trips.count)),
            ("patterns", String(m.patterns.count)), ("cities", String(m.cityCount)),
        ] {
            meta.bind(1, key)
            meta.bind(2, value)
            try meta.run()
        }
        let feed = try db.prepare("INSERT INTO feeds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for f in m.feeds {
            feed.bind(1, f.fid)
            feed.bind(2, f.feedID)
            feed.bind(3, f.timezone)
            feed.bind(4, f.version)
            feed.bind(5, f.publisher)
            feed.bind(6, f.firstDate)
            feed.bind(7, f.lastDate)
            feed.bind(8, f.maxTimeSecs)
            feed.bind(9, f.hasFrequencies ? 1 : 0)
            feed.bind(10, f.sha256)
            try feed.run()
        }
        let agency = try db.prepare("INSERT INTO agencies VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for a in m.agencies {
            agency.bind(1, a.aid)
            agency.bind(2, a.fid)
            agency.bind(3, a.record.agencyID)
            agency.bind(4, a.record.name)
            agency.bind(5, a.record.url)
            agency.bind(6, a.record.timezone)
            agency.bind(7, a.record.lang)
            agency.bind(8, a.record.phone)
            try agency.run()
        }
        try insertStops(m, db)
        let dictRoute = try db.prepare("INSERT INTO dict_route VALUES (?, ?, ?)")
        let route = try db.prepare("INSERT INTO routes VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for r in m.routes {
            dictRoute.bind(1, r.fid)
            dictRoute.bind(2, r.routeID)
            dictRoute.bind(3, r.rid)
            try dictRoute.run()
            route.bind(1, r.rid)
            route.bind(2, r.fid)
            route.bind(3, r.aid)
            route.bind(4, r.record.shortName)
            route.bind(5, r.record.longName)
            route.bind(6, r.record.routeType)
            route.bind(7, r.record.color)
            route.bind(8, r.record.textColor)
            try route.run()
        }
        let headsign = try db.prepare("INSERT INTO headsigns VALUES (?, ?)")
        for (i, text) in m.headsigns.enumerated() {
            headsign.bind(1, i + 1)
            headsign.bind(2, text)
            try headsign.run()
        }
        try insertServices(m, db)
        try insertTrips(m, db)
    }

    private static func insertStops(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let dict = try db.prepare("INSERT INTO dict_stop VALUES (?, ?, ?)")
        let stop = try db.prepare("INSERT INTO stops VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let fts = try db.prepare("INSERT INTO stops_fts (rowid, name) VALUES (?, ?)")
        let rtree = try db.prepare("INSERT INTO stops_rtree VALUES (?, ?, ?, ?, ?)")
        for s in m.stops {
            dict.bind(1, s.fid)
            dict.bind(2, s.stopID)
            dict.bind(3, s.sid)
            try dict.run()
            let r = s.record
            stop.bind(1, s.sid)
            stop.bind(2, s.fid)
            stop.bind(3, r.name)
            stop.bind(4, r.code)
            stop.bind(5, r.lat)
            stop.bind(6, r.lon)
            stop.bind(7, r.locationType)
            stop.bind(8, s.parentSid)
            stop.bind(9, r.platformCode)
            stop.bind(10, r.wheelchairBoarding)
            try stop.run()
            if !r.name.isEmpty {
                fts.bind(1, s.sid)
                fts.bind(2, r.name)
                try fts.run()
            }
            if let lat = r.lat, let lon = r.lon {
                rtree.bind(1, s.sid)
                rtree.bind(2, lat)
                rtree.bind(3, lat)
                rtree.bind(4, lon)
                rtree.bind(5, lon)
                try rtree.run()
            }
        }
    }

    private static func insertServices(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let dict = try db.prepare("INSERT INTO dict_service VALUES (?, ?, ?)")
        for s in m.services {
            dict.bind(1, s.fid)
            dict.bind(2, s.serviceID)
            dict.bind(3, s.sv)
            try dict.run()
        }
        let calendar = try db.prepare("INSERT INTO calendar VALUES (?, ?, ?, ?)")
        for c in m.calendar {
            calendar.bind(1, c.sv)
            calendar.bind(2, c.record.days)
            calendar.bind(3, c.record.startDate)
            calendar.bind(4, c.record.endDate)
            try calendar.run()
        }
        let dates = try db.prepare("INSERT INTO calendar_dates VALUES (?, ?, ?)")
        for d in m.calendarDates.sorted(by: { ($0.date, $0.sv) < ($1.date, $1.sv) }) {
            dates.bind(1, d.date)
            dates.bind(2, d.sv)
            dates.bind(3, d.exceptionType)
            try dates.run()
        }
    }

    /// The `patterns` and `pattern_stops` rows; `BundleWriter` writes them on a second connection.
    static func insertPatterns(_ m: BundleModel, into db: SQLiteDatabase) throws {
        let pattern = try db.prepare("INSERT INTO patterns VALUES (?, ?, ?)")
        let stop = try db.prepare("INSERT INTO pattern_stops VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for p in m.patterns {
            pattern.bind(1, p.pid)
            pattern.bind(2, p.fid)
            pattern.bind(3, p.stops.count)
            try pattern.run()
            for (idx, s) in p.stops.enumerated() {
                stop.bind(1, p.pid)
                stop.bind(2, idx)
                stop.bind(3, Int(s.stopSequence))
                stop.bind(4, Int(s.sid))
                stop.bind(5, s.arrivalOffset == s.departureOffset ? nil : Int(s.arrivalOffset))
                stop.bind(6, Int(s.departureOffset))
                stop.bind(7, Int(s.pickupType))
                stop.bind(8, Int(s.dropOffType))
                stop.bind(9, s.hid >= 0 ? Int(s.hid) : nil)
                stop.bind(10, s.interpolated ? 1 : 0)
                try stop.run()
            }
        }
    }

    private static func insertTrips(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let dict = try db.prepare("INSERT INTO dict_trip VALUES (?, ?, ?)")
        let trip = try db.prepare("INSERT INTO trips VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for t in m.trips {
            dict.bind(1, t.fid)
            dict.bind(2, t.tripID)
            dict.bind(3, t.tid)
            try dict.run()
            trip.bind(1, t.tid)
            trip.bind(2, t.pid)
            trip.bind(3, t.rid)
            trip.bind(4, t.sv)
            trip.bind(5, t.startTimeSecs)
            trip.bind(6, t.hid)
            trip.bind(7, t.directionID)
            trip.bind(8, t.wheelchairAccessible)
            trip.bind(9, t.frequency ? 1 : 0)
            try trip.run()
        }
        let frequency = try db.prepare("INSERT INTO frequencies VALUES (?, ?, ?, ?, ?)")
        for f in m.frequencies {
            frequency.bind(1, f.tid)
            frequency.bind(2, f.start)
            frequency.bind(3, f.end)
            frequency.bind(4, f.headway)
            frequency.bind(5, f.exactTimes)
            try frequency.run()
        }
    }
}
