import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// The hand-made cases of journey-semantics.md on a small feed (Europe/Paris). Expected
/// journeys were worked out by hand from the timetable below.
///
///     A (48.00, 7.00) --R1 08:00--> B 08:10 --> C 08:20
///     B 08:13 --R2a--> D 08:30;  B 08:40 --R2b--> D 08:57
///     B2 (22 m from B) 08:14 --R4--> D 08:25
///     A 08:05 --R3 (one slow ride)--> D 09:10
///     C 25:30 Saturday 2026-03-28 --N1--> D 25:50;  D 03:10 Sunday 2026-03-29 --M1--> A 03:30
final class JourneyTests: XCTestCase {
    static let feed = TestFeeds.journeys

    private func bundle(transfers: String? = nil) throws -> TransitBundle {
        var files = Self.feed
        files["transfers.txt"] = transfers
        return try TransitBundle(path: try XCTUnwrap(TestSupport.compile(files).bundle))
    }

    private func plan(_ b: TransitBundle, _ from: String, _ to: String, at: String, options: JourneyOptions = JourneyOptions()) throws
        -> [String]
    {
        journeySummary(try b.journeys(from: .stop(from), to: .stop(to), departingAt: try QueryTime.parse(at), options: options))
    }

    func testAFasterJourneyWithMoreRidesStandsBesideASlowerOneWithFewer() throws {
        // R1a then a 22 m walk to B2 (19 s + 120 s change) for R4a; R3a alone arrives later.
        XCTAssertEqual(try plan(try bundle(), "A", "D", at: "2026-03-10T07:55"), ["2: R1a walk R4a 08:00-08:25", "1: R3a 08:05-09:10"])
        var one = JourneyOptions()
        one.maxTransfers = 0
        XCTAssertEqual(try plan(try bundle(), "A", "D", at: "2026-03-10T07:55", options: one), ["1: R3a 08:05-09:10"])
    }

    func testATransferForbiddenByTransfersTxtIsNotMade() throws {
        // Without B -> B2 the next best change is at B itself, to R2a.
        let forbidden = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nB,B2,3,\n"
        XCTAssertEqual(
            try plan(try bundle(transfers: forbidden), "A", "D", at: "2026-03-10T07:55"), ["2: R1a R2a 08:00-08:30", "1: R3a 08:05-09:10"])
    }

    func testAMinimumTransferTimeMakesTheFirstConnectionImpossible() throws {
        // 300 s at B: 08:10 + 5 min misses R2a at 08:13, catches R2b at 08:40.
        let slow = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nB,B2,3,\nB,B,2,300\n"
        XCTAssertEqual(
            try plan(try bundle(transfers: slow), "A", "D", at: "2026-03-10T07:55"), ["2: R1a R2b 08:00-08:57", "1: R3a 08:05-09:10"])
    }

    func testTheChangeTimeIsAnOption() throws {
        // 4 minutes to change: R4a (08:14) is missed even on foot, R2a too; R2b still beats R3a.
        var options = JourneyOptions()
        options.changeTime = 240
        XCTAssertEqual(
            try plan(try bundle(), "A", "D", at: "2026-03-10T07:55", options: options), ["2: R1a R2b 08:00-08:57", "1: R3a 08:05-09:10"])
    }

    /// No pointless waiting: a depart-at journey leaves as late as still keeps its arrival
    /// and rides, an arrive-by journey arrives as early as still keeps its departure and
    /// rides. Buses A -> B leave at 08:00 and 08:10 (at B 08:20, 08:30); trains B -> C at
    /// 09:00 and 09:10 (at C 09:30, 09:40). Either way the answer is the 08:10 bus and the
    /// 09:00 train; the first search alone finds the 08:00 bus leaving at 07:55, and the
    /// 09:10 train arriving by 09:45.
    func testAJourneyLeavesAsLateAndArrivesAsEarlyAsItCan() throws {
        let b = try TransitBundle(
            path: try XCTUnwrap(
                TestSupport.compile([
                    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,48.0,7.0\nB,Beta,48.1,7.0\nC,Gamma,48.2,7.0\n",
                    "routes.txt": "route_id,route_short_name,route_type\nBUS,1,3\nTRAIN,2,2\n",
                    "trips.txt": "route_id,service_id,trip_id\nBUS,D,bus-0800\nBUS,D,bus-0810\nTRAIN,D,train-0900\nTRAIN,D,train-0910\n",
                    "stop_times.txt": """
                    trip_id,arrival_time,departure_time,stop_id,stop_sequence
                    bus-0800,08:00:00,08:00:00,A,1
                    bus-0800,08:20:00,08:20:00,B,2
                    bus-0810,08:10:00,08:10:00,A,1
                    bus-0810,08:30:00,08:30:00,B,2
                    train-0900,09:00:00,09:00:00,B,1
                    train-0900,09:30:00,09:30:00,C,2
                    train-0910,09:10:00,09:10:00,B,1
                    train-0910,09:40:00,09:40:00,C,2

                    """,
                ]).bundle))
        XCTAssertEqual(try plan(b, "A", "C", at: "2026-03-10T07:55"), ["2: bus-0810 train-0900 08:10-09:30"])
        let arriving = try b.journeys(from: .stop("A"), to: .stop("C"), arrivingBy: try QueryTime.parse("2026-03-10T09:45"))
        XCTAssertEqual(journeySummary(arriving), ["2: bus-0810 train-0900 08:10-09:30"])
    }

