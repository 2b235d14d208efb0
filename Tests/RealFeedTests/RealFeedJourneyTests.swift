import Foundation
import TestKit
import TransitRuntime
import XCTest

/// Journeys on real feeds against `ReferenceJourneys`, a connection scan over the feed
/// files that shares no code with the planner: for random stop pairs and departure times,
/// the Pareto set over (arrival, rides) must be the same, and every returned journey must
/// be valid: each ride at the times the timetable gives for its trip, stop and day, each
/// transfer at least τ.
final class RealFeedJourneyTests: XCTestCase {
    /// Stations (nyc-subway, mnr), transfers.txt (mnr 11k rows, bart, trimet), frequencies
    /// (cdmx), trips past midnight, a clock-change day where the feed has one.
    static let feeds = ["cts-strasbourg", "mnr-metro-north", "nyc-subway", "bart", "cdmx-mexico-city", "trimet-2routes", "kaunas"]

    func testParetoSetsAgreeWithAConnectionScan() throws {
        try RealFeeds.requireShared()
        var compared = 0
        var journeys = 0
        for name in Self.feeds where RealFeeds.names.contains(name) {
            let (queries, found) = try check(name, queries: 30)
            compared += queries
            journeys += found
        }
        print(
            "journeys: \(compared) queries compared, \(journeys) journeys checked; ties: \(ties.checked) journeys checked, "
                + "\(ties.tied) had others with the same departure, arrival and rides, \(ties.tooMany) had too many to list")
        XCTAssertGreaterThan(compared, 150)
        XCTAssertGreaterThan(journeys, 150)
        XCTAssertGreaterThan(ties.checked, 150)
        XCTAssertGreaterThan(ties.tied, 10)
    }

    /// Journeys whose ties were checked, those among them that had any, and those with too
    /// many to list.
    private var ties = (checked: 0, tied: 0, tooMany: 0)

    private func check(_ name: String, queries: Int) throws -> (Int, Int) {
        let zip = RealFeeds.folder.appendingPathComponent(name + ".zip").path
        let timetable = try ReferenceTimetable(zip: zip)
        let bundle = try RealFeeds.bundle(name).bundle
        let candidates = try RealFeedConformanceTests.days(try bundle.info().feeds[0], timetable.timeZone)
        // A clock-change day if the feed has one, else the tenth day of its timetable.
        let day = candidates.count > 2 ? candidates[2] : candidates[0]
        let reference = try ReferenceJourneys(timetable: timetable, zip: zip, days: timetable.days(around: day, offsets: -2...2))
        let seed = SplitMix64.testSeed(UInt64(name.utf8.reduce(7) { $0 &* 31 &+ Int($1) }.magnitude))
        var random = SplitMix64(state: seed)
        let stops = reference.names
        let stations = timetable.stops.filter { $0.value.type == 1 }.map(\.key).sorted().filter { !reference.stops(for: $0).isEmpty }
        let dayStart = timetable.dayStart(day.0, day.1, day.2)
        var journeysChecked = 0
        for q in 0..<queries {
            func pick() -> String {
                if !stations.isEmpty && random.next() % 5 == 0 { return stations[Int(random.next() % UInt64(stations.count))] }
                return stops[Int(random.next() % UInt64(stops.count))]
            }
            let from = pick()
            var to = pick()
            while to == from { to = pick() }
            // 04:00 to 23:59 of the day: late ones ride trips past midnight.
            let start = dayStart + 4 * 3600 + Int(random.next() % UInt64(20 * 3600))
            let context = "\(name) query \(q) (seed \(seed)): \(from) -> \(to) at \(start)"

            let answer = try bundle.journeys(
                from: .stop(from), to: .stop(to), departingAt: .instant(Date(timeIntervalSince1970: TimeInterval(start))))
            let got = answer.map { "\($0.rides)@\(Int($0.arrival.timeIntervalSince1970))" }

            var walkOnly: Int?
            if let a = place(from, timetable), let b = place(to, timetable) {
                let metres = reference.metres(a, b)
                if metres <= reference.accessDistance { walkOnly = start + reference.walk(metres) }
            }
            let arrivals = reference.earliestArrivals(
                origins: Dictionary(reference.stops(for: from).map { ($0, start) }, uniquingKeysWith: min),
                targets: Dictionary(reference.stops(for: to).map { ($0, 0) }, uniquingKeysWith: min),
                walkOnly: walkOnly, horizonEnd: start + 86_400, maxRides: 5)
            // The Pareto set: each number of rides whose earliest arrival beats fewer rides';
            // answered earliest arrival first.
            var pareto: [(rides: Int, arrival: Int)] = []
            for (rides, arrival) in arrivals.enumerated() {
                guard let arrival, pareto.last.map({ arrival < $0.arrival }) ?? true else { continue }
                pareto.append((rides, arrival))
            }
            XCTAssertEqual(got, pareto.sorted { $0.arrival < $1.arrival }.map { "\($0.rides)@\($0.arrival)" }, context)
            for journey in answer {
                try checkValid(journey, timetable: timetable, reference: reference, start: start, context: context)
                journeysChecked += 1
            }
            checkNoPointlessWait(answer, from: from, to: to, reference: reference, leavingLater: true, context: context)
            checkTies(answer, from: from, to: to, reference: reference, context: context)
            // With at most one transfer the second round is the search's last (what it labels
            // is cut to what can still reach the destination): the Pareto set of two rides.
            if q % 2 == 1 {
                var options = JourneyOptions()
                options.maxTransfers = 1
                let short = try bundle.journeys(
                    from: .stop(from), to: .stop(to), departingAt: .instant(Date(timeIntervalSince1970: TimeInterval(start))),
                    options: options)
                let expected = pareto.filter { $0.rides <= 2 }.sorted { $0.arrival < $1.arrival }.map { "\($0.rides)@\($0.arrival)" }
                XCTAssertEqual(short.map { "\($0.rides)@\(Int($0.arrival.timeIntervalSince1970))" }, expected, context + " one transfer")
            }
            // Arrive by the latest of those arrivals (or 2 h later when there is none); not
            // where walking is an answer, which bounds the rides (checked by the unit tests).
            if q % 3 == 0 && walkOnly == nil {
                let end = pareto.map(\.arrival).max() ?? start + 7200
                let arriving = try bundle.journeys(
                    from: .stop(from), to: .stop(to), arrivingBy: .instant(Date(timeIntervalSince1970: TimeInterval(end))))
                for journey in arriving where journey.rides > 0 {
                    try checkValid(journey, timetable: timetable, reference: reference, start: end - 86_400, context: context + " arriving")
                }
                try checkLatestDepartures(
                    arriving, from: from, to: to, end: end, reference: reference, context: context + " arriving by \(end)")
                checkNoPointlessWait(
                    arriving, from: from, to: to, reference: reference, leavingLater: false, context: context + " arriving by \(end)")
                checkTies(arriving, from: from, to: to, reference: reference, context: context + " arriving by \(end)")
            }
        }
        return (queries, journeysChecked)
    }

