import Foundation
import TestKit
import TransitRuntime
import XCTest

/// Journey fares on the real feeds with fares v1, against an independent reading of their
/// fare_attributes.txt and fare_rules.txt (`ReferenceFares`: the CSV read apart from the
/// compiler, every way of cutting the rides into runs tried, no shared code with the
/// runtime's pricer).
final class RealFeedFareTests: XCTestCase {
    static let feeds = [
        "bart", "caltrain-2016", "ct", "google-sample-feed", "hart-tampa", "island-transit", "kaunas", "kcm-seattle",
        "torrance", "trimet-2routes",
    ]

    func testJourneyFaresAgreeWithAnIndependentReadingOfTheFareRules() throws {
        try RealFeeds.requireShared()
        var totals = (journeys: 0, priced: 0, multiRide: 0)
        for name in Self.feeds {
            let zip = RealFeeds.folder.appendingPathComponent(name + ".zip").path
            let timetable = try ReferenceTimetable(zip: zip)
            let reference = try ReferenceFares(zip: zip, timetable: timetable)
            let bundle = try RealFeeds.bundle(name).bundle
            let feed = try bundle.info().feeds[0]
            let dayStart = try Self.busiestDayStart(
                timetable, from: try XCTUnwrap(feed.firstServiceDate), to: try XCTUnwrap(feed.lastServiceDate))
            let seed = SplitMix64.testSeed(UInt64(name.utf8.reduce(11) { $0 &* 31 &+ Int($1) }.magnitude))
            var random = SplitMix64(state: seed)
            let stops = timetable.byStop.keys.sorted()
            var counts = (journeys: 0, priced: 0, multiRide: 0)
            for q in 0..<40 {
                let from = stops[Int(random.next() % UInt64(stops.count))]
                let to = stops[Int(random.next() % UInt64(stops.count))]
                guard from != to else { continue }
                let start = dayStart + 6 * 3600 + Int(random.next() % UInt64(14 * 3600))
                let journeys = try bundle.journeys(
                    from: .stop(from), to: .stop(to), departingAt: .instant(Date(timeIntervalSince1970: TimeInterval(start))))
                for journey in journeys where journey.rides > 0 {
                    let context = "\(name) query \(q) (seed \(seed)): \(from) -> \(to) at \(start), \(journey.id)"
                    let expected = try reference.cheapest(journey)
                    XCTAssertEqual(journey.fare?.amount, expected, context)
                    counts.journeys += 1
                    if let fare = journey.fare {
                        counts.priced += 1
                        if journey.rides > 1 { counts.multiRide += 1 }
                        // Every ride covered once, in order, and the parts add up.
                        let rides = journey.legs.indices.filter { journey.legs[$0].kind == .ride }
                        XCTAssertEqual(fare.components.flatMap(\.legs), rides, context)
                        XCTAssertEqual(fare.components.reduce(Decimal(0)) { $0 + $1.amount }, fare.amount, context)
                        XCTAssertEqual(fare.currency, reference.currency, context)
                    }
                }
            }
            print("\(name): \(counts.journeys) journeys, \(counts.priced) priced, \(counts.multiRide) of them with changes")
            XCTAssertGreaterThan(counts.journeys, 0, name)
            totals = (totals.journeys + counts.journeys, totals.priced + counts.priced, totals.multiRide + counts.multiRide)
        }
        // The feeds' rules do price most journeys, changes included: the check is not vacuous.
        XCTAssertGreaterThan(totals.priced, totals.journeys / 2)
        XCTAssertGreaterThan(totals.multiRide, 20)
    }
}

extension RealFeedFareTests {
    /// GTFS time 0 of the day with most trips among 60 days spread over the feed's timetable.
    static func busiestDayStart(_ timetable: ReferenceTimetable, from first: ServiceDate, to last: ServiceDate) throws -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timetable.timeZone
        func noon(_ date: ServiceDate) -> Date {
            let parts = date.description.split(separator: "-").map { Int($0)! }
            return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))!
        }
        let start = noon(first)
        let span = max(0, calendar.dateComponents([.day], from: start, to: noon(last)).day!)
        var trips: [String: Int] = [:]
        for trip in timetable.trips.values { trips[trip.service, default: 0] += 1 }
        var best = (count: -1, start: 0)
        for sample in 0..<60 {
            let day = calendar.date(byAdding: .day, value: sample * span / 59, to: start)!
            let c = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
            let text = String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
            // Calendar's weekday: 1 is Sunday; the timetable's: 0 is Monday.
            let count = trips.filter { timetable.runs($0.key, on: text, weekday: (c.weekday! + 5) % 7) }.values.reduce(0, +)
            if count > best.count { best = (count, timetable.dayStart(c.year!, c.month!, c.day!)) }
        }
        return best.start
    }
}

/// fares v1 read from a feed's files, following the reference's text and
/// docs/journey-semantics.md ("Fares"), written apart from the runtime's pricer.
struct ReferenceFares {
    struct Fare {
        var id: String
        var price: Decimal
        var currency: String
        var transfers: Int?
        var agency: String?
        var duration: Int?
    }

    struct Row: Hashable {
        var route: String?
        var origin: String?
        var destination: String?
        var contains: String?
    }

