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
        try JourneyPlanner.check(options)
        guard window >= 0, window <= 86_400 else { throw TransitError.badArgument("the window must be 0 to 1 day") }
        return try pool.with { db in
            try JourneyPlanner(bundle: self, options: options, live: live, db: db).journeys(
                .departing, from: origin, to: destination, at: time, window: Int(window.rounded(.up)))
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
        try JourneyPlanner.check(options)
        return try pool.with { db in
            try JourneyPlanner(bundle: self, options: options, live: live, db: db).journeys(
                .arriving, from: origin, to: destination, at: time, window: 0
            ).journeys
        }
    }

    /// The routing network, read on first use and kept.
    func routingNetwork(db: SQLiteDatabase) throws -> RoutingNetwork {
        if let network = journeyCaches.routing.withLock({ $0 }) { return network }
        let network = try RoutingNetwork(db: db) { [pool] work in try pool.withSpare(work) }
        journeyCaches.routing.withLock { $0 = $0 ?? network }
        return network
    }

    /// The mirrored routing network, built on first use and kept.
    func mirroredNetwork(of network: RoutingNetwork) -> RoutingNetwork {
        if let mirror = journeyCaches.mirroredRouting.withLock({ $0 }) { return mirror }
        let mirror = network.mirrored()
        journeyCaches.mirroredRouting.withLock { $0 = $0 ?? mirror }
        return mirror
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
        return try journeyCaches.transferGraphs.value(key) {
            // The walks are not kept: what is built from them is (17 MB of walks on 40 x
            // Strasbourg, measured again in 60-100 ms for another set of options).
            let paths = TransferTimes.footpaths(network, within: options.transferDistance)
            return try TransferGraph(
                TransferTimes(
                    network: network, footpaths: paths, changeTime: Int(options.changeTime), walkingSpeed: options.walkingSpeed,
                    stepFree: key.stepFree))
        }
    }
}
