import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitSQLite
import XCTest

@testable import TransitRuntime

/// The planner's routes the compiler writes (`planner_sequences`, `planner_routes`) are
/// the routes the runtime works out from the patterns of a bundle without them, array for
/// array; such a bundle (an earlier compiler's) answers the same journeys; and crafted
/// rows in those tables are refused as damage on the first journey, never a trap.
final class PlannedRoutesTests: XCTestCase {
    /// A copy of the sample bundle edited by `sql`.
    private func copy(_ sql: String) throws -> String { try TestSupport.sampleBundleCopy(editedBy: sql) }

    private static let metroStops = ["CENTRAL", "BELLEVUE", "OPERA", "TIEFENBRUNNEN", "OERLIKON", "AIRPORT", "HUB"]

    private static let withoutPlan = "DROP TABLE planner_routes; DROP TABLE planner_sequences"

    /// Every array of the planned tables equals the one worked out from the patterns.
    static func assertSameTables(_ a: RouteTables, _ b: RouteTables, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.routes.count, b.routes.count, "\(name): routes", file: file, line: line)
        for (x, y) in zip(a.routes, b.routes) {
            XCTAssertTrue(
                x.fid == y.fid && x.sv == y.sv && x.firstStop == y.firstStop && x.stopCount == y.stopCount && x.firstTrip == y.firstTrip
                    && x.tripCount == y.tripCount && x.templateRange == y.templateRange, "\(name): a route differs", file: file, line: line)
        }
        XCTAssertEqual(a.stopSid, b.stopSid, "\(name): stops", file: file, line: line)
        XCTAssertEqual(a.stopBoards, b.stopBoards, "\(name): boarding", file: file, line: line)
        XCTAssertEqual(a.stopAlights, b.stopAlights, "\(name): alighting", file: file, line: line)
        XCTAssertEqual(a.patternPid, b.patternPid, "\(name): patterns", file: file, line: line)
        XCTAssertEqual(a.offsetDeparture, b.offsetDeparture, "\(name): departure offsets", file: file, line: line)
        XCTAssertEqual(a.offsetArrival, b.offsetArrival, "\(name): arrival offsets", file: file, line: line)
        XCTAssertEqual(a.tripStart, b.tripStart, "\(name): trip starts", file: file, line: line)
        XCTAssertEqual(a.tripTid, b.tripTid, "\(name): trip ids", file: file, line: line)
        XCTAssertEqual(a.tripAccessible, b.tripAccessible, "\(name): accessibility", file: file, line: line)
        XCTAssertEqual(a.tripOffsets, b.tripOffsets, "\(name): trip offsets", file: file, line: line)
        XCTAssertEqual(a.placeFirst, b.placeFirst, "\(name): places by stop", file: file, line: line)
        XCTAssertEqual(a.places.map(\.route), b.places.map(\.route), "\(name): places", file: file, line: line)
        XCTAssertEqual(a.places.map(\.idx), b.places.map(\.idx), "\(name): places", file: file, line: line)
        XCTAssertEqual(a.templates.count, b.templates.count, "\(name): templates", file: file, line: line)
        for (x, y) in zip(a.templates, b.templates) {
            XCTAssertTrue(
                x.tid == y.tid && x.sv == y.sv && x.accessible == y.accessible && x.offsets == y.offsets && x.pattern == y.pattern
                    && x.windows.map(\.start) == y.windows.map(\.start) && x.windows.map(\.headway) == y.windows.map(\.headway),
                "\(name): template \(x.tid) differs", file: file, line: line)
        }
    }

    func testThePlannedRoutesAreTheRoutesWorkedOutFromThePatterns() throws {
        let planned = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        XCTAssertTrue(try RouteTables.arePlanned(in: planned))
        let worked = try SQLiteDatabase(path: try copy(Self.withoutPlan), writable: false)
        XCTAssertFalse(try RouteTables.arePlanned(in: worked))
        let a = try RoutingNetwork(db: planned).tables
        let b = try RoutingNetwork(db: worked).tables
        Self.assertSameTables(a, b, "samples")
        XCTAssertGreaterThan(a.routes.count, 1)
        XCTAssertFalse(a.templates.isEmpty, "the samples have frequency-based trips")
    }

    func testABundleWithoutPlannedRoutesAnswersTheSameJourneys() throws {
        let bundle = TestSupport.sampleBundle
        let earlier = try TransitBundle(path: try copy(Self.withoutPlan))
        let places =
            Self.metroStops.map { JourneyPlace.stop($0, feed: "metro") }
            + ["HUB", "MILL", "FALLS", "CAFE"].map {
                JourneyPlace.stop($0, feed: "valley")
            }
        var answered = 0
        for from in places {
            for to in places where to != from {
                for hour in [7, 12, 18] {
                    // A day both feeds' calendars cover (valley runs in October and November).
                    let at = QueryTime.local(LocalDate("2026-11-11")!, secondsOfDay: hour * 3600)
                    let mine = try bundle.journeys(from: from, to: to, departingAt: at)
                    let theirs = try earlier.journeys(from: from, to: to, departingAt: at)
                    XCTAssertEqual(mine, theirs, "\(from) -> \(to) at \(hour):00")
                    answered += mine.isEmpty ? 0 : 1
                }
            }
        }
        XCTAssertGreaterThan(answered, 20)
    }

    /// The count the compiler writes for the read to size the offsets' arrays is the
    /// number of stops of the patterns of two stops or more, counted here from the
    /// `patterns` rows; a crafted count (none, negative, not a number, beyond any plan)
    /// changes no answer.
    func testThePatternStopCountIsThePatternsStops() throws {
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        var stops = 0
        let rows = try db.prepare("SELECT stops FROM patterns")
        while try rows.step() {
            let count = try PatternStopsBlob.decode(rows.blob(0)).count
            stops += count >= 2 ? count : 0
        }
        XCTAssertGreaterThan(stops, 10)
        let written = try db.prepare("SELECT value FROM metadata WHERE key = 'planner_pattern_stops'")
        XCTAssertTrue(try written.step())
        XCTAssertEqual(written.string(0), String(stops))
        let bundle = TestSupport.sampleBundle
        let (from, to) = (JourneyPlace.stop("CENTRAL", feed: "metro"), JourneyPlace.stop("AIRPORT", feed: "metro"))
        let at = QueryTime.local(LocalDate("2026-11-11")!, secondsOfDay: 12 * 3600)
        let expected = try bundle.journeys(from: from, to: to, departingAt: at)
        XCTAssertFalse(expected.isEmpty)
        for value in ["-5", "'many'", "99999999999", "1"] {
            let crafted = try TransitBundle(
                path: try copy("UPDATE metadata SET value = \(value) WHERE key = 'planner_pattern_stops'"))
            XCTAssertEqual(try crafted.journeys(from: from, to: to, departingAt: at), expected, value)
        }
        let without = try TransitBundle(path: try copy("DELETE FROM metadata WHERE key = 'planner_pattern_stops'"))
        XCTAssertEqual(try without.journeys(from: from, to: to, departingAt: at), expected)
    }

    /// One crafted change each to the planner's tables, and the reason the first journey
    /// gives for refusing it.
    func testCraftedPlannerRowsAreRefusedOnTheFirstJourney() throws {
        func hex(_ bytes: [UInt8]) -> String { "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'" }
        let farStop = RoutePlan.Sequence(fid: 1, sids: [1, 9_999_999], boards: [true, false], alights: [false, true])
        let unknownPattern = PlannerRoutesBlob.encodeTrips(
            [.init(tid: 1, start: 3600, pid: 987_654, accessible: false)], templates: [])
        let cases: [(sql: String, reason: String)] = [
            (
                "UPDATE planner_sequences SET stops = \(hex(PlannerRoutesBlob.encodeStops(farStop))) WHERE qid = 1",
                "planner sequence 1 is damaged"
            ),
            ("UPDATE planner_sequences SET stops = x'ff' WHERE qid = 1", "planner sequence 1 is damaged"),
            ("UPDATE planner_sequences SET qid = 999 WHERE qid = 1", "out of order (expected 1)"),
            ("UPDATE planner_sequences SET fid = 7 WHERE qid = 1", "sequence 1 names feed 7"),
            ("UPDATE planner_routes SET qid = 99999 WHERE prid = 1", "a route names sequence 99999"),
            ("UPDATE planner_routes SET sv = -1 WHERE prid = 1", "a route names service -1"),
            ("UPDATE planner_routes SET trips = \(hex(unknownPattern)) WHERE prid = 1", "names pattern 987654"),
            ("UPDATE planner_routes SET trips = x'0102' WHERE prid = 1", "is damaged"),
            // A route whose trips follow patterns of another length than its stops.
            (
                "UPDATE planner_routes SET qid = (SELECT qid FROM planner_sequences WHERE length(stops) <> "
                    + "(SELECT length(stops) FROM planner_sequences WHERE qid = 1) ORDER BY qid LIMIT 1) WHERE prid = 1",
                "of another length"
            ),
        ]
        try TestSupport.assertFirstJourneyRefuses(cases)
        let view = try copy("DROP TABLE planner_routes; CREATE VIEW planner_routes(prid, qid, sv, trips) AS SELECT 1, 1, 0, x'00'")
        XCTAssertThrowsError(try TransitBundle(path: view)) { error in
            guard case TransitError.corruptBundle(let why) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(why, "planner_routes is not a plain table")
        }
    }
}