    static let tieFeed = TestFeeds.tieJourneys

    /// Ties (journey-semantics.md): among journeys with the same departure, arrival and rides,
    /// the first by the text ids of their trips, ride by ride, then of their stops. Three
    /// places far apart, each with journeys that tie (the scan meets them in one order or
    /// another; the rule names one):
    /// - P -> Q: trips `b` and `a` both 08:00 -> 08:30.
    /// - O -> D: `b1` to X then `a2`, or `a1` to Y then `z2`, both 08:00 -> 08:40 (X and Y
    ///   are 1.1 km apart): (a1, z2) comes before (b1, a2).
    /// - K -> E: `t1` passes S2 (08:10) then S1 (08:12), `t2` passes S2 (08:18) then S1
    ///   (08:20) to E (08:40): changing at S1 comes before changing at S2, the first stop
    ///   `t2` can be boarded at.
    func testTiesAreBrokenByTheTextIdsOfTripsThenStops() throws {
        let b = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(Self.tieFeed).bundle))
        let at = try QueryTime.parse("2026-03-10T07:55")
        let by = try QueryTime.parse("2026-03-10T08:45")
        func stops(_ journeys: [Journey]) -> [String] {
            journeys.map { $0.legs.map { "\($0.fromStopID ?? "-")>\($0.toStopID ?? "-")" }.joined(separator: " ") }
        }
        for (from, to, expected, legs) in [
            ("P", "Q", "1: a 08:00-08:30", "P>Q"), ("O", "D", "2: a1 z2 08:00-08:40", "O>Y Y>D"),
            ("K", "E", "2: t1 t2 08:00-08:40", "K>S1 S1>E"),
        ] {
            let departing = try b.journeys(from: .stop(from), to: .stop(to), departingAt: at)
            XCTAssertEqual(journeySummary(departing), [expected], "\(from) -> \(to) departing")
            XCTAssertEqual(stops(departing), [legs], "\(from) -> \(to) departing")
            let arriving = try b.journeys(from: .stop(from), to: .stop(to), arrivingBy: by)
            XCTAssertEqual(journeySummary(arriving), [expected], "\(from) -> \(to) arriving")
            XCTAssertEqual(stops(arriving), [legs], "\(from) -> \(to) arriving")
            let range = try b.journeys(from: .stop(from), to: .stop(to), departingAt: at, within: 30 * 60)
            XCTAssertEqual(journeySummary(range), [expected], "\(from) -> \(to) in a range")
            XCTAssertEqual(stops(range), [legs], "\(from) -> \(to) in a range")
        }
    }

    func testArriveByMirrorsDepartAt() throws {
        let b = try bundle()
        func arriving(_ at: String) throws -> [String] {
            journeySummary(try b.journeys(from: .stop("A"), to: .stop("D"), arrivingBy: try QueryTime.parse(at)))
        }
        // By 08:30 only the two-ride journeys arrive; the latest leaves at 08:00.
        XCTAssertEqual(try arriving("2026-03-10T08:30"), ["2: R1a walk R4a 08:00-08:25"])
        // By 09:10 the single ride leaves later (08:05) than any two-ride one: it alone is optimal.
        XCTAssertEqual(try arriving("2026-03-10T09:10"), ["1: R3a 08:05-09:10"])
        // Nothing arrives by 08:20 that day, and the day before's trips leave more than the
        // 24-hour horizon earlier; with a longer horizon the day before's R3a is the answer.
        XCTAssertEqual(try arriving("2026-03-10T08:20"), [])
        var longer = JourneyOptions()
        longer.horizon = 2 * 86_400
        let yesterday = try b.journeys(
            from: .stop("A"), to: .stop("D"), arrivingBy: try QueryTime.parse("2026-03-10T08:20"), options: longer)
        XCTAssertEqual(journeySummary(yesterday), ["1: R3a 08:05-09:10"])
        XCTAssertEqual(yesterday.first?.legs.first?.boarding?.serviceDate.description, "2026-03-09")
    }

    func testAJourneyAcrossMidnightAndTheClockChange() throws {
        // N1 is Saturday's 25:30 (01:30 CET Sunday); M1 leaves at 03:10 CEST, after the change.
        let journeys = try bundle().journeys(from: .stop("C"), to: .stop("A"), departingAt: try QueryTime.parse("2026-03-29T01:00"))
        let journey = try XCTUnwrap(journeys.first)
        XCTAssertEqual(journeys.count, 1)
        XCTAssertEqual(journey.legs.compactMap(\.boarding?.tripID), ["N1", "M1"])
        XCTAssertEqual(journey.legs.first?.boarding?.serviceDate.description, "2026-03-28")
        XCTAssertEqual(journey.legs.last?.boarding?.serviceDate.description, "2026-03-29")
        XCTAssertEqual(journey.departureLocal.description, "2026-03-29T01:30:00+01:00")
        XCTAssertEqual(journey.arrivalLocal.description, "2026-03-29T03:30:00+02:00")
        XCTAssertEqual(journey.arrival.timeIntervalSince(journey.departure), 3600, "two wall-clock hours, one real hour")
        // The rides are the boards' calls.
        let board = try bundle().departures(from: "C", at: try QueryTime.parse("2026-03-29T01:00"))
        XCTAssertEqual(board.first, journey.legs.first?.boarding)
    }

    func testCoordinateToCoordinateThatIsBestWalked() throws {
        // 278 m north of A: 232 s on foot; no ride gets there sooner.
        let journeys = try bundle().journeys(
            from: .coordinate(Coordinate(latitude: 48.0, longitude: 7.0)),
            to: .coordinate(Coordinate(latitude: 48.0025, longitude: 7.0)), departingAt: try QueryTime.parse("2026-03-10T07:55"))
        XCTAssertEqual(journeys.count, 1)
        let walk = try XCTUnwrap(journeys.first?.legs.first)
        XCTAssertEqual(journeys.first?.rides, 0)
        XCTAssertEqual(walk.kind, .walk)
        XCTAssertNil(walk.fromStopID)
        XCTAssertNil(walk.toStopID)
        XCTAssertEqual(walk.distance, 278)
        XCTAssertEqual(walk.arrival.timeIntervalSince(walk.departure), 232)
    }

    func testACoordinateWalksToTheStopsNearIt() throws {
        // 100 m south of A: 84 s to A, then the same rides.
        let journeys = try bundle().journeys(
            from: .coordinate(Coordinate(latitude: 47.9991, longitude: 7.0)), to: .stop("D"),
            departingAt: try QueryTime.parse("2026-03-10T07:55"))
        XCTAssertEqual(journeySummary(journeys), ["2: walk R1a walk R4a 07:58-08:25", "1: walk R3a 08:03-09:10"])
        XCTAssertEqual(journeys.first?.legs.first?.arrival, journeys.first?.legs[1].boarding?.departure)
    }

    func testARangeQueryKeepsEveryJourneyNoOtherBeats() throws {
        let journeys = try bundle().journeys(
            from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T07:50"), within: 30 * 60)
        XCTAssertEqual(journeySummary(journeys), ["2: R1a walk R4a 08:00-08:25", "1: R3a 08:05-09:10"])
    }

    func testBadOptionsAndPlacesAreRefused() throws {
        let b = try bundle()
        var options = JourneyOptions()
        options.walkingSpeed = 0
        XCTAssertThrowsError(
            try b.journeys(from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T08:00"), options: options)
        ) {
            XCTAssertEqual(($0 as? TransitError)?.code, "bad_argument")
        }
        XCTAssertThrowsError(try b.journeys(from: .stop("NOPE"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T08:00"))) {
            XCTAssertEqual(($0 as? TransitError)?.code, "unknown_stop")
        }
        XCTAssertThrowsError(try b.journeys(from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2031-03-10T08:00"))) {
            XCTAssertEqual(($0 as? TransitError)?.code, "date_out_of_range")
        }
    }

    /// A bundle reuses the label arrays of its finished searches and clears only what they
    /// set: every query, asked after the others in a seeded random order on one bundle,
    /// gets the answer it gets first on a freshly opened one.
    func testAQueryAfterOthersGetsTheAnswerOfAFreshBundle() throws {
        let path = try XCTUnwrap(TestSupport.compile(Self.feed).bundle)
        let stops = ["A", "B", "B2", "C", "D"]
        let times = ["2026-03-10T07:55", "2026-03-10T08:12", "2026-03-10T09:00", "2026-03-29T01:00"]
        var queries: [(from: String, to: String, at: String, kind: Int)] = []
        for from in stops {
            for to in stops where to != from {
                for at in times {
                    for kind in 0..<3 { queries.append((from, to, at, kind)) }
                }
            }
        }
        func answer(_ b: TransitBundle, _ q: (from: String, to: String, at: String, kind: Int)) throws -> [String] {
            let at = try QueryTime.parse(q.at)
            switch q.kind {
            case 0: return journeySummary(try b.journeys(from: .stop(q.from), to: .stop(q.to), departingAt: at))
            case 1: return journeySummary(try b.journeys(from: .stop(q.from), to: .stop(q.to), arrivingBy: at))
            default: return journeySummary(try b.journeys(from: .stop(q.from), to: .stop(q.to), departingAt: at, within: 3600))
            }
        }
        let fresh = try queries.map { try answer(try TransitBundle(path: path), $0) }
        XCTAssertGreaterThan(fresh.filter { !$0.isEmpty }.count, queries.count / 3, "most queries have journeys")
        let seed = SplitMix64.testSeed(21)
        var generator = SplitMix64(state: seed)
        let shared = try TransitBundle(path: path)
        for i in queries.indices.shuffled(using: &generator) {
            XCTAssertEqual(try answer(shared, queries[i]), fresh[i], "\(queries[i]) after others (seed \(seed))")
        }
    }
}
