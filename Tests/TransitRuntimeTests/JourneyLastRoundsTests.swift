import Foundation
import TestSupport
import TransitRuntime
import XCTest

/// A search's last two rounds label only what can still reach the destination
/// (`TargetReach`): the last ride's boarding after a walk, an arrival in the round before
/// it where that walk starts, and the destination reached a round early must all stay.
/// The timetable (A and A2, B and B2 are 111 m apart: a 93 s walk and the 120 s change;
/// the other stops are 5.5 km apart):
///
///     O 08:00 --t1--> A 08:10   walk   A2 08:15 --t2--> B 08:25   walk   B2 08:30 --t3--> D 08:40
///                                      A2 08:16 --t5--> D 09:00
///     O 08:05 --slow--> D 10:00
///
/// Worked out by hand from journey-semantics.md: leaving O at 07:55, one ride reaches D at
/// 10:00, two at 09:00 and three at 08:40 (ready at A2 08:13:33, at B2 08:28:33).
final class JourneyLastRoundsTests: XCTestCase {
    static let feed: [String: String?] = [
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        O,Origin,48.0,7.0
        A,Alpha,48.05,7.0
        A2,Alpha 2,48.051,7.0
        B,Bravo,48.1,7.0
        B2,Bravo 2,48.101,7.0
        D,Destination,48.15,7.0

        """,
        "routes.txt": "route_id,route_short_name,route_type\nR1,1,3\nR2,2,3\nR3,3,3\nR5,5,3\nS,S,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,D,t1\nR2,D,t2\nR3,D,t3\nR5,D,t5\nS,D,slow\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        t1,08:00:00,08:00:00,O,1
        t1,08:10:00,08:10:00,A,2
        t2,08:15:00,08:15:00,A2,1
        t2,08:25:00,08:25:00,B,2
        t3,08:30:00,08:30:00,B2,1
        t3,08:40:00,08:40:00,D,2
        t5,08:16:00,08:16:00,A2,1
        t5,09:00:00,09:00:00,D,2
        slow,08:05:00,08:05:00,O,1
        slow,10:00:00,10:00:00,D,2

        """,
    ]

    func testTheLastRideBoardsAfterAWalkAndTheDestinationIsReachedARoundEarly() throws {
        let bundle = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(Self.feed).bundle))
        let at = try QueryTime.parse("2026-03-10T07:55")
        let all = ["3: t1 walk t2 walk t3 08:00-08:40", "2: t1 walk t5 08:00-09:00", "1: slow 08:05-10:00"]
        // With at most 2, 3 and 4 transfers the last round is the third, fourth and fifth:
        // the same three journeys.
        for transfers in [2, 3, 4] {
            var options = JourneyOptions()
            options.maxTransfers = transfers
            XCTAssertEqual(journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), departingAt: at, options: options)), all)
        }
        // With at most one, the second round is the last: the walk to A2 ends where it boards.
        var one = JourneyOptions()
        one.maxTransfers = 1
        XCTAssertEqual(
            journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), departingAt: at, options: one)), Array(all.dropFirst()))
        one.maxTransfers = 0
        XCTAssertEqual(journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), departingAt: at, options: one)), [all[2]])
        // Arriving by 08:45 (searched from the destination backwards): only the three rides,
        // and with one transfer none.
        let by = try QueryTime.parse("2026-03-10T08:45")
        XCTAssertEqual(journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), arrivingBy: by)), [all[0]])
        one.maxTransfers = 1
        XCTAssertEqual(journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), arrivingBy: by, options: one)), [])
        // A window from 07:55 to 08:10: both departures.
        XCTAssertEqual(journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), departingAt: at, within: 15 * 60)), all)
    }

    /// A transfers.txt row (one way, so the transfers are not symmetric) that makes the last
    /// boarding: t3 now leaves B2 at 08:27, before the walk (08:28:33) but after the row's
    /// 60 s from B (08:26).
    func testATransferRowBeforeTheLastRideIsKept() throws {
        var feed = Self.feed
        feed["stop_times.txt"] = (Self.feed["stop_times.txt"]!!)
            .replacingOccurrences(of: "t3,08:30:00,08:30:00,B2,1\nt3,08:40:00", with: "t3,08:27:00,08:27:00,B2,1\nt3,08:37:00")
        let at = try QueryTime.parse("2026-03-10T07:55")
        let walking = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(feed).bundle))
        XCTAssertEqual(
            journeySummary(try walking.journeys(from: .stop("O"), to: .stop("D"), departingAt: at)),
            ["2: t1 walk t5 08:00-09:00", "1: slow 08:05-10:00"], "walking, t3 leaves too early")
        feed["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nB,B2,2,60\n"
        let bundle = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(feed).bundle))
        XCTAssertEqual(
            journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), departingAt: at)),
            ["3: t1 walk t2 walk t3 08:00-08:37", "2: t1 walk t5 08:00-09:00", "1: slow 08:05-10:00"])
        XCTAssertEqual(
            journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), arrivingBy: try QueryTime.parse("2026-03-10T08:45"))),
            ["3: t1 walk t2 walk t3 08:00-08:37"])
    }
}
