import BundleFormat
import Foundation
import TransitSQLite

extension TransitBundle {
    /// Journeys from `origin` to `destination` leaving at or after `time`, by
    /// journey-semantics.md: the Pareto set over (arrival, rides), earliest arrival first,
    /// each leaving as late as it can. With a `window`, every journey leaving in
    /// `[time, time + window)` that no other beats on departure, arrival and rides, by
    /// departure.
    ///
    /// ```swift
    /// let journeys = try bundle.journeys(
    ///     from: .stop("GARE_01"), to: .coordinate(Coordinate(latitude: 48.5734, longitude: 7.7521)),
    ///     departingAt: try QueryTime.parse("2026-03-29T08:00"))
    /// ```
    /// - Parameters:
    ///   - origin: a stop (a station: any of its platforms) or a point.
    ///   - destination: a stop or a point.
    ///   - time: a local time is read in the time zone of the origin's feed.
    ///   - window: seconds, 0 (default) to one day.
    ///   - options: transfers, change time, walking, accessibility, horizon.
    /// - Returns: no journey (an empty array) when none arrives within `options.horizon`.
    /// - Throws: `TransitError.unknownStop`, `.ambiguousStop`, `.unknownFeed`, `.badArgument`,
    ///   `.dateOutOfRange` (the time is outside every feed's service).
    public func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, departingAt time: QueryTime = .instant(Date()),
        within window: TimeInterval = 0, options: JourneyOptions = JourneyOptions()
    ) throws -> [Journey] {
        try journeyRange(from: origin, to: destination, departingAt: time, within: window, options: options, live: nil).journeys
    }

    /// The journeys of a range query, as `journeys(from:to:departingAt:within:options:)`
    /// answers them, with the end of the part of the window they answer for: the window's
    /// end, or an earlier instant when `options.rangeSearches` left some out.
    ///
    /// ```swift
    /// var options = JourneyOptions()
    /// options.rangeSearches = 4
    /// let range = try bundle.journeyRange(
    ///     from: .stop("GARE_01"), to: .stop("HOPITAL"), departingAt: try QueryTime.parse("2026-03-29T08:00"),
    ///     within: 7200, options: options)
    /// print(range.journeys.count, "journeys leaving before", range.end)
    /// ```
    /// - Throws: as `journeys(from:to:departingAt:within:options:)`.
    public func journeyRange(
        from origin: JourneyPlace, to destination: JourneyPlace, departingAt time: QueryTime = .instant(Date()),
        within window: TimeInterval, options: JourneyOptions = JourneyOptions()
    ) throws -> JourneyRange {
        try journeyRange(from: origin, to: destination, departingAt: time, within: window, options: options, live: nil)
    }

    /// Journeys leaving at `time` that ride the predicted times of `live` (TransitRealtime's
    /// snapshot): never a cancelled trip, never boarding or alighting at a skipped stop.
    package func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, departingAt time: QueryTime, within window: TimeInterval,
        options: JourneyOptions, live: JourneyLiveData?
    ) throws -> [Journey] {
        try journeyRange(from: origin, to: destination, departingAt: time, within: window, options: options, live: live).journeys
    }

    /// A range (or, with no window, a depart-at) query on the predicted times of `live`.
    package func journeyRange(
        from origin: JourneyPlace, to destination: JourneyPlace, departingAt time: QueryTime, within window: TimeInterval,
        options: JourneyOptions, live: JourneyLiveData?
    ) throws -> JourneyRange {
        try Self.check(options)
        guard window >= 0, window <= 86_400 else { throw TransitError.badArgument("the window must be 0 to 1 day") }
        return try pool.with { db in
            let network = try routingNetwork(db: db)
            let from = try endpoint(origin, network: network, options: options, db: db)
            let to = try endpoint(destination, network: network, options: options, isDestination: true, db: db)
            let feed = catalog.feed(fid: from.fid ?? to.fid ?? 1)
            let start = instant(time, in: feed)
            let windowSeconds = Int(window.rounded(.up))
            let horizon = Int(options.horizon.rounded(.up))
            try checkAnyFeedRuns(from: start, to: start + windowSeconds + 1)
            let setup = try searchSetup(network: network, options: options, live: live, db: db)
            var search = try self.search(
                setup, mirrored: false, days: try days(from: start, to: start + windowSeconds + horizon, mirrored: false, db: db))
            defer { recycle(&search) }
            var assembler = JourneyAssembler(bundle: self, network: network, db: db, walkingSpeed: options.walkingSpeed)
            assembler.added = setup.added
            assembler.stepFree = options.wheelchair
            // On foot alone: a bound every ride must beat, and a journey of its own.
            var walkOnly: Journey?
            var bound = start + horizon + 1
            if let metres = from.metres(to: to), metres <= options.accessDistance {
                let seconds = Int((metres / options.walkingSpeed).rounded(.up))
                walkOnly = try assembler.walkOnly(from: from, to: to, at: start, seconds: seconds, metres: metres)
                bound = min(bound, start + seconds)
            }
            let targets = to.secondsBySid
            var found: [(departure: Int, result: RaptorSearch.Found)] = []
            var end = start + windowSeconds
            if windowSeconds == 0 {
                let origins = from.origins(readyAt: start)
                let bounds = [Int](repeating: bound, count: options.maxTransfers + 2)
                let earliest = search.run(origins: origins, targets: targets, bound: bounds)
                found = try latestDepartures(earliest, forward: search, setup: setup, from: from, to: to, start: start, db: db).map {
                    (Self.departure(of: $0), $0)
                }
            } else {
                let range = rangeSearch(
                    &search, network: network, from: from, targets: targets, start: start, window: windowSeconds, bound: bound,
                    rounds: options.maxTransfers + 1, searches: options.rangeSearches)
                end = range.end
                // A later departure that keeps a journey's arrival and rides either beats it
                // in the window or lies past the window's end: only its ties are broken.
                found = try latestDepartures(
                    range.found.map(\.result), moving: false, forward: search, setup: setup, from: from, to: to, start: start, db: db
                ).map { (Self.departure(of: $0), $0) }
            }
            // A search cut short by cancellation answers nothing.
            try Task.checkCancellation()
            var journeys = try found.map { try assembler.journey($0.result, from: from, to: to) }
            if let walkOnly { journeys.append(walkOnly) }
            journeys.sort {
                windowSeconds > 0 && $0.departure != $1.departure
                    ? $0.departure < $1.departure : ($0.arrival, $0.rides) < ($1.arrival, $1.rides)
            }
            return JourneyRange(
                journeys: journeys, end: Date(timeIntervalSince1970: TimeInterval(end)), endLocal: feed.clock.local(end),
                isComplete: end == start + windowSeconds)
        }
    }

    /// Journeys from `origin` to `destination` arriving at or before `time`, the mirror of
    /// `journeys(from:to:departingAt:within:options:)`: the Pareto set over (departure,
    /// rides), latest departure first, each arriving as early as it can.
    ///
    /// ```swift
    /// let journeys = try bundle.journeys(from: .stop("GARE_01"), to: .stop("HOPITAL"), arrivingBy: try QueryTime.parse("2026-03-29T09:00"))
    /// ```
    /// - Parameters:
    ///   - origin: a stop (a station: any of its platforms) or a point.
    ///   - destination: a stop or a point.
    ///   - time: a local time is read in the time zone of the destination's feed.
    ///   - options: transfers, change time, walking, accessibility, horizon.
    /// - Throws: as `journeys(from:to:departingAt:within:options:)`.
    public func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, arrivingBy time: QueryTime, options: JourneyOptions = JourneyOptions()
    ) throws -> [Journey] {
        try journeys(from: origin, to: destination, arrivingBy: time, options: options, live: nil)
    }

    /// Journeys arriving by `time` on the predicted times of `live`.
    package func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, arrivingBy time: QueryTime, options: JourneyOptions,
        live: JourneyLiveData?
    ) throws -> [Journey] {
        try Self.check(options)
        return try pool.with { db in
            let network = try routingNetwork(db: db)
            let from = try endpoint(origin, network: network, options: options, db: db)
            let to = try endpoint(destination, network: network, options: options, isDestination: true, db: db)
            let end = instant(time, in: catalog.feed(fid: to.fid ?? from.fid ?? 1))
            let horizon = Int(options.horizon.rounded(.up))
            try checkAnyFeedRuns(from: end - 1, to: end)
            let setup = try searchSetup(network: network, options: options, live: live, db: db)
            var search = try self.search(
                setup, mirrored: true, days: try days(from: end - horizon - 86_400, to: end, mirrored: true, db: db))
            defer { recycle(&search) }
            var assembler = JourneyAssembler(bundle: self, network: network, db: db, walkingSpeed: options.walkingSpeed)
            assembler.added = setup.added
            assembler.stepFree = options.wheelchair
            var walkOnly: Journey?
            var bound = -end + horizon + 1
            if let metres = from.metres(to: to), metres <= options.accessDistance {
                let seconds = Int((metres / options.walkingSpeed).rounded(.up))
                walkOnly = try assembler.walkOnly(from: from, to: to, at: end - seconds, seconds: seconds, metres: metres)
                bound = min(bound, -end + seconds)
            }
            let origins = to.origins(readyAt: -end)
            let targets = from.secondsBySid
            let latest = search.run(origins: origins, targets: targets, bound: [Int](repeating: bound, count: options.maxTransfers + 2))
            let forwards = latest.map { RaptorSearch.unmirrored($0, in: network, added: search.added) }
            let caps = search.capsForTheOtherDirection
            let found = try earliestArrivals(
                forwards, caps: caps, mirror: &search, setup: setup, from: from, to: to, end: end, db: db)
            try Task.checkCancellation()
            var journeys = try found.map { try assembler.journey($0, from: from, to: to) }
            if let walkOnly { journeys.append(walkOnly) }
            journeys.sort { $0.departure != $1.departure ? $0.departure > $1.departure : $0.rides < $1.rides }
            return journeys
        }
    }

    /// rRAPTOR's order without its label reuse: one search per instant a rider can leave
    /// the origin to catch a trip in the window, latest first, each bounded by what later
    /// departures already reach with as many rides; then only journeys no other beats.
    /// Every ride from the origin boards in the window (`RaptorSearch.departureLimit`).
    /// When the earliest instant reaches nothing, no later one can (its rider could wait):
    /// that search alone answers. With at most `searches` searches, the window ends at the
    /// first instant left out (`end`), and the answer is that shorter window's.
    private func rangeSearch(
        _ search: inout RaptorSearch, network: RoutingNetwork, from: Endpoint, targets: [Int: Int], start: Int, window: Int,
        bound: Int, rounds: Int, searches: Int?
    ) -> (found: [(departure: Int, result: RaptorSearch.Found)], end: Int) {
        var set = Set<Int>()
        for stop in from.stops {
            for boarding in search.boardings(at: stop.sid, from: start + stop.seconds, to: start + window + stop.seconds) {
                set.insert(boarding.time - stop.seconds)
            }
        }
        var instants = set.sorted()
        var end = start + window
        if let searches, instants.count > searches {
            end = instants[searches]
            instants.removeLast(instants.count - searches)
        }
        search.departureLimit = end
        defer { search.departureLimit = RaptorSearch.never }
        var bounds = [Int](repeating: bound, count: rounds + 1)
        // The earliest instant first: when it reaches nothing, no later one can. What it
        // finds is its answer at the end of the loop too: the later departures' bounds
        // and labels leave out only journeys that one of them beats.
        var earliest: [RaptorSearch.Found] = []
        if let first = instants.first {
            let origins = from.origins(readyAt: first)
            earliest = search.run(origins: origins, targets: targets, bound: bounds)
            if earliest.isEmpty { return ([], end) }
        }
        var kept: [(departure: Int, result: RaptorSearch.Found)] = []
        defer { search.forgetLaterDepartures() }
        for (i, t) in instants.enumerated().reversed() {
            if Task.isCancelled { break }  // the caller throws
            var results = earliest
            if i > 0 {
                let origins = from.origins(readyAt: t)
                results = search.run(origins: origins, targets: targets, bound: bounds)
                search.keepAsLaterDeparture()
            }
            for result in results {
                let departure = Self.departure(of: result)
                guard departure < end else { continue }
                if !kept.contains(where: {
                    $0.departure >= departure && $0.result.arrival <= result.arrival && $0.result.rides <= result.rides
                }) {
                    kept.append((departure, result))
                }
                for k in result.rides..<bounds.count { bounds[k] = min(bounds[k], result.arrival) }
            }
        }
        return (kept, end)
    }

    /// The routing network, read on first use and kept.
    private func routingNetwork(db: SQLiteDatabase) throws -> RoutingNetwork {
        if let network = routing.withLock({ $0 }) { return network }
        let network = try RoutingNetwork(db: db) { [pool] work in try pool.withSpare(work) }
        routing.withLock { $0 = $0 ?? network }
        return network
    }

    /// The transfers of `network` for the options' change time, speed and transfer distance,
    /// built on first use and kept (a few sets of options at a time). Walks are the same
    /// both ways, so without transfers.txt rules (the only one-way part) the mirror shares
    /// the forward graph: one copy of the walk lists instead of two.
    func transferGraph(_ network: RoutingNetwork, _ options: JourneyOptions, mirrored: Bool) throws -> TransferGraph {
        // Pathways may be one-way, and step-free ones differ: both make their own graphs.
        let key = TransferGraphKey(
            mirrored: mirrored && (!network.transferRules.isEmpty || !network.pathways.isEmpty), changeTime: Int(options.changeTime),
            walkingSpeed: options.walkingSpeed,
            transferDistance: options.transferDistance, stepFree: options.wheelchair && !network.pathways.isEmpty)
        return try transferGraphs.value(key) {
            // The walks are not kept: what is built from them is (17 MB of walks on 40 x
            // Strasbourg, measured again in 60-100 ms for another set of options).
            let paths = TransferTimes.footpaths(network, within: options.transferDistance)
            return try TransferGraph(
                TransferTimes(
                    network: network, footpaths: paths, changeTime: Int(options.changeTime), walkingSpeed: options.walkingSpeed,
                    stepFree: key.stepFree))
        }
    }

    /// Each feed's service days whose trips can run between `from` and `to`, earliest first;
    /// `mirrored`: as a search in the mirror runs through them, latest first with their
    /// starts negated.
    func days(from: Int, to: Int, mirrored: Bool, db: SQLiteDatabase) throws -> [[RaptorSearch.Day]] {
        try catalog.feeds.map { feed in
            let earlierDays = (feed.maxTimeSecs + 86_399) / 86_400
            var day = feed.clock.localDay(of: from).adding(days: -earlierDays)
            let last = feed.clock.localDay(of: to).adding(days: 1)
            var result: [RaptorSearch.Day] = []
            while day <= last {
                let civil = day
                let start = feed.serviceDayStart(civil, cachedIn: dayStarts)
                result.append(
                    RaptorSearch.Day(civil: civil, start: mirrored ? -start : start, active: try calendar.active(on: civil, db: db)))
                day = day.adding(days: 1)
            }
            return mirrored ? result.reversed() : result
        }
    }

    /// `dateOutOfRange` (for the first feed) when no feed runs at the time asked.
    private func checkAnyFeedRuns(from: Int, to: Int) throws {
        var firstError: Error?
        for feed in catalog.feeds {
            do {
                try checkRange(feed, from: from, to: to)
                return
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    private static func check(_ options: JourneyOptions) throws {
        guard (0...10).contains(options.maxTransfers) else { throw TransitError.badArgument("max transfers must be 0 to 10") }
        guard (0...3600).contains(options.changeTime) else { throw TransitError.badArgument("the change time must be 0 to 3600 seconds") }
        guard options.walkingSpeed > 0.1, options.walkingSpeed <= 10 else {
            throw TransitError.badArgument("the walking speed must be above 0.1 and at most 10 metres per second")
        }
        guard (0...5000).contains(options.transferDistance), (0...5000).contains(options.accessDistance) else {
            throw TransitError.badArgument("transfer and access distances must be 0 to 5000 metres")
        }
        guard options.horizon > 0, options.horizon <= 7 * 86_400 else { throw TransitError.badArgument("the horizon must be up to 7 days") }
        if let searches = options.rangeSearches, searches < 1 { throw TransitError.badArgument("range searches must be at least 1") }
    }

    /// An origin or destination: its stops with their walk, and its place.
    struct Endpoint {
        var stops: [(sid: Int, seconds: Int, metres: Double)]
        /// The stop id (nil for a point).
        var stopID: String?
        var coordinate: Coordinate?
        var fid: Int?

        /// A search's origins at this end: each stop, ready `instant` plus its access
        /// seconds (in the mirror, instants are negated: `-arrival` there).
        func origins(readyAt instant: Int) -> [(sid: Int, ready: Int, access: Int)] {
            stops.map { (sid: $0.sid, ready: instant + $0.seconds, access: $0.seconds) }
        }

        /// A search's targets at this end: each stop's egress (or access) seconds, the
        /// shortest where a stop is reached twice.
        var secondsBySid: [Int: Int] { Dictionary(stops.map { ($0.sid, $0.seconds) }, uniquingKeysWith: min) }

        /// Straight-line metres to another endpoint, when both have a place.
        func metres(to other: Endpoint) -> Double? {
            guard let a = coordinate, let b = other.coordinate else { return nil }
            return GeoDistance.metres(a.latitude, a.longitude, b.latitude, b.longitude)
        }
    }

    private func endpoint(
        _ place: JourneyPlace, network: RoutingNetwork, options: JourneyOptions, isDestination: Bool = false, db: SQLiteDatabase
    ) throws -> Endpoint {
        switch place {
        case .stop(let id, let feed):
            let sid = try resolve(.stop, id, feed: feed, db: db).id
            let row = try entities.stop(sid, db: db)
            var sids = [sid]
            if row.locationType == 1 { sids += try entities.children(of: sid, db: db) }
            let coordinate = row.lat.flatMap { lat in row.lon.map { Coordinate(latitude: lat, longitude: $0) } }
            return Endpoint(stops: sids.map { ($0, 0, 0) }, stopID: row.stopID, coordinate: coordinate, fid: row.fid)
        case .coordinate(let point):
            guard abs(point.latitude) <= 90, abs(point.longitude) <= 180 else {
                throw TransitError.badArgument("coordinate \(point.latitude),\(point.longitude) is out of range")
            }
            // A station with entrances on its pathways is entered through them; other stops
            // are walked to in a straight line.
            let paths = network.pathways
            let near = network.stops(near: point.latitude, point.longitude, within: options.accessDistance).filter {
                paths.isEmpty || !paths.isBehindEntrances($0.sid, station: network.station(of: $0.sid))
            }
            var stops = near.map { (sid: $0.sid, seconds: Int(($0.distance / options.walkingSpeed).rounded(.up)), metres: $0.distance) }
            if !paths.isEmpty {
                let entered = try paths.throughEntrances(
                    latitude: point.latitude, longitude: point.longitude, within: options.accessDistance,
                    walkingSpeed: options.walkingSpeed, stepFree: options.wheelchair, toPoint: isDestination)
                for (node, way) in entered.sorted(by: { $0.key < $1.key })
                where (0..<network.stopCount).contains(Int(node)) && network.serves(Int(node)) {
                    stops.append((Int(node), way.seconds, way.metres))
                }
            }
            let nearest = near.min { $0.distance < $1.distance }
            let feedStop = nearest?.sid ?? stops.min { $0.metres < $1.metres }?.sid
            return Endpoint(stops: stops, stopID: nil, coordinate: point, fid: feedStop.map { Int(network.stopFid[$0]) })
        }
    }
}
