/// The model stage: turns the records of every feed into bundle rows with final
/// integer ids. Feeds are ordered by feed id; within a feed routes, services and trips
/// take ids in byte order of their text ids, stops along a curve over the map
/// (`StopOrder`), so the bundle is deterministic. With `--base`, `ids` starts from the base
/// bundle's ids: what it has keeps its id, what is new takes the next ones (in the same
/// orders).
struct ModelBuilder {
    let log: DiagnosticLog
    private(set) var model = BundleModel()
    private var ids: BundleIDs
    private var patternTable: PatternTable
    private var headsignsSeen: Set<Int> = []

    init(log: DiagnosticLog, ids: BundleIDs = BundleIDs()) {
        self.log = log
        self.ids = ids
        patternTable = PatternTable(ids: ids.patterns)
    }

    mutating func add(_ feed: FeedData) throws {
        let fid = model.feeds.count + 1
        let aidOf = feed.agencies.map { ids.agencies.id(unique: FeedTextKey(feed: feed.name, text: $0.agencyID)) }
        for (aid, agency) in zip(aidOf, feed.agencies) { model.agencies.append(.init(aid: aid, fid: fid, record: agency)) }

        let sidOf = Self.stableIDs(feed.stopIDs, feed: feed.name, in: &ids.stops, order: StopOrder.spatial(feed))
        for local in feed.stopIDs.idsInByteOrder() {
            let record = feed.stops[Int(local)]
            model.stops.append(
                .init(
                    sid: sidOf[Int(local)], fid: fid, stopID: feed.stopIDs.string(local), record: record,
                    parentSid: record.parent >= 0 ? sidOf[Int(record.parent)] : nil))
        }
        addTransfers(feed, sidOf: sidOf)
        for p in feed.pathways { model.pathways.append(.init(fromSid: sidOf[Int(p.from)], toSid: sidOf[Int(p.to)], record: p)) }
        addLevels(feed, fid: fid, sidOf: sidOf)
        let ridOf = Self.stableIDs(feed.routeIDs, feed: feed.name, in: &ids.routes)
        for local in feed.routeIDs.idsInByteOrder() {
            let record = feed.routes[Int(local)]
            model.routes.append(
                .init(
                    rid: ridOf[Int(local)], fid: fid, routeID: feed.routeIDs.string(local),
                    aid: record.agency >= 0 ? aidOf[Int(record.agency)] : nil, record: record))
        }
        let svOf = Self.stableIDs(feed.serviceIDs, feed: feed.name, in: &ids.services)
        for local in feed.serviceIDs.idsInByteOrder() {
            model.services.append(.init(sv: svOf[Int(local)], fid: fid, serviceID: feed.serviceIDs.string(local)))
            if let record = feed.calendar[local] { model.calendar.append(.init(sv: svOf[Int(local)], record: record)) }
        }
        for entry in feed.calendarDates {
            model.calendarDates.append(.init(date: entry.date, sv: svOf[Int(entry.service)], exceptionType: entry.exceptionType))
        }

        let windows = frequencyWindows(feed)
        let assembler = TripAssembler(feed: feed, log: log)
        let stopHeadsignHid = (0..<Int32(feed.stopHeadsigns.count)).map { Int32(headsign(feed.stopHeadsigns.string($0))) }
        var maxTime = 0
        // Local ids of the kept trips, in the order of `model.trips` from `firstTrip` on.
        var kept: [Int32] = []
        let firstTrip = model.trips.count
        // Sized once: growing by doubling copied (and faulted in) the trips several times.
        kept.reserveCapacity(feed.trips.count)
        model.trips.reserveCapacity(firstTrip + feed.trips.count)
        var stopTimes = 0
        var translations =
            feed.translations.isEmpty ? nil : TranslationResolver(feed: feed, sidOf: sidOf, ridOf: ridOf, aidOf: aidOf, log: log)
        let stopHeadsignRows = translations?.tripsWithStopHeadsignRows ?? []
        for local in feed.tripIDs.idsInByteOrder() {
            guard let stops = assembler.assemble(trip: local) else { continue }
            let trip = feed.trips[Int(local)]
            let start = stops[0].departure
            let patternStops = stops.map { s in
                BundleModel.PatternStop(
                    stopSequence: s.sequence, sid: Int32(sidOf[Int(s.stop)]), arrivalOffset: s.arrival - start,
                    departureOffset: s.departure - start, pickupType: s.pickup, dropOffType: s.dropOff,
                    interpolated: s.interpolated, approximate: s.approximate,
                    hid: s.headsign >= 0 ? stopHeadsignHid[Int(s.headsign)] : -1)
            }
            // The pattern's index in this feed until `numberFeed` gives the pids.
            let pattern = patternTable.index(for: patternStops, feed: feed.name, rid: ridOf[Int(trip.route)])
            let tripID = feed.tripIDs.string(local)
            let tid = ids.trips.id(unique: FeedTextKey(feed: feed.name, text: tripID))
            let tripWindows = windows[local] ?? []
            let span = Int(stops.last!.departure - start)
            maxTime = max(maxTime, Int(stops.last!.departure))
            for window in tripWindows {
                maxTime = max(maxTime, Int(window.end) - 1 + span)
                model.frequencies.append(
                    .init(
                        tid: tid, start: Int(window.start), end: Int(window.end),
                        headway: Int(window.headway), exactTimes: window.exactTimes))
            }
            let row = BundleModel.Trip(
                tid: tid, fid: fid, tripID: tripID, pid: pattern, rid: ridOf[Int(trip.route)],
                sv: svOf[Int(trip.service)], startTimeSecs: Int(start), hid: trip.headsign.map { headsign($0) },
                directionID: trip.directionID, wheelchairAccessible: trip.wheelchairAccessible,
                frequency: !tripWindows.isEmpty, shortName: trip.shortName, bikesAllowed: trip.bikesAllowed)
            model.trips.append(row)
            if translations != nil {
                if let hid = row.hid, let text = trip.headsign {
                    translations!.tripHeadsigns[local] = hid
                    translations!.headsignTexts[text] = hid
                }
                if stopHeadsignRows.contains(local) {
                    for stop in patternStops where stop.hid >= 0 {
                        translations!.stopHeadsigns[.init(trip: local, sequence: stop.stopSequence)] = Int(stop.hid)
                    }
                }
            }
            kept.append(local)
            stopTimes += stops.count
        }
        guard !kept.isEmpty else {
            throw FatalDiagnostic(
                .noUsableTrips, feed: feed.name, file: "stop_times.txt",
                message: "no trip has usable stop_times, so the feed has no departures")
        }
        let pidOf = patternTable.numberFeed(fid: fid, feed: feed.name)
        for i in firstTrip..<model.trips.count { model.trips[i].pid = pidOf[model.trips[i].pid] }
        addShapes(feed, fid: fid, kept: kept, firstTrip: firstTrip)
        addFares(feed, fid: fid, aidOf: aidOf, sidOf: sidOf, ridOf: ridOf)
        addFareProducts(feed, fid: fid, sidOf: sidOf, ridOf: ridOf, svOf: svOf)
        if var translations {
            for text in 0..<Int32(feed.stopHeadsigns.count) {
                translations.headsignTexts[feed.stopHeadsigns.string(text)] = Int(stopHeadsignHid[Int(text)])
            }
            model.translations += translations.rows()
        }
        for a in feed.attributions {
            model.attributions.append(
                .init(
                    fid: fid, record: a, aid: a.agency >= 0 ? aidOf[Int(a.agency)] : nil,
                    rid: a.route >= 0 ? ridOf[Int(a.route)] : nil))
        }
        let days = ServiceDays(feed)
        DuplicateTripFinder.report(model.trips[firstTrip...], locals: kept, feed: feed, days: days, log: log)
        model.stopTimeCount += stopTimes
        let (first, last) = declaredCoverage(feed)
        let lastTripDay = Set(kept.map { feed.trips[Int($0)].service }).compactMap(days.lastDay).max()
        let counts = BundleModel.Feed.Counts(stops: feed.stops.count, routes: feed.routes.count, trips: kept.count, stopTimes: stopTimes)
        model.feeds.append(
            .init(
                fid: fid, feedID: feed.name, timezone: feed.timezone, version: feed.feedVersion,
                info: feed.info, firstDate: first, lastDate: last, maxTimeSecs: maxTime,
                hasFrequencies: !windows.values.allSatisfy(\.isEmpty),
                sha256: try feed.sha256Result?.value() ?? "", counts: counts, lastTripDate: lastTripDay?.yyyymmdd))
    }

