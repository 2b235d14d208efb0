import Foundation
import TransitSQLite

/// Prices a journey's rides by their feeds' fares (docs/journey-semantics.md, "Fares"):
/// fares v2 through `FareProductPricer`; fares v1 as the cheapest way to cover every ride
/// with fares, each fare covering consecutive rides of one feed that its rules, transfers,
/// transfer duration and agency allow.
struct FarePricer {
    /// What a fare is matched against: one ride.
    struct Ride {
        var leg: Int
        var routeID: String
        var agencyID: String?
        var originZone: String?
        var destinationZone: String?
        /// The zones of every stop from boarding to alighting (empty unless a rule needs them).
        var zonesPassed: Set<String>
        /// Unix time of the boarding.
        var boarding: Int
    }

    let bundle: TransitBundle

    /// `journey`'s fare, nil when a ride is not priced or the fares mix currencies. The rides
    /// are cut into runs of one feed, each priced by its feed's fares v2 when it has them,
    /// else by its fares v1.
    func fare(of journey: Journey, options: FareOptions, db: SQLiteDatabase) throws -> JourneyFare? {
        var runs: [(feed: FeedCatalog.Feed, legs: [Int])] = []
        for (index, leg) in journey.legs.enumerated() where leg.kind == .ride {
            guard let boarding = leg.boarding, let feed = try? bundle.catalog.feed(named: boarding.feedID) else { return nil }
            if runs.last?.feed.fid == feed.fid { runs[runs.count - 1].legs.append(index) } else { runs.append((feed, [index])) }
        }
        guard !runs.isEmpty else { return nil }
        var components: [JourneyFare.Component] = []
        for run in runs {
            let products = try bundle.fareProductTable(fid: run.feed.fid, db: db)
            let priced =
                products.isEmpty
                ? try fareV1(journey, legs: run.legs, fid: run.feed.fid, db: db)
                : try fareV2(journey, legs: run.legs, feed: run.feed, table: products, options: options, db: db)
            guard let priced else { return nil }
            components += priced
        }
        let currencies = Set(components.map(\.currency))
        guard currencies.count == 1, let currency = currencies.first else { return nil }
        // Discounts beyond the prices (a wrong or crafted feed) are no fare: never a total
        // below zero.
        guard components.reduce(Decimal(0), { $0 + $1.amount }) >= 0 else { return nil }
        return JourneyFare(currency: currency, components: components)
    }

    /// The rides `legs` of feed `feed` priced by its fares v2.
    private func fareV2(
        _ journey: Journey, legs: [Int], feed: FeedCatalog.Feed, table: FareProductTable, options: FareOptions, db: SQLiteDatabase
    ) throws -> [JourneyFare.Component]? {
        var rides: [FareProductPricer.Ride] = []
        for index in legs {
            let leg = journey.legs[index]
            guard let boarding = leg.boarding, let alighting = leg.alighting else { return nil }
            rides.append(
                FareProductPricer.Ride(
                    leg: index, network: table.networks[boarding.routeID], fromAreas: table.areas[boarding.stopID] ?? [],
                    toAreas: table.areas[alighting.stopID] ?? [], boarding: Int(leg.departure.timeIntervalSince1970),
                    alighting: Int(leg.arrival.timeIntervalSince1970)))
        }
        let calendar = bundle.calendar
        let pricer = FareProductPricer(table: table, options: options, feedID: feed.feedID) { group, epoch in
            // The wall-clock day and time of the moment (timeframes.txt: local times on the
            // days of a service, the "current day" being the calendar day, not the trip's
            // service day).
            let local = feed.clock.local(epoch)
            let seconds = local.secondsOfDay
            return (table.timeframes[group] ?? []).contains { frame in
                guard seconds >= frame.start && seconds < frame.end else { return false }
                let day = local.date.civil
                let active = calendar.cachedActive(on: day) ?? (try? calendar.active(on: day, db: db))
                return active?.contains(frame.sv) ?? false
            }
        }
        return pricer.price(rides)
    }

