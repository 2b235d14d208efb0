import BundleFormat
import Foundation
import TransitSQLite

/// Where a journey is searched (docs/journey-semantics.md): one query's planner, made by the
/// `TransitBundle` facade (`journeys(from:to:departingAt:...)`, `journeys(from:to:arrivingBy:...)`)
/// as boards make a `DepartureFinder`.
///
/// One skeleton serves both directions: the places become endpoints, a first RAPTOR search
/// (`RaptorSearch`) runs from the end the time is given at (forwards from the origin, or in
/// the mirror from the destination, instants negated), then a second search in the other
/// direction finds each journey's far end (`JourneyPlanner+FarEnds.swift`), and
/// `JourneyAssembler` turns the steps into journeys. Live data enters here as the
/// `JourneyLiveData` a snapshot made once, handed to each search as it is.
///
/// ```swift
/// let planner = try JourneyPlanner(bundle: bundle, options: JourneyOptions(), live: nil, db: db)
/// let range = try planner.journeys(.departing, from: .stop("GARE"), to: .stop("PORT"), at: time, window: 0)
/// ```
struct JourneyPlanner {
    /// Which end of the journeys the query's time is for.
    enum Direction {
        /// Leaving at or after the time (a window: leaving within it).
        case departing
        /// Arriving at or before the time.
        case arriving
    }

    let bundle: TransitBundle
    let db: SQLiteDatabase
    let network: RoutingNetwork
    let options: JourneyOptions
    /// The query's live times and added trips (`JourneyLiveData.none` without).
    let live: JourneyLiveData

    /// A planner of `bundle`'s network (read on the first journey and kept) with `options`
    /// (`check(_:)`ed by the caller), riding the predicted times of `live` when given.
    init(bundle: TransitBundle, options: JourneyOptions, live: JourneyLiveData?, db: SQLiteDatabase) throws {
        self.bundle = bundle
        self.db = db
        self.options = options
        network = try bundle.routingNetwork(db: db)
        self.live = live ?? .none
    }

    /// The journeys between two places for `time` (read in the time zone of the feed of the
    /// origin when departing, of the destination when arriving), by `direction`; `window`
    /// (seconds, departing only) asks for every journey leaving in `[time, time + window)`.
    func journeys(_ direction: Direction, from origin: JourneyPlace, to destination: JourneyPlace, at time: QueryTime, window: Int)
        throws -> JourneyRange
    {
        let from = try endpoint(origin)
        let to = try endpoint(destination, isDestination: true)
        let departing = direction == .departing
        let feed = bundle.catalog.feed(fid: (departing ? from.fid ?? to.fid : to.fid ?? from.fid) ?? 1)
        let instant = bundle.instant(time, in: feed)
        let horizon = Int(options.horizon.rounded(.up))
        try checkAnyFeedRuns(from: departing ? instant : instant - 1, to: departing ? instant + window + 1 : instant)
        // The first search runs from the end the time is for: forwards from the origin, or in
        // the mirror from the destination, where instants are negated.
        let (near, far) = departing ? (from, to) : (to, from)
        let ready = departing ? instant : -instant
        var search = try self.search(
            mirrored: !departing,
            days: departing
                ? try days(from: instant, to: instant + window + horizon, mirrored: false)
                : try days(from: instant - horizon - 86_400, to: instant, mirrored: true))
        defer { recycle(&search) }
        var assembler = JourneyAssembler(bundle: bundle, network: network, db: db, walkingSpeed: options.walkingSpeed)
        assembler.added = live.added
        assembler.stepFree = options.wheelchair
        // On foot alone: a bound every ride must beat, and a journey of its own.
        var walkOnly: Journey?
        var bound = ready + horizon + 1
        if let metres = from.metres(to: to), metres <= options.accessDistance {
            let seconds = Int((metres / options.walkingSpeed).rounded(.up))
            walkOnly = try assembler.walkOnly(
                from: from, to: to, at: departing ? instant : instant - seconds, seconds: seconds, metres: metres)
            bound = min(bound, ready + seconds)
        }
        var found: [RaptorSearch.Found]
        var end = instant + window
        if window > 0 {
            let range = rangeSearch(&search, from: from, targets: to.secondsBySid, start: instant, window: window, bound: bound)
            end = range.end
            // A later departure that keeps a journey's arrival and rides either beats it in
            // the window or lies past the window's end: only its ties are broken.
            found = try latestDepartures(range.found, moving: false, forward: search, from: from, to: to, start: instant)
        } else {
            let first = search.run(
                origins: near.origins(readyAt: ready), targets: far.secondsBySid,
                bound: [Int](repeating: bound, count: options.maxTransfers + 2))
            if departing {
                found = try latestDepartures(first, forward: search, from: from, to: to, start: instant)
            } else {
                let forwards = first.map { RaptorSearch.unmirrored($0, in: network, added: search.added) }
                let caps = search.capsForTheOtherDirection
                found = try earliestArrivals(forwards, caps: caps, mirror: &search, from: from, to: to, end: instant)
            }
        }
        // A search cut short by cancellation answers nothing.
        try Task.checkCancellation()
        var journeys = try found.map { try assembler.journey($0, from: from, to: to) }
        if let walkOnly { journeys.append(walkOnly) }
        journeys.sort {
            if !departing { return $0.departure != $1.departure ? $0.departure > $1.departure : $0.rides < $1.rides }
            return window > 0 && $0.departure != $1.departure
                ? $0.departure < $1.departure : ($0.arrival, $0.rides) < ($1.arrival, $1.rides)
        }
        return JourneyRange(
            journeys: journeys, end: Date(timeIntervalSince1970: TimeInterval(end)), endLocal: feed.clock.local(end),
            isComplete: end == instant + window)
    }

