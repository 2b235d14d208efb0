import Foundation
import TestSupport
import TransitRuntime
import XCTest

/// A range query's searches for earlier departures skip what a later departure already
/// reached as early with as many rides or fewer (`RaptorSearch.keepAsLaterDeparture`).
/// The timetable (stops 11 km apart: no walks between them):
///
///     O 08:00 --slow--> D 09:30                      one ride, leaves first, arrives last
///     O 08:05 --a-0805--> X 08:22                    X later than a-0810 reaches it
///     O 08:10 --a-0810--> X 08:20 --b (08:25)--> Y 08:35 --c (08:40)--> D 08:50
///
/// Worked out by hand from journey-semantics.md ("Range"): leaving in [07:55, 08:25), the
/// 08:10 journey (three rides, at D 08:50) and the slow ride (one ride, at D 09:30) are
/// each beaten by no other; leaving at 08:05 reaches X at 08:22 and can only go on with
/// the same b and c, so it is beaten by the 08:10 journey (later, as early, as many rides).
final class JourneyRangePruningTests: XCTestCase {
    static let feed: [String: String?] = [
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        O,Origin,48.0,7.0
        X,Cross,48.1,7.0
        Y,Yard,48.2,7.0
        D,Destination,48.3,7.0

        """,
        "routes.txt": "route_id,route_short_name,route_type\nS,S,3\nA,A,3\nB,B,3\nC,C,3\n",
        "trips.txt": "route_id,service_id,trip_id\nS,D,slow\nA,D,a-0805\nA,D,a-0810\nB,D,b\nC,D,c\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        slow,08:00:00,08:00:00,O,1
        slow,09:30:00,09:30:00,D,2
        a-0805,08:05:00,08:05:00,O,1
        a-0805,08:22:00,08:22:00,X,2
        a-0810,08:10:00,08:10:00,O,1
        a-0810,08:20:00,08:20:00,X,2
        b,08:25:00,08:25:00,X,1
        b,08:35:00,08:35:00,Y,2
        c,08:40:00,08:40:00,Y,1
        c,08:50:00,08:50:00,D,2

        """,
    ]

    /// The slow ride stays: the later departure reached D earlier, but only with more rides
    /// (a search pruned by a later departure's best label of any round would lose it).
    func testALaterDepartureWithMoreRidesKeepsAnEarlierOneWithFewer() throws {
        let bundle = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(Self.feed).bundle))
        let at = try QueryTime.parse("2026-03-10T07:55")
        XCTAssertEqual(
            journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), departingAt: at, within: 30 * 60)),
            ["1: slow 08:00-09:30", "3: a-0810 b c 08:10-08:50"])
        // Each departure on its own: the 08:05 journey exists, and is what the range leaves out.
        XCTAssertEqual(
            journeySummary(try bundle.journeys(from: .stop("O"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T08:05"))),
            ["3: a-0810 b c 08:10-08:50"], "leaving at 08:05 the 08:10 trip is still the best")
        var first = JourneyOptions()
        first.rangeSearches = 2
        let cut = try bundle.journeyRange(from: .stop("O"), to: .stop("D"), departingAt: at, within: 30 * 60, options: first)
        // The window up to 08:10 (its departures 08:00 and 08:05): the 08:05 journey is then
        // beaten by none (the 08:10 search is not run).
        XCTAssertEqual(cut.endLocal.description.prefix(16), "2026-03-10T08:10")
        XCTAssertFalse(cut.isComplete)
        XCTAssertEqual(journeySummary(cut.journeys), ["1: slow 08:00-09:30", "3: a-0805 b c 08:05-08:50"])
        // The slow ride ending at Y (too late for c): only the 08:10 journey.
        var fast = Self.feed
        fast["stop_times.txt"] = (Self.feed["stop_times.txt"]!!).replacingOccurrences(
            of: "slow,09:30:00,09:30:00,D,2\n", with: "slow,09:30:00,09:30:00,Y,2\n")
        let without = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(fast).bundle))
        XCTAssertEqual(
            journeySummary(try without.journeys(from: .stop("O"), to: .stop("D"), departingAt: at, within: 30 * 60)),
            ["3: a-0810 b c 08:10-08:50"])
    }
}