    /// The reference's earliest arrival at `to` by `end` with at most k rides, k = 0 to
    /// `maxRides`, leaving `from` (any of its stops) at `t`, with no walk-only journey.
    private static func arrivals(
        _ reference: ReferenceJourneys, from: String, to: String, leaving t: Int, by end: Int, maxRides: Int
    ) -> [Int?] {
        reference.earliestArrivals(
            origins: Dictionary(reference.stops(for: from).map { ($0, t) }, uniquingKeysWith: min),
            targets: Dictionary(reference.stops(for: to).map { ($0, 0) }, uniquingKeysWith: min), walkOnly: nil, horizonEnd: end,
            maxRides: maxRides)
    }

    /// For each number of rides k, the latest departure the answer has with at most k rides
    /// must arrive by `end` in the reference, and leaving one second later must not.
    private func checkLatestDepartures(
        _ answer: [Journey], from: String, to: String, end: Int, reference: ReferenceJourneys, context: String
    ) throws {
        func arrivals(leaving t: Int) -> [Int?] {
            Self.arrivals(reference, from: from, to: to, leaving: t, by: end, maxRides: 5)
        }
        var previous = Int.min
        for k in 1...5 {
            let latest = answer.filter { $0.rides >= 1 && $0.rides <= k }.map { Int($0.departure.timeIntervalSince1970) }.max()
            guard let latest else {
                // None: nothing leaving within the horizon arrives by the end with at most k rides.
                XCTAssertNil(arrivals(leaving: end - 86_400)[k], "\(context): \(k) rides")
                continue
            }
            XCTAssertNotNil(arrivals(leaving: latest)[k], "\(context): \(k) rides from \(latest)")
            XCTAssertNil(arrivals(leaving: latest + 1)[k], "\(context): \(k) rides from \(latest + 1)")
            XCTAssertGreaterThanOrEqual(latest, previous, context)
            previous = latest
        }
    }

