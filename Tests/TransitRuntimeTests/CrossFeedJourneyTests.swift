import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Two feeds in one bundle whose stops are a short walk apart (a regional bundle's seams):
/// journey-semantics.md walks between any two stops within the walking distance, whatever
/// their feeds, so a journey rides one feed, walks, and rides the other.
///
///     feed north: A (48.00, 7.00) --R1a 08:00--> B (48.01, 7.00) 08:10 --> C 08:20
///     feed south: B2 (48.0102, 7.00: 22 m from B) 08:14 --R4a--> D 08:25;
///                 B2 08:40 --R5a--> D 09:30
///     feed north also: A 08:05 --R3a (one slow ride)--> C 09:40
final class CrossFeedJourneyTests: XCTestCase {
    /// The agency and the every-day calendar of the minimal feed, in both feeds.
    private static let agency = TestSupport.minimalFeed["agency.txt"]!
    private static let calendar = TestSupport.minimalFeed["calendar.txt"]!

    private static let north: [String: String] = [
        "agency.txt": agency, "calendar.txt": calendar,
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,48.0,7.0\nB,Bravo,48.01,7.0\nC,Charlie,48.02,7.0\n",
        "routes.txt": "route_id,route_short_name,route_type\nR1,1,3\nR3,3,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,D,R1a\nR3,D,R3a\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        R1a,08:00:00,08:00:00,A,1
        R1a,08:10:00,08:10:00,B,2
        R1a,08:20:00,08:20:00,C,3
        R3a,08:05:00,08:05:00,A,1
        R3a,09:40:00,09:40:00,C,2

        """,
    ]

    private static let south: [String: String] = [
        "agency.txt": agency, "calendar.txt": calendar,
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nB2,Bravo East,48.0102,7.0\nD,Delta,48.03,7.0\n",
        "routes.txt": "route_id,route_short_name,route_type\nR4,4,3\nR5,5,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR4,D,R4a\nR5,D,R5a\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        R4a,08:14:00,08:14:00,B2,1
        R4a,08:25:00,08:25:00,D,2
        R5a,08:40:00,08:40:00,B2,1
        R5a,09:30:00,09:30:00,D,2

        """,
    ]

    private static let bundle: TransitBundle = {
        let directory = TemporaryFolders.make()
        var feeds: [CompileRequest.Feed] = []
        for (name, files) in [("north", north), ("south", south)] {
            let folder = directory.appendingPathComponent(name)
            try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            feeds.append(.init(name: name, path: TestSupport.writeFeed(files, in: folder)))
        }
        let output = directory.appendingPathComponent("region.db").path
        _ = try! Compiler.compile(CompileRequest(feeds: feeds, outputPath: output))
        return try! TransitBundle(path: output)
    }()

    func testAJourneyRidesOneFeedWalksAndRidesTheOther() throws {
        let from = StopRef(feedID: "north", stopID: "A")
        let to = StopRef(feedID: "south", stopID: "D")
        let journeys = try Self.bundle.journeys(from: .stop(from), to: .stop(to), departingAt: try QueryTime.parse("2026-03-10T07:55"))
        // Worked out by hand: R1a reaches B at 08:10; 22 m on foot (19 s) and the 120 s
        // change make 08:12:19, in time for R4a at B2 (08:14), at D 08:25. No journey
        // with one ride reaches D (it is only in the south feed).
        XCTAssertEqual(journeys.count, 1)
        let journey = try XCTUnwrap(journeys.first)
        XCTAssertEqual(journey.legs.map { $0.boarding?.tripID ?? "walk" }, ["R1a", "walk", "R4a"])
        XCTAssertEqual(journey.legs.map(\.fromStop), [from, StopRef(feedID: "north", stopID: "B"), StopRef(feedID: "south", stopID: "B2")])
        XCTAssertEqual(journey.legs.map(\.toStop), [StopRef(feedID: "north", stopID: "B"), StopRef(feedID: "south", stopID: "B2"), to])
        XCTAssertEqual(journey.legs[0].boarding?.feedID, "north")
        XCTAssertEqual(journey.legs[2].boarding?.feedID, "south")
        XCTAssertEqual(journey.arrivalLocal.description, "2026-03-10T08:25:00+01:00")
        XCTAssertEqual(journey.rides, 2)
        let walk = journey.legs[1]
        XCTAssertEqual(try XCTUnwrap(walk.distance), 22, accuracy: 1)
    }

    func testArriveByCrossesTheSameSeamBackwards() throws {
        // Arriving by 09:35: the latest departure from A is R1a at 08:00 (the only trip to
        // B); leaving then, the journey arrives as early as it can: R4a at 08:25, not R5a.
        let journeys = try Self.bundle.journeys(
            from: .stop(StopRef(feedID: "north", stopID: "A")), to: .stop(StopRef(feedID: "south", stopID: "D")),
            arrivingBy: try QueryTime.parse("2026-03-10T09:35"))
        XCTAssertEqual(journeys.map { $0.legs.map { $0.boarding?.tripID ?? "walk" } }, [["R1a", "walk", "R4a"]])
        XCTAssertEqual(journeys.first?.departureLocal.description, "2026-03-10T08:00:00+01:00")
    }

    func testBoardsAndSearchSpanBothFeeds() throws {
        // B and B2 as one corner: both feeds' departures merged by time.
        let corner = try Self.bundle.departures(
            from: [StopRef(feedID: "north", stopID: "B"), StopRef(feedID: "south", stopID: "B2")],
            at: try QueryTime.parse("2026-03-10T08:05"))
        XCTAssertEqual(corner.map { "\($0.feedID) \($0.tripID)" }, ["north R1a", "south R4a", "south R5a"])
        let hits = try Self.bundle.stops(matching: "bravo").map { "\($0.feedID)/\($0.stopID)" }
        XCTAssertEqual(Set(hits), ["north/B", "south/B2"])
    }
}
