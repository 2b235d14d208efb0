import Foundation
import TestKit
import TransitRuntime
import XCTest

/// Range queries (`within:`) on real feeds against `ReferenceJourneys`, the connection scan
/// that shares no code with the planner: every journey Pareto-optimal over (departure
/// later, arrival earlier, fewer rides) among departures in `[T, T + window)`
/// (journey-semantics.md, "Range"), and nothing else. With a budget of searches
/// (`JourneyOptions.rangeSearches`), the answer is the same set for the window up to the
/// first instant left out.
final class RealFeedRangeTests: XCTestCase {
    /// The budget the second answer of each query is asked with.
    static let budget = 3

    /// Bus networks, a regional rail network with stations, transfers.txt rules (bart,
    /// nyc-subway) and the feeds where a departure after the window once hid a journey
    /// leaving in it (cairns, saskatoon, sacramento-rt, hart-tampa).
    static let feeds = ["cairns", "saskatoon", "sacramento-rt", "hart-tampa", "vvs-stuttgart-751", "ct", "bart", "nyc-subway"]

    func testRangeAnswersAreTheParetoSetOfTheWindowsDepartures() throws {
        try RealFeeds.requireShared()
        var queries = 0
        var journeys = 0
        for name in Self.feeds where RealFeeds.names.contains(name) {
            let (q, j) = try check(name, queries: 12)
            queries += q
            journeys += j
        }
        print(
            "range: \(queries) queries compared, \(journeys) journeys, \(budgetsCut) cut short by a budget of \(Self.budget) searches; "
                + "ties: \(tiesChecked) journeys checked, \(tied) had others")
        XCTAssertGreaterThan(queries, 60)
        XCTAssertGreaterThan(tied, 10)
        XCTAssertGreaterThan(journeys, 120)
        XCTAssertGreaterThan(budgetsCut, 15, "windows holding more than \(Self.budget) instants")
    }

    private var budgetsCut = 0
    /// Journeys whose ties were checked, and those among them that had others.
    private var tiesChecked = 0
    private var tied = 0

    private func check(_ name: String, queries: Int) throws -> (Int, Int) {
        let zip = RealFeeds.folder.appendingPathComponent(name + ".zip").path
        let timetable = try ReferenceTimetable(zip: zip)
        let bundle = try RealFeeds.bundle(name).bundle
        let day = try RealFeedConformanceTests.days(try bundle.info().feeds[0], timetable.timeZone)[0]
        let reference = try ReferenceJourneys(timetable: timetable, zip: zip, days: timetable.days(around: day, offsets: -1...2))
        let seed = SplitMix64.testSeed(UInt64(name.utf8.reduce(11) { $0 &* 31 &+ Int($1) }.magnitude))
        var random = SplitMix64(state: seed)
        let stops = reference.names
        let dayStart = timetable.dayStart(day.0, day.1, day.2)
        let window = 3600
        let horizon = 86_400
        var compared = 0
        var journeys = 0
        for q in 0..<queries {
            let from = stops[Int(random.next() % UInt64(stops.count))]
            var to = stops[Int(random.next() % UInt64(stops.count))]
            while to == from { to = stops[Int(random.next() % UInt64(stops.count))] }
            // 05:00 to 20:59: a window in the day's service.
            let start = dayStart + 5 * 3600 + Int(random.next() % UInt64(16 * 3600))
            let context = "\(name) range \(q) (seed \(seed)): \(from) -> \(to) from \(start) for \(window) s"
            let at = QueryTime.instant(Date(timeIntervalSince1970: TimeInterval(start)))
            let answer = try bundle.journeys(from: .stop(from), to: .stop(to), departingAt: at, within: TimeInterval(window))
            // On foot alone is an answer of its own that every ride must beat: another rule.
            guard !answer.contains(where: { $0.rides == 0 }) else { continue }
            let origins = reference.stops(for: from)
            let targets = Dictionary(reference.stops(for: to).map { ($0, 0) }, uniquingKeysWith: min)
            /// Each instant a trip leaves the origin before `end`: the earliest arrival with at
            /// most k rides leaving then, the first ride boarding before `end`.
            func expected(until end: Int) -> [Triple] {
                var expected: [Triple] = []
                var latestBest = [Int](repeating: .max, count: 6)  // by k: the best arrival leaving later
                for t in reference.boardingInstants(at: Set(origins), from: start, to: end) {
                    let arrivals = reference.earliestArrivals(
                        origins: Dictionary(origins.map { ($0, t) }, uniquingKeysWith: min), targets: targets, walkOnly: nil,
                        horizonEnd: start + horizon, maxRides: 5, leavingBefore: end)
                    for k in 1...5 {
                        guard let arrival = arrivals[k] else { continue }
                        // Beaten by fewer rides leaving then, or by as many leaving later.
                        let fewer = arrivals[k - 1].map { $0 <= arrival } ?? false
                        if !fewer && arrival < latestBest[k] { expected.append(Triple(departure: t, arrival: arrival, rides: k)) }
                    }
                    for k in 1...5 { latestBest[k] = min(latestBest[k], arrivals[k] ?? .max) }
                }
                return expected.sorted()
            }
            XCTAssertEqual(Self.triples(answer), expected(until: start + window), context)
            // Each journey the first of its ties (journey-semantics.md), as a depart-at answer.
            for journey in answer {
                guard let all = reference.ties(of: journey, from: from, to: to) else { continue }
                let key = ReferenceJourneys.tieKey(of: journey)
                XCTAssertEqual(all.min { $0.precedes($1) }, key, "\(context): ties of \(Self.triples([journey]))")
                tiesChecked += 1
                if Set(all.map(\.description)).count > 1 { tied += 1 }
            }
            // With a budget: the window up to the first instant it leaves out.
            let range = try bundle.journeyRange(
                from: .stop(from), to: .stop(to), departingAt: at, within: TimeInterval(window),
                options: JourneyOptions(rangeSearches: Self.budget))
            let instants = reference.boardingInstants(at: Set(origins), from: start, to: start + window).sorted()
            let end = instants.count > Self.budget ? instants[Self.budget] : start + window
            XCTAssertEqual(Int(range.end.timeIntervalSince1970), end, "\(context): the end of a budget of \(Self.budget)")
            XCTAssertEqual(Self.triples(range.journeys), expected(until: end), "\(context) with a budget of \(Self.budget)")
            XCTAssertEqual(range.isComplete, end == start + window, context)
            if end < start + window { budgetsCut += 1 }
            compared += 1
            journeys += answer.count
        }
        return (compared, journeys)
    }

    private static func triples(_ journeys: [Journey]) -> [Triple] {
        journeys.map {
            Triple(departure: Int($0.departure.timeIntervalSince1970), arrival: Int($0.arrival.timeIntervalSince1970), rides: $0.rides)
        }.sorted()
    }

    private struct Triple: Comparable, CustomStringConvertible {
        var departure: Int
        var arrival: Int
        var rides: Int

        static func < (a: Triple, b: Triple) -> Bool { (a.departure, a.arrival, a.rides) < (b.departure, b.arrival, b.rides) }
        var description: String { "\(rides)x \(departure)->\(arrival)" }
    }
}
