import BundleFormat
import TransitSQLite

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
                "fid", "feed_id", "timezone", "feed_version", "publisher_name", "publisher_url", "feed_lang", "default_lang",
                "contact_email", "contact_url", "first_service_date", "last_service_date", "last_trip_date", "max_time_secs",
                "has_frequencies", "sha256",
            ])
        for f in m.feeds {
            let i = f.info
            try feed.run(
                f.fid, f.feedID, f.timezone, f.version, i.publisherName, i.publisherURL, i.lang, i.defaultLang, i.contactEmail,
                i.contactURL, f.firstDate, f.lastDate, f.lastTripDate, f.maxTimeSecs, f.hasFrequencies, f.sha256)
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
        let transfer = try db.prepareInsert(into: "transfers", columns: ["from_sid", "to_sid", "transfer_type", "min_transfer_time"])
        for t in m.transfers.sorted(by: { ($0.fromSid, $0.toSid) < ($1.fromSid, $1.toSid) }) {
            try transfer.run(t.fromSid, t.toSid, t.type, t.minTime)
        }
        let currencies = FareCurrencies(m)
        try currencies.insert(db)
        try insertFaresAndAttributions(m, currencies, db)
        try FareProductTables.insert(m, currencies: currencies, db)
    }

    private static func insertFaresAndAttributions(_ m: BundleModel, _ currencies: FareCurrencies, _ db: SQLiteDatabase) throws {
        let level = try db.prepareInsert(into: "levels", columns: ["level", "fid", "level_id", "level_index", "level_name"])
        for l in m.levels { try level.run(l.level, l.fid, l.levelID, l.record.index, l.record.name) }
        let stopLevel = try db.prepareInsert(into: "stop_levels", columns: ["sid", "level"])
        for s in m.stopLevels.sorted(by: { $0.sid < $1.sid }) { try stopLevel.run(s.sid, s.level) }
        let pathway = try db.prepareInsert(
            into: "pathways",
            columns: ["pathway", "from_sid", "to_sid", "mode", "is_bidirectional", "traversal_time", "length_dm", "stair_count"])
        for (i, p) in m.pathways.enumerated() {
            let r = p.record
            try pathway.run(
                i + 1, p.fromSid, p.toSid, r.mode, r.isBidirectional, r.traversalTime, r.length.map { Int(($0 * 10).rounded()) },
                r.stairCount)
        }
        try FareClassTables.insert(m, currencies: currencies, db)
        let attribution = try db.prepareInsert(
            into: "attributions",
            columns: [
                "attribution", "fid", "organization_name", "is_producer", "is_operator", "is_authority", "aid", "rid", "trip_id", "url",
                "email",
                "phone",
            ])
        for (i, a) in m.attributions.enumerated() {
            let r = a.record
            try attribution.run(
                i + 1, a.fid, r.organization, r.isProducer, r.isOperator, r.isAuthority, a.aid, a.rid, r.tripID, r.url, r.email, r.phone)
        }
    }

    private static func insertStops(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let stop = try db.prepareInsert(
            into: "stops",
            columns: [
                "sid", "fid", "stop_id", "name", "code", "lat_e7", "lon_e7", "location_type", "parent_sid", "platform_code",
                "wheelchair_boarding",
            ])
        // In sid order (the table's key), so its pages fill as they are written: sids follow
        // the map, the model's order the text.
        for s in m.stops.sorted(by: { $0.sid < $1.sid }) {
            let r = s.record
            try stop.run(
                s.sid, s.fid, s.stopID, r.name, r.code, r.lat.map(StopGrid.e7), r.lon.map(StopGrid.e7), r.locationType, s.parentSid,
                r.platformCode, r.wheelchairBoarding)
        }
        // The model keeps each feed's stops in byte order of their ids.
        try insertIDGroups(
            into: "stop_ids", firstColumn: "first_stop_id", membersColumn: "sids", m.stops.map { ($0.fid, $0.stopID, $0.sid) }, db)
        let translation = try db.prepareInsert(into: "translations", columns: ["field", "record", "language", "translation"])
        for t in m.translations.sorted(by: { ($0.field, $0.record, $0.language) < ($1.field, $1.record, $1.language) }) {
            try translation.run(t.field, t.record, t.language, t.translation)
        }
        // The search index (names and their translations), by the SQL a patch applier
        // rebuilds it with.
        for index in DerivedTables.derived(from: "stops") { try DerivedTables.rebuild(index, in: db) }
    }

    /// Each feed's members, given in feed order and byte order of their text ids, as the
    /// `IDGroup` rows of `table`.
    private static func insertIDGroups(
        into table: String, firstColumn: String, membersColumn: String, _ members: [(fid: Int, text: String, id: Int)],
        _ db: SQLiteDatabase
    ) throws {
        let group = try db.prepareInsert(into: table, columns: ["fid", firstColumn, membersColumn])
        var start = 0
        for (i, member) in members.enumerated() {
            if i > start, member.fid != members[start].fid || IDGroup.startsGroup(at: member.text, count: i - start) {
                try group.run(members[start].fid, members[start].text, IDGroup.encode(members[start..<i].map(\.id)))
                start = i
            }
        }
        if start < members.count {
            try group.run(members[start].fid, members[start].text, IDGroup.encode(members[start...].map(\.id)))
        }
    }

    /// Entries by integer id in the blocks `firstID(id)` starts (`trip_blocks`,
    /// `service_blocks`): an id no entry has inside a block is a nil. By id, whatever order
    /// `items` come in (with --base, byte order of the text ids is not id order).
    private static func alignedBlocks<Entry>(_ items: [(id: Int, entry: Entry)], firstID: (Int) -> Int) -> [(first: Int, entries: [Entry?])]
    {
        var blocks: [(first: Int, entries: [Entry?])] = []
        for item in items.sorted(by: { $0.id < $1.id }) {
            let first = firstID(item.id)
            if blocks.last?.first != first { blocks.append((first, [])) }
            while first + blocks[blocks.count - 1].entries.count < item.id { blocks[blocks.count - 1].entries.append(nil) }
            blocks[blocks.count - 1].entries.append(item.entry)
        }
        return blocks
    }

    private static func insertServices(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let serviceBlock = try db.prepareInsert(into: "service_blocks", columns: ["first_sv", "entries"])
        let services = m.services.map { ($0.sv, ServiceBlock.Entry(serviceID: $0.serviceID, fid: $0.fid)) }
        for block in alignedBlocks(services, firstID: ServiceBlock.firstSv(holding:)) {
            try serviceBlock.run(block.first, ServiceBlock.encode(block.entries))
        }
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

    /// Each pattern's trips (by pid) as the `patterns` rows keep them, in their column's order.
    static func tripsOfPattern(_ m: BundleModel) -> [Int: [PatternTripRecord]] {
        var tripsOfPattern: [Int: [PatternTripRecord]] = [:]
        for t in m.trips {
            tripsOfPattern[t.pid, default: []].append(
                PatternTripRecord(
                    tid: t.tid, startTime: t.startTimeSecs, sv: t.sv, rid: t.rid, hid: t.hid, directionID: t.directionID,
                    wheelchairAccessible: t.wheelchairAccessible, frequency: t.frequency, shp: t.shp, bikesAllowed: t.bikesAllowed))
        }
        return tripsOfPattern.mapValues(PatternTripsBlob.canonicalOrder)
    }

    /// The `patterns`, `stop_patterns`, `route_patterns`, `shapes`, `shape_edges` and `trip_blocks` rows, packed (see `schemas/bundle.sql`);
    /// `BundleWriter` writes them on a second connection.
    static func insertPatterns(_ m: BundleModel, tripsOfPattern: [Int: [PatternTripRecord]], into db: SQLiteDatabase) throws {
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
        var patternsOfRoute: [Int: [Int]] = [:]
        for t in m.trips { patternsOfRoute[t.rid, default: []].append(t.pid) }
        let routePatterns = try db.prepareInsert(into: "route_patterns", columns: ["rid", "pids"])
        for (rid, pids) in patternsOfRoute.sorted(by: { $0.key < $1.key }) { try routePatterns.run(rid, IDListBlob.encode(pids)) }
        let shape = try db.prepareInsert(into: "shapes", columns: ["shp", "fid", "shape_id", "edges"])
        for s in m.shapes { try shape.run(s.shp, s.fid, s.shapeID, ShapeEdgesBlob.encode(s.edges)) }
        let edges = try db.prepareInsert(into: "shape_edges", columns: ["first_eid", "points"])
        for first in stride(from: 0, to: m.shapeEdges.count, by: ShapeBlob.edgesPerRow) {
            let row = m.shapeEdges[first..<min(m.shapeEdges.count, first + ShapeBlob.edgesPerRow)]
            try edges.run(first + 1, ShapeBlob.encodeRow(Array(row)))
        }
        try insertTripBlocks(m, db)
        let names = try db.prepareInsert(into: "trip_names", columns: ["tid", "short_name"])
        // Only trips with a train number are sorted (most feeds have none).
        for t in m.trips.filter({ $0.shortName != nil }).sorted(by: { $0.tid < $1.tid }) { try names.run(t.tid, t.shortName) }
    }

    /// Trip text ids by tid in `trip_blocks`, and each feed's trips in text order in `trip_ids`.
    private static func insertTripBlocks(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let block = try db.prepareInsert(into: "trip_blocks", columns: ["first_tid", "entries"])
        let trips = m.trips.map { ($0.tid, TripBlock.Entry(tripID: $0.tripID, pid: $0.pid)) }
        for b in alignedBlocks(trips, firstID: TripBlock.firstTid(holding:)) {
            try block.run(b.first, TripBlock.encode(b.entries))
        }
        // The model keeps each feed's trips in byte order of their ids (with or without --base).
        try insertIDGroups(
            into: "trip_ids", firstColumn: "first_trip_id", membersColumn: "tids", m.trips.map { ($0.fid, $0.tripID, $0.tid) }, db)
    }

    private static func insertFrequencies(_ m: BundleModel, _ db: SQLiteDatabase) throws {
        let frequency = try db.prepareInsert(
            into: "frequencies", columns: ["tid", "start_time_secs", "end_time_secs", "headway_secs", "exact_times"])
        for f in m.frequencies { try frequency.run(f.tid, f.start, f.end, f.headway, f.exactTimes) }
    }
}