    /// levels.txt's levels, and each stop's; a stop naming a level levels.txt lacks keeps none.
    private mutating func addLevels(_ feed: FeedData, fid: Int, sidOf: [Int]) {
        var levelOf = [Int](repeating: 0, count: feed.levelIDs.count)
        for local in feed.levelIDs.idsInByteOrder() {
            guard Int(local) < feed.levels.count, let record = feed.levels[Int(local)] else { continue }
            levelOf[Int(local)] = model.levels.count + 1
            model.levels.append((model.levels.count + 1, fid, feed.levelIDs.string(local), record))
        }
        for (stop, local) in feed.stopLevels.enumerated() where local >= 0 {
            guard levelOf[Int(local)] > 0 else {
                log.add(
                    Diagnostic(
                        .unknownReference, feed: feed.name, file: "stops.txt", line: feed.stops[stop].line, field: "level_id",
                        entityID: feed.stopIDs.string(Int32(stop)), value: feed.levelIDs.string(local),
                        message: "level_id names no level of levels.txt; the stop keeps none"))
                continue
            }
            model.stopLevels.append((sidOf[stop], levelOf[Int(local)]))
        }
    }

    /// The feed's fare classes and rules, and its stops' zones when a rule names zones.
    private mutating func addFares(_ feed: FeedData, fid: Int, aidOf: [Int], sidOf: [Int], ridOf: [Int]) {
        let kept = Set(feed.fareRules.map(\.fare))
        // Local fare id -> bundle fare number (fares are numbered in byte order of their ids).
        var fareOf = [Int](repeating: 0, count: feed.fares.count)
        for local in feed.fareIDs.idsInByteOrder() {
            let record = feed.fares[Int(local)]
            guard !record.hasRuleRows || kept.contains(local) else {
                log.add(
                    Diagnostic(
                        .unknownReference, feed: feed.name, file: "fare_attributes.txt", line: record.line, field: "fare_id",
                        entityID: feed.fareIDs.string(local),
                        message:
                            "every fare_rules.txt row of this fare was dropped; fare not used (without rules it would price every ride)"
                    ))
                continue
            }
            fareOf[Int(local)] = model.fares.count + 1
            model.fares.append(
                .init(
                    fare: model.fares.count + 1, fid: fid, fareID: feed.fareIDs.string(local), record: record,
                    aid: record.agency >= 0 ? aidOf[Int(record.agency)] : nil))
        }
        let zone = { (id: Int32) in id >= 0 ? feed.zoneIDs.string(id) : nil }
        for r in feed.fareRules {
            model.fareRules.append(
                .init(
                    fare: fareOf[Int(r.fare)], rid: r.route >= 0 ? ridOf[Int(r.route)] : nil, origin: zone(r.origin),
                    destination: zone(r.destination), contains: zone(r.contains)))
        }
        guard feed.fareRules.contains(where: { $0.origin >= 0 || $0.destination >= 0 || $0.contains >= 0 }) else { return }
        for (local, zoneID) in feed.stopZones.enumerated() where zoneID >= 0 {
            model.fareZones.append((sidOf[local], fid, feed.zoneIDs.string(zoneID)))
        }
    }