    /// No journey with rides waits pointlessly at either end (journey-semantics.md, "What
    /// is optimal"): leaving at its departure with at most its rides, the reference's
    /// earliest arrival is its arrival; with `leavingLater` (a depart-at answer), leaving one
    /// second later nothing with that many rides arrives by then.
    private func checkNoPointlessWait(
        _ answer: [Journey], from: String, to: String, reference: ReferenceJourneys, leavingLater: Bool, context: String
    ) {
        for journey in answer where journey.rides > 0 {
            let (departure, arrival, rides) = (
                Int(journey.departure.timeIntervalSince1970), Int(journey.arrival.timeIntervalSince1970), journey.rides
            )
            func earliest(leaving t: Int) -> Int? {
                Self.arrivals(reference, from: from, to: to, leaving: t, by: arrival, maxRides: rides)[rides]
            }
            XCTAssertEqual(earliest(leaving: departure), arrival, "\(context): \(rides) rides leaving at \(departure)")
            if leavingLater {
                XCTAssertNil(
                    earliest(leaving: departure + 1), "\(context): \(rides) rides leaving at \(departure + 1) arrive by \(arrival)")
            }
        }
    }

    /// Ties (journey-semantics.md): of every journey the reference lists that leaves at a
    /// journey's departure and arrives at its arrival with its rides, the first by trip ids,
    /// then stops, is the journey.
    private func checkTies(_ answer: [Journey], from: String, to: String, reference: ReferenceJourneys, context: String) {
        for journey in answer where journey.rides > 0 {
            let key = ReferenceJourneys.tieKey(of: journey)
            guard let all = reference.ties(of: journey, from: from, to: to) else {
                ties.tooMany += 1
                continue
            }
            let journeyText =
                "\(context): \(journey.rides) rides \(Int(journey.departure.timeIntervalSince1970)) -> \(Int(journey.arrival.timeIntervalSince1970))"
            XCTAssertTrue(all.contains(key), "\(journeyText): \(key) is not a journey of the reference")
            let first = all.min { $0.precedes($1) }
            XCTAssertEqual(first, key, "\(journeyText): \(first.map(\.description) ?? "none") comes first")
            ties.checked += 1
            if Set(all.map(\.description)).count > 1 { ties.tied += 1 }
        }
    }

    private func place(_ stop: String, _ timetable: ReferenceTimetable) -> (lat: Double, lon: Double)? {
        guard let s = timetable.stops[stop], let lat = s.lat, let lon = s.lon else { return nil }
        return ((lat * 1e7).rounded() / 1e7, (lon * 1e7).rounded() / 1e7)
    }

    /// Each ride at the timetable's times for its trip, stop and service day; each change
    /// of vehicle at least τ; the journey leaving at or after the query.
    private func checkValid(
        _ journey: Journey, timetable: ReferenceTimetable, reference: ReferenceJourneys, start: Int, context: String
    ) throws {
        XCTAssertGreaterThanOrEqual(Int(journey.departure.timeIntervalSince1970), start, context)
        var lastAlight: (stop: String, time: Int)?
        for leg in journey.legs where leg.kind == .ride {
            let board = try XCTUnwrap(leg.boarding, context)
            let alight = try XCTUnwrap(leg.alighting, context)
            let trip = try XCTUnwrap(timetable.trips[board.tripID], "\(context): trip \(board.tripID)")
            let first = trip.stopTimes[0].departure
            let b = try XCTUnwrap(trip.stopTimes.first { $0.sequence == board.stopSequence && $0.stop == board.stopID }, context)
            let a = try XCTUnwrap(trip.stopTimes.first { $0.sequence == alight.stopSequence && $0.stop == alight.stopID }, context)
            let parts = board.serviceDate.description.split(separator: "-").map { Int($0)! }
            let base = timetable.dayStart(parts[0], parts[1], parts[2])
            // The instance's start from the feed: the trip's own first time, or one of the starts
            // its frequencies.txt windows give (end excluded), whichever the boarding time fits.
            let starts =
                timetable.frequencies[board.tripID].map { windows in
                    windows.flatMap { stride(from: $0.start, to: $0.end, by: $0.headway).map { $0 } }
                } ?? [first]
            let boarding = Int(board.departure.timeIntervalSince1970)
            let tripStart = try XCTUnwrap(
                starts.first { base + $0 + b.departure - first == boarding }, "\(context): boarding at a time the timetable does not give")
            XCTAssertEqual(Int(alight.arrival.timeIntervalSince1970), base + tripStart + a.arrival - first, "\(context): alighting")
            XCTAssertNotEqual(b.pickup, 1, context)
            XCTAssertNotEqual(a.dropOff, 1, context)
            if let last = lastAlight {
                let tau = try XCTUnwrap(
                    reference.transferTime(last.stop, board.stopID), "\(context): no transfer \(last.stop) -> \(board.stopID)")
                XCTAssertGreaterThanOrEqual(Int(board.departure.timeIntervalSince1970), last.time + tau, "\(context): transfer")
            }
            lastAlight = (alight.stopID, Int(alight.arrival.timeIntervalSince1970))
        }
    }
}