    /// The rides `legs` of feed `fid` priced by its fares v1: the cheapest way to cover them
    /// with fare classes, each covering consecutive rides.
    private func fareV1(_ journey: Journey, legs: [Int], fid: Int, db: SQLiteDatabase) throws -> [JourneyFare.Component]? {
        let table = try bundle.fareTable(fid: fid, db: db)
        guard table.isUsable else { return nil }
        var rides: [Ride] = []
        for index in legs {
            let leg = journey.legs[index]
            guard let boarding = leg.boarding, let alighting = leg.alighting else { return nil }
            var passed = Set<String>()
            if table.usesContains {
                // The stops ridden past, from the trip's pattern.
                // A trip the live data adds has no pattern: the ride is not priced.
                guard let stops = try? bundle.tripRecord(boarding.tripID, feed: boarding.feedID, db: db).pattern.stops,
                    let from = stops.firstIndex(where: { $0.stopSequence == boarding.stopSequence }),
                    let to = stops.lastIndex(where: { $0.stopSequence == alighting.stopSequence }), from <= to
                else { return nil }
                for stop in stops[from...to] {
                    if let zone = table.zones[try bundle.entities.stop(stop.sid, db: db).stopID] { passed.insert(zone) }
                }
            }
            rides.append(
                Ride(
                    leg: index, routeID: boarding.routeID, agencyID: boarding.agencyID,
                    originZone: table.zones[boarding.stopID], destinationZone: table.zones[alighting.stopID], zonesPassed: passed,
                    boarding: Int(leg.departure.timeIntervalSince1970)))
        }
        // cheapest[k]: the least cost of rides 0..<k, and the fare and first ride of its last part.
        var cheapest: [(cost: Decimal, fare: Int, start: Int)?] = [(0, -1, 0)] + Array(repeating: nil, count: rides.count)
        for end in 1...rides.count {
            for start in 0..<end {
                guard let before = cheapest[start] else { continue }
                for (f, fare) in table.fares.enumerated() where Self.covers(fare, rides[start..<end]) {
                    let cost = before.cost + fare.price
                    if cheapest[end] == nil || cost < cheapest[end]!.cost { cheapest[end] = (cost, f, start) }
                }
            }
        }
        guard cheapest[rides.count] != nil else { return nil }
        var components: [JourneyFare.Component] = []
        var end = rides.count
        while end > 0, let part = cheapest[end] {
            let fare = table.fares[part.fare]
            components.insert(
                JourneyFare.Component(
                    feedID: bundle.catalog.feed(fid: fid).feedID, fareID: fare.fareID, amount: fare.price, currency: fare.currency,
                    paymentMethod: fare.paymentMethod, legs: rides[part.start..<end].map(\.leg)), at: 0)
            end = part.start
        }
        return components
    }

    /// Whether `fare` may cover `rides` (consecutive, one feed) as one fare.
    static func covers(_ fare: FareTable.FareClass, _ rides: ArraySlice<Ride>) -> Bool {
        if let transfers = fare.transfers, rides.count - 1 > transfers { return false }
        if let duration = fare.transferDuration, rides.last!.boarding - rides.first!.boarding > duration { return false }
        if let agency = fare.agencyID, rides.contains(where: { $0.agencyID != agency }) { return false }
        guard !fare.rules.isEmpty else { return true }
        let origin = rides.first!.originZone
        let destination = rides.last!.destinationZone
        var passed: Set<String>?
        return fare.rules.contains { rule in
            if let wanted = rule.origin, wanted != origin { return false }
            if let wanted = rule.destination, wanted != destination { return false }
            if let routes = rule.routes, rides.contains(where: { !routes.contains($0.routeID) }) { return false }
            if !rule.contains.isEmpty {
                if passed == nil { passed = rides.reduce(into: Set<String>()) { $0.formUnion($1.zonesPassed) } }
                if passed != rule.contains { return false }
            }
            return true
        }
    }
}

extension TransitBundle {
    /// What `journey` costs by its feeds' fare rules (GTFS fares v1 or v2), as planned
    /// journeys carry it in `Journey.fare` (with the default options): for a journey an app
    /// changed or built itself, or for another rider category or fare medium. nil when a
    /// ride is not priced (docs/journey-semantics.md, "Fares").
    ///
    /// ```swift
    /// let trip = try bundle.journeys(from: .stop("EMBR"), to: .stop("12TH"), departingAt: .instant(Date()))[0]
    /// print(try bundle.fare(of: trip)?.amount ?? 0)
    /// print(try bundle.fare(of: trip, options: FareOptions(riderCategoryID: "senior"))?.amount ?? 0)
    /// ```
    public func fare(of journey: Journey, options: FareOptions = FareOptions()) throws -> JourneyFare? {
        try pool.with { db in try FarePricer(bundle: self).fare(of: journey, options: options, db: db) }
    }

    /// Feed `fid`'s fares v2, read once.
    func fareProductTable(fid: Int, db: SQLiteDatabase) throws -> FareProductTable {
        try journeyCaches.fareProductTables.value(fid) { try FareProductTable(fid: fid, db: db) }
    }

    /// Feed `fid`'s fares, read once.
    func fareTable(fid: Int, db: SQLiteDatabase) throws -> FareTable {
        try journeyCaches.fareTables.value(fid) { try FareTable(fid: fid, db: db) }
    }
}