    /// The feed's fares v2, when it has fare leg rules. A stop without areas of its own lies
    /// in its parent's (a platform in its station's, a boarding area in its platform's).
    private mutating func addFareProducts(_ feed: FeedData, fid: Int, sidOf: [Int], ridOf: [Int], svOf: [Int]) {
        let data = feed.fareProducts
        guard !data.isEmpty else { return }
        var own: [Int32: [String]] = [:]
        for (area, stop) in data.stopAreas where own[stop]?.contains(area) != true { own[stop, default: []].append(area) }
        var stopAreas: [(sid: Int, area: String)] = []
        if !own.isEmpty {
            for local in feed.stops.indices {
                var stop = Int32(local)
                var hops = 0
                // Up the parents until a stop with areas (a chain is at most boarding area,
                // platform, station; the bound guards a damaged chain).
                while own[stop] == nil, feed.stops[Int(stop)].parent >= 0, hops < 3 {
                    stop = feed.stops[Int(stop)].parent
                    hops += 1
                }
                for area in own[stop] ?? [] { stopAreas.append((sidOf[local], area)) }
            }
        }
        model.fareProducts.append(
            .init(
                fid: fid, data: data, stopAreas: stopAreas,
                routeNetworks: data.routeNetworks.map { (ridOf[Int($0.key)], $0.value) }.sorted { $0.rid < $1.rid },
                timeframeServices: data.timeframes.map { svOf[Int($0.service)] }))
    }