    var fares: [Fare] = []
    var rows: [String: [Row]] = [:]
    var zone: [String: String] = [:]
    var agencyOfRoute: [String: String] = [:]
    var currency: String?
    let timetable: ReferenceTimetable

    init(zip: String, timetable: ReferenceTimetable) throws {
        self.timetable = timetable
        func empty(_ value: String?) -> String? { (value ?? "").isEmpty ? nil : value }
        let agencies = try ReferenceTimetable.table("agency.txt", in: zip)
        let onlyAgency = agencies.count == 1 ? (agencies[0]["agency_id"] ?? "") : nil
        for row in try ReferenceTimetable.table("routes.txt", in: zip) {
            guard let route = row["route_id"] else { continue }
            agencyOfRoute[route] = empty(row["agency_id"]) ?? onlyAgency
        }
        for row in try ReferenceTimetable.table("stops.txt", in: zip) {
            if let stop = row["stop_id"], let z = empty(row["zone_id"]) { zone[stop] = z }
        }
        var seen = Set<String>()
        for row in try ReferenceTimetable.table("fare_attributes.txt", in: zip) {
            guard let id = empty(row["fare_id"]), seen.insert(id).inserted, let text = row["price"],
                let price = Decimal(string: text), price >= 0, let code = row["currency_type"]
            else { continue }
            fares.append(
                Fare(
                    id: id, price: price, currency: code, transfers: Int(row["transfers"] ?? ""), agency: empty(row["agency_id"]),
                    duration: Int(row["transfer_duration"] ?? "")))
        }
        for row in try ReferenceTimetable.table("fare_rules.txt", in: zip) {
            guard let id = row["fare_id"] else { continue }
            rows[id, default: []].append(
                Row(
                    route: empty(row["route_id"]), origin: empty(row["origin_id"]), destination: empty(row["destination_id"]),
                    contains: empty(row["contains_id"])))
        }
        currency = Set(fares.map(\.currency)).count == 1 ? fares.first?.currency : nil
    }

    /// One ride as the rules see it.
    struct Ride {
        var route: String
        var agency: String?
        var from: String?
        var to: String?
        var passed: Set<String>
        var boarded: Int
    }

    /// The least total price of `journey`'s rides, nil when some ride cannot be covered.
    func cheapest(_ journey: Journey) throws -> Decimal? {
        guard currency != nil else { return nil }
        var rides: [Ride] = []
        for leg in journey.legs where leg.kind == .ride {
            let board = try XCTUnwrap(leg.boarding)
            let alight = try XCTUnwrap(leg.alighting)
            let calls = try XCTUnwrap(timetable.trips[board.tripID]).stopTimes
            let zones = calls.filter { $0.sequence >= board.stopSequence && $0.sequence <= alight.stopSequence }.compactMap {
                zone[$0.stop]
            }
            rides.append(
                Ride(
                    route: board.routeID, agency: agencyOfRoute[board.routeID], from: zone[board.stopID], to: zone[alight.stopID],
                    passed: Set(zones), boarded: Int(leg.departure.timeIntervalSince1970)))
        }
        // Every way to cut the rides into runs: bit i set = a new run starts at ride i + 1.
        var best: Decimal?
        for cuts in 0..<(1 << (rides.count - 1)) {
            var total: Decimal = 0
            var start = 0
            var covered = true
            for i in 0..<rides.count where i == rides.count - 1 || cuts & (1 << i) != 0 {
                guard let price = fares.filter({ fits($0, Array(rides[start...i])) }).map(\.price).min() else {
                    covered = false
                    break
                }
                total += price
                start = i + 1
            }
            if covered, best == nil || total < best! { best = total }
        }
        return best
    }

    private func fits(_ fare: Fare, _ run: [Ride]) -> Bool {
        if let allowed = fare.transfers, run.count - 1 > allowed { return false }
        if let duration = fare.duration, run.last!.boarded - run.first!.boarded > duration { return false }
        if let agency = fare.agency, run.contains(where: { $0.agency != agency }) { return false }
        let list = rows[fare.id] ?? []
        if list.isEmpty { return true }
        // A rule: one route (or any) with one origin and destination, and the zones of all
        // rows that share those three.
        var zonesOf: [Row: Set<String>] = [:]
        for row in list {
            let key = Row(route: row.route, origin: row.origin, destination: row.destination)
            zonesOf[key, default: []].formUnion(row.contains.map { [$0] } ?? [])
        }
        let origin = run.first!.from
        let destination = run.last!.to
        let passed = run.reduce(into: Set<String>()) { $0.formUnion($1.passed) }
        let routes = Set(run.map(\.route))
        // Some rule's zones fit, and each route of the run is covered by a rule with the same
        // origin, destination and zones.
        return zonesOf.contains { key, zones in
            guard key.origin == nil || key.origin == origin, key.destination == nil || key.destination == destination,
                zones.isEmpty || zones == passed
            else { return false }
            return routes.allSatisfy { route in
                zonesOf.contains { other, otherZones in
                    other.origin == key.origin && other.destination == key.destination && otherZones == zones
                        && (other.route == nil || other.route == route)
                }
            }
        }
    }
}