    /// rRAPTOR's order without its label reuse: one search per instant a rider can leave
    /// the origin to catch a trip in the window, latest first, each bounded by what later
    /// departures already reach with as many rides; then only journeys no other beats.
    /// Every ride from the origin boards in the window (`RaptorSearch.Limits.departureLimit`).
    /// When the earliest instant reaches nothing, no later one can (its rider could wait):
    /// that search alone answers. With at most `options.rangeSearches` searches, the window
    /// ends at the first instant left out (`end`), and the answer is that shorter window's.
    private func rangeSearch(
        _ search: inout RaptorSearch, from: JourneyEndpoint, targets: [Int: Int], start: Int, window: Int, bound: Int
    ) -> (found: [RaptorSearch.Found], end: Int) {
        var set = Set<Int>()
        for stop in from.stops {
            for boarding in search.boardings(at: stop.sid, from: start + stop.seconds, to: start + window + stop.seconds) {
                set.insert(boarding.time - stop.seconds)
            }
        }
        var instants = set.sorted()
        var end = start + window
        if let searches = options.rangeSearches, instants.count > searches {
            end = instants[searches]
            instants.removeLast(instants.count - searches)
        }
        var limits = RaptorSearch.Limits(departureLimit: end)
        var bounds = [Int](repeating: bound, count: options.maxTransfers + 2)
        // The earliest instant first: when it reaches nothing, no later one can. What it
        // finds is its answer at the end of the loop too: the later departures' bounds
        // and labels leave out only journeys that one of them beats.
        var earliest: [RaptorSearch.Found] = []
        if let first = instants.first {
            earliest = search.run(origins: from.origins(readyAt: first), targets: targets, bound: bounds, limits: limits)
            if earliest.isEmpty { return ([], end) }
        }
        var kept: [(departure: Int, result: RaptorSearch.Found)] = []
        for (i, t) in instants.enumerated().reversed() {
            if Task.isCancelled { break }  // the caller throws
            var results = earliest
            if i > 0 {
                results = search.run(origins: from.origins(readyAt: t), targets: targets, bound: bounds, limits: limits)
                limits.later.keepLastRun(of: search)
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
        return (kept.map(\.result), end)
    }

    /// A search over the network or its mirror (built on first use and kept), with the
    /// options' transfers and rides and the query's live data, on `days` (`days(from:to:mirrored:)`).
    func search(mirrored: Bool, days: [[RaptorSearch.Day]]) throws -> RaptorSearch {
        let network = mirrored ? bundle.mirroredNetwork(of: network) : network
        var search = RaptorSearch(
            network: network, mirrored: mirrored, transfers: try bundle.transferGraph(network, options, mirrored: mirrored), days: days,
            maxRides: options.maxTransfers + 1, wheelchair: options.wheelchair, live: live)
        if let labels = bundle.journeyCaches.labelPool.withLock({ $0.popLast() }) { search.adopt(labels) }
        return search
    }

    /// Gives a finished search's label arrays to the bundle's pool for the next search (a
    /// query runs two to three at once, so four are kept).
    func recycle(_ search: inout RaptorSearch) {
        guard let labels = search.handOverLabels() else { return }
        bundle.journeyCaches.labelPool.withLock { pool in
            if pool.count < 4 { pool.append(labels) }
        }
    }

    /// Each feed's service days whose trips can run between `from` and `to`, earliest first;
    /// `mirrored`: as a search in the mirror runs through them, latest first with their
    /// starts negated.
    func days(from: Int, to: Int, mirrored: Bool) throws -> [[RaptorSearch.Day]] {
        try bundle.catalog.feeds.map { feed in
            let earlierDays = (feed.maxTimeSecs + 86_399) / 86_400
            var day = feed.clock.localDay(of: from).adding(days: -earlierDays)
            let last = feed.clock.localDay(of: to).adding(days: 1)
            var result: [RaptorSearch.Day] = []
            while day <= last {
                let civil = day
                let start = feed.serviceDayStart(civil, cachedIn: bundle.boardCaches.dayStarts)
                result.append(
                    RaptorSearch.Day(civil: civil, start: mirrored ? -start : start, active: try bundle.calendar.active(on: civil, db: db)))
                day = day.adding(days: 1)
            }
            return mirrored ? result.reversed() : result
        }
    }

    /// `dateOutOfRange` (for the first feed) when no feed runs at the time asked.
    private func checkAnyFeedRuns(from: Int, to: Int) throws {
        var firstError: Error?
        for feed in bundle.catalog.feeds {
            do {
                try bundle.checkRange(feed, from: from, to: to)
                return
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// The options within their documented ranges, else `badArgument` naming the first out.
    static func check(_ options: JourneyOptions) throws {
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

    /// The stops a journey may start or end at for `place`: a stop's (a station: its
    /// platforms), or those within the access distance of a point (a station with entrances
    /// on its pathways entered through them).
    private func endpoint(_ place: JourneyPlace, isDestination: Bool = false) throws -> JourneyEndpoint {
        switch place {
        case .stop(let id, let feed):
            let sid = try bundle.resolve(.stop, id, feed: feed, db: db).id
            let row = try bundle.entities.stop(sid, db: db)
            var sids = [sid]
            if row.locationType == 1 { sids += try bundle.entities.children(of: sid, db: db) }
            let coordinate = row.lat.flatMap { lat in row.lon.map { Coordinate(latitude: lat, longitude: $0) } }
            return JourneyEndpoint(stops: sids.map { ($0, 0, 0) }, stopID: row.stopID, coordinate: coordinate, fid: row.fid)
        case .coordinate(let point):
            guard abs(point.latitude) <= 90, abs(point.longitude) <= 180 else {
                throw TransitError.badArgument("coordinate \(point.latitude),\(point.longitude) is out of range")
            }
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
            return JourneyEndpoint(stops: stops, stopID: nil, coordinate: point, fid: feedStop.map { Int(network.stopFid[$0]) })
        }
    }
}