    /// The feed's stop-to-stop transfers; a pair of stops given twice keeps its first row.
    private mutating func addTransfers(_ feed: FeedData, sidOf: [Int]) {
        var seen: [Int64: Int] = [:]
        for t in feed.transfers {
            let key = Int64(t.from) << 32 | Int64(t.to)
            if let first = seen[key] {
                log.add(
                    Diagnostic(
                        .duplicateID, feed: feed.name, file: "transfers.txt", line: t.line, field: "to_stop_id",
                        entityID: feed.stopIDs.string(t.from), value: feed.stopIDs.string(t.to),
                        message: "a transfer between these stops is given on line \(first) too; the first wins"))
                continue
            }
            seen[key] = t.line
            model.transfers.append(.init(fromSid: sidOf[Int(t.from)], toSid: sidOf[Int(t.to)], type: t.type, minTime: t.minTime))
        }
    }

    /// The shapes the kept trips follow, with ids in byte order of their shape_id, and each
    /// kept trip's `shp`.
    private mutating func addShapes(_ feed: FeedData, fid: Int, kept: [Int32], firstTrip: Int) {
        var tripsOfShape: [Int32: [Int]] = [:]
        for (k, local) in kept.enumerated() where feed.trips[Int(local)].shape >= 0 {
            tripsOfShape[feed.trips[Int(local)].shape, default: []].append(firstTrip + k)
        }
        guard !tripsOfShape.isEmpty else { return }
        let builder = ShapeBuilder(feed: feed, log: log)
        for local in feed.shapeIDs.idsInByteOrder() {
            guard let trips = tripsOfShape[local], let first = trips.first else { continue }
            let namer = feed.trips[Int(kept[first - firstTrip])]
            guard let points = builder.points(of: local, tripID: model.trips[first].tripID, tripLine: namer.line) else { continue }
            let shapeID = feed.shapeIDs.string(local)
            let shp = ids.shapes.id(unique: FeedTextKey(feed: feed.name, text: shapeID))
            model.shapes.append(.init(shp: shp, fid: fid, shapeID: shapeID, points: points))
            for t in trips { model.trips[t].shp = shp }
        }
    }

    /// Takes the patterns once every feed is added.
    mutating func finish() -> BundleModel {
        model.patterns = patternTable.patterns
        ShapeNetwork.split(&model)
        return model
    }

