import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitSQLite
import XCTest

@testable import TransitRuntime

/// The walks the compiler stores (`planner_walks`) are, for the default transfer distance
/// and any shorter one, the walks the runtime finds from the coordinates of a bundle
/// without them, to the bit; a longer distance finds its own; a bundle without the table
/// (an earlier compiler's) answers the same journeys; and crafted rows are refused as
/// damage on the first journey, never a trap.
final class PlannedWalksTests: XCTestCase {
    private func copy(_ sql: String) throws -> String { try TestSupport.sampleBundleCopy(editedBy: sql) }

    /// Each stop's walks, sorted by sid, as (sid, metres).
    private func walks(_ network: RoutingNetwork, within metres: Double) -> [[[Float]]] {
        let paths = TransferTimes.footpaths(network, within: metres)
        return (0..<network.stopCount).map { sid in
            paths[sid].map { [Float($0.sid), $0.distance] }.sorted { $0[0] < $1[0] }
        }
    }

    func testStoredWalksAreTheWalksFoundFromTheCoordinates() throws {
        let stored = try TestSupport.sampleBundle.pool.with { db in try RoutingNetwork(db: db) }
        let found = try SQLiteDatabase(path: try copy("DELETE FROM planner_walks"), writable: false)
        let searched = try RoutingNetwork(db: found)
        XCTAssertEqual(stored.storedWalks?.metres, 400)
        XCTAssertNil(searched.storedWalks)
        for metres in [400.0, 250, 100, 0, 900] {
            let mine = walks(stored, within: metres)
            XCTAssertEqual(mine, walks(searched, within: metres), "within \(metres) m")
            // Every walk is of a served stop, both ways, and no longer than asked.
            for (sid, list) in mine.enumerated() {
                for walk in list {
                    XCTAssertTrue(stored.serves(sid) && stored.serves(Int(walk[0])) && walk[1] <= Float(metres))
                    XCTAssertTrue(mine[Int(walk[0])].contains([Float(sid), walk[1]]), "\(sid) -> \(walk[0]) one way only")
                }
            }
            if metres == 400 { XCTAssertGreaterThan(mine.map(\.count).reduce(0, +), 0, "the samples have walks") }
        }
    }

    func testABundleWithoutStoredWalksAnswersTheSameJourneys() throws {
        let bundle = TestSupport.sampleBundle
        let earlier = try TransitBundle(path: try copy("DELETE FROM planner_walks"))
        let stops = ["CENTRAL", "BELLEVUE", "OPERA", "TIEFENBRUNNEN", "OERLIKON", "AIRPORT", "HUB"]
        let places =
            stops.map { JourneyPlace.stop($0, feed: "metro") } + ["HUB", "MILL", "CAFE"].map { JourneyPlace.stop($0, feed: "valley") }
        var answered = 0
        for from in places {
            for to in places where to != from {
                for (hour, options) in [
                    (8, JourneyOptions()), (17, JourneyOptions(transferDistance: 150)), (12, JourneyOptions(transferDistance: 1200)),
                ] {
                    let at = QueryTime.local(LocalDate("2026-11-11")!, secondsOfDay: hour * 3600)
                    let mine = try bundle.journeys(from: from, to: to, departingAt: at, options: options)
                    XCTAssertEqual(
                        mine, try earlier.journeys(from: from, to: to, departingAt: at, options: options), "\(from) -> \(to) at \(hour):00")
                    answered += mine.isEmpty ? 0 : 1
                }
            }
        }
        XCTAssertGreaterThan(answered, 20)
    }

    /// A row's blob round-trips, lists of stops without walks included.
    func testTheBlobHoldsEachStopsHigherNeighbours() throws {
        let blob = PlannerWalksBlob.encode([[3, 9], [], [5], []], firstSid: 1)
        let (pairs, stops) = try PlannerWalksBlob.decode(blob, firstSid: 1, maxSid: 9)
        XCTAssertEqual(pairs.map { [Int($0 >> 32), Int($0 & 0xFFFF_FFFF)] }, [[1, 3], [1, 9], [3, 5]])
        XCTAssertEqual(stops, 4)
        XCTAssertThrowsError(try PlannerWalksBlob.decode(blob, firstSid: 1, maxSid: 8), "9 is beyond the last stop")
        XCTAssertThrowsError(try PlannerWalksBlob.decode([1, 0], firstSid: 1, maxSid: 9), "a stop walking to itself")
        XCTAssertThrowsError(try PlannerWalksBlob.decode([5, 1], firstSid: 1, maxSid: 9), "five walks in one byte")
        XCTAssertThrowsError(try PlannerWalksBlob.decode([0], firstSid: 10, maxSid: 9), "a stop beyond the last")
    }

    /// One crafted change each to `planner_walks`, and the reason the first journey gives
    /// for refusing it.
    func testCraftedWalkRowsAreRefusedOnTheFirstJourney() throws {
        let cases: [(sql: String, reason: String)] = [
            ("UPDATE planner_walks SET walks = x'01ff' WHERE first_sid = 1", "walk row of stop 1 is damaged"),
            ("UPDATE planner_walks SET walks = x'0100' WHERE first_sid = 1", "walk row of stop 1 is damaged"),
            ("UPDATE planner_walks SET within_metres = -5", "is for -5 m"),
            ("INSERT INTO planner_walks VALUES (2, 400, x'00')", "the row of stop 2 overlaps"),
            ("INSERT INTO planner_walks VALUES (9000000, 300, x'')", "is for 300 m"),
            ("INSERT INTO planner_walks VALUES (9000000, 400, x'00')", "walk row of stop 9000000 is damaged"),
        ]
        try TestSupport.assertFirstJourneyRefuses(cases)
        let view = try copy("DROP TABLE planner_walks; CREATE VIEW planner_walks(first_sid, within_metres, walks) AS SELECT 1, 400, x'00'")
        XCTAssertThrowsError(try TransitBundle(path: view)) { error in
            guard case TransitError.corruptBundle(let why) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(why, "planner_walks is a view, not a table")
        }
    }
}