    private mutating func headsign(_ text: String) -> Int {
        let hid = ids.headsigns.id(text)
        if headsignsSeen.insert(hid).inserted { model.headsigns.append((hid, text)) }
        return hid
    }

    /// Bundle ids for an interner's local ids, asked for in `order` (by default the byte
    /// order of the text ids).
    private static func stableIDs(
        _ interner: ByteInterner, feed: String, in table: inout IDTable<FeedTextKey>, order: [Int32]? = nil
    ) -> [Int] {
        var result = [Int](repeating: 0, count: interner.count)
        for local in order ?? interner.idsInByteOrder() {
            result[Int(local)] = table.id(unique: FeedTextKey(feed: feed, text: interner.string(local)))
        }
        return result
    }

    /// Valid frequency windows per trip, sorted by start. Windows of one trip may overlap
    /// (departures-semantics.md, "Frequencies"): every window keeps all its starts, and the
    /// runtime counts a start instant two windows both produce once; the overlap is noted
    /// with the number of such shared instants.
    private func frequencyWindows(_ feed: FeedData) -> [Int32: [FeedData.Frequency]] {
        var byTrip: [Int32: [FeedData.Frequency]] = [:]
        for window in feed.frequencies { byTrip[window.trip, default: []].append(window) }
        for (trip, windows) in byTrip {
            var sorted: [FeedData.Frequency] = []
            for window in windows.sorted(by: { ($0.start, $0.line) < ($1.start, $1.line) }) {
                // One window per start time (the bundle's key): a second row starting at the
                // same time is a duplicate row or a conflicting one; the first row wins.
                if let same = sorted.last, same.start == window.start {
                    log.add(
                        Diagnostic(
                            .badFrequency, feed: feed.name, file: "frequencies.txt", line: window.line, field: "start_time",
                            entityID: feed.tripIDs.string(trip), value: formatTime(window.start),
                            message:
                                "the trip has another window starting at \(formatTime(window.start)) (line \(same.line)); window dropped"))
                    continue
                }
                sorted.append(window)
            }
            for (index, window) in sorted.enumerated() {
                for earlier in sorted[..<index] where window.start < earlier.end {
                    let shared = Self.sharedStarts(earlier, window)
                    log.add(
                        Diagnostic(
                            .frequencyOverlap, feed: feed.name, file: "frequencies.txt", line: window.line, field: "start_time",
                            entityID: feed.tripIDs.string(trip), value: formatTime(window.start),
                            message:
                                "window overlaps the one from \(formatTime(earlier.start)) to \(formatTime(earlier.end)) (line \(earlier.line)); every start of both is kept, \(shared) start instant(s) both produce count once"
                        ))
                }
            }
            byTrip[trip] = sorted
        }
        return byTrip
    }

    /// How many start instants two windows both produce.
    static func sharedStarts(_ a: FeedData.Frequency, _ b: FeedData.Frequency) -> Int {
        let low = max(a.start, b.start)
        let high = min(a.end, b.end)
        guard low < high else { return 0 }
        // Walk the starts of `b` inside the common span and test each against `a`'s grid.
        var start = b.start + ((max(0, low - b.start) + b.headway - 1) / b.headway) * b.headway
        var count = 0
        while start < high {
            if (start - a.start) % a.headway == 0 { count += 1 }
            start += b.headway
        }
        return count
    }

    /// The feed's declared coverage: from the earliest to the latest of feed_info's start and
    /// end dates, every calendar row's range and every calendar_dates date
    /// (departures-semantics.md, "Dates outside a feed").
    private func declaredCoverage(_ feed: FeedData) -> (Int?, Int?) {
        var dates: [Int] = []
        for record in feed.calendar.values where record.startDate <= record.endDate {
            dates += [record.startDate, record.endDate]
        }
        dates += feed.calendarDates.map(\.date)
        dates += [feed.feedStartDate, feed.feedEndDate].compactMap { $0 }
        return (dates.min(), dates.max())
    }
}
