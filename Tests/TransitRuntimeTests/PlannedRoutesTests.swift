import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitSQLite
import XCTest

@testable import TransitRuntime

/// The planner's routes the compiler writes (`planner_sequences`, `planner_routes`) are
/// the routes worked out from the bundle's patterns, array for array; a bundle without
/// them is refused by name; and crafted rows in those tables are refused as damage on the
/// first journey, never a trap.
final class PlannedRoutesTests: XCTestCase {
    /// A copy of the sample bundle edited by `sql`.
    private func copy(_ sql: String) throws -> String { try TestSupport.sampleBundleCopy(editedBy: sql) }

    private static let metroStops = ["CENTRAL", "BELLEVUE", "OPERA", "TIEFENBRUNNEN", "OERLIKON", "AIRPORT", "HUB"]

    /// The routes worked out from `db`'s patterns and frequencies, as the compiler plans them.
    static func workedOut(_ db: SQLiteDatabase) throws -> RouteTables {
        let maxSid = try db.scalarInt("SELECT MAX(sid) FROM stops") ?? 0
        let windows = try FrequencyTable.all(db: db).mapValues { list in
            list.map { (start: $0.startSecs, end: $0.endSecs, headway: max(1, $0.headwaySecs), exact: $0.exactTimes) }
        }
        return RouteTables(try RoutePlan(patternsIn: db, maxSid: maxSid), windows: windows, stopCount: maxSid + 1)
    }

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
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        let a = try RoutingNetwork(db: db).tables
        Self.assertSameTables(a, try Self.workedOut(db), "samples")
        XCTAssertGreaterThan(a.routes.count, 1)
        XCTAssertFalse(a.templates.isEmpty, "the samples have frequency-based trips")
    }

    func testABundleWithoutPlannedRoutesIsRefusedByName() throws {
        for table in ["planner_routes", "planner_sequences", "planner_walks"] {
            XCTAssertThrowsError(try TransitBundle(path: try copy("DROP TABLE \(table)"))) { error in
                guard case TransitError.notABundle(_, let why) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(why, "table \(table) is missing")
            }
        }
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
            XCTAssertEqual(why, "planner_routes is a view, not a table")
        }
    }
}

/// Planner tables that disagree with the timetable they were made from, as a crafted
/// bundle's would (a route's starts shifted or zeroed, its stop sequence reversed, rotated
/// or another's of the same length): no journey has a leg the timetable contradicts, each
/// query either answers with legs at the times and stops its boards show or refuses.
final class PlannerDisagreementTests: XCTestCase {
    private typealias Edit = (
        name: String, trips: ([PlannerRoutesBlob.Entry]) -> [PlannerRoutesBlob.Entry], stops: (RoutePlan.Sequence) -> RoutePlan.Sequence
    )

    /// A copy of the sample whose every planner route and sequence `edit` changed.
    private func edited(_ edit: Edit) throws -> String {
        let path = try TestSupport.sampleBundleCopy(editedBy: "SELECT 1")
        let db = try SQLiteDatabase(path: path, writable: true)
        let maxSid = try XCTUnwrap(try db.scalarInt("SELECT max(sid) FROM stops"))
        let routes = try db.prepare("SELECT prid, trips FROM planner_routes")
        var rewritten: [(Int, [UInt8])] = []
        while try routes.step() {
            var columns = PlannerRoutesBlob.TripColumns()
            var templates: [PlannerRoutesBlob.Entry] = []
            try PlannerRoutesBlob.decode(routes.blob(1), appendingTo: &columns, templates: &templates)
            let trips = columns.tids.indices.map {
                PlannerRoutesBlob.Entry(
                    tid: columns.tids[$0].int, start: Int(columns.starts[$0]), pid: columns.pids[$0].int,
                    accessible: columns.accessible[$0])
            }
            rewritten.append((routes.int(0), PlannerRoutesBlob.encodeTrips(edit.trips(trips), templates: templates)))
        }
        let sequences = try db.prepare("SELECT qid, fid, stops FROM planner_sequences")
        var stops: [(Int, [UInt8])] = []
        while try sequences.step() {
            let sequence = try PlannerRoutesBlob.decodeStops(sequences.blob(2), fid: sequences.int(1), maxSid: maxSid)
            stops.append((sequences.int(0), PlannerRoutesBlob.encodeStops(edit.stops(sequence))))
        }
        let putTrips = try db.prepare("UPDATE planner_routes SET trips = ?2 WHERE prid = ?1")
        for (prid, blob) in rewritten { try putTrips.run(prid, blob) }
        let putStops = try db.prepare("UPDATE planner_sequences SET stops = ?2 WHERE qid = ?1")
        for (qid, blob) in stops { try putStops.run(qid, blob) }
        return path
    }

    /// Whether `bundle`'s board at `call`'s stop (departures, or arrivals when `arriving`)
    /// has `call`'s trip at `call`'s time.
    private static func isOnBoard(_ call: Departure, arriving: Bool, of bundle: TransitBundle) throws -> Bool {
        let time = arriving ? call.arrival : call.departure
        let at = QueryTime.instant(time.addingTimeInterval(-60))
        let board =
            arriving
            ? try bundle.arrivals(to: call.stopID, feed: "metro", at: at, within: 120)
            : try bundle.departures(from: call.stopID, feed: "metro", at: at, within: 120)
        return board.contains { $0.tripID == call.tripID && (arriving ? $0.arrival : $0.departure) == time }
    }

    func testNoJourneyHasALegTheTimetableContradicts() throws {
        let same = { (s: RoutePlan.Sequence) in s }
        let rotate = { (a: [Int32]) in Array(a.dropFirst() + a.prefix(1)) }
        let edits: [Edit] = [
            (
                "starts shifted",
                {
                    $0.map {
                        var t = $0
                        t.start += 60
                        return t
                    }
                }, same
            ),
            (
                "starts zeroed",
                {
                    $0.map {
                        var t = $0
                        t.start = 0
                        return t
                    }
                }, same
            ),
            (
                "sequence reversed", { $0 },
                { RoutePlan.Sequence(fid: $0.fid, sids: $0.sids.reversed(), boards: $0.boards.reversed(), alights: $0.alights.reversed()) }
            ),
            (
                "sequence rotated", { $0 },
                {
                    RoutePlan.Sequence(
                        fid: $0.fid, sids: rotate($0.sids), boards: Array($0.boards.dropFirst() + $0.boards.prefix(1)),
                        alights: Array($0.alights.dropFirst() + $0.alights.prefix(1)))
                }
            ),
        ]
        let stops = ["CENTRAL", "BELLEVUE", "OPERA", "TIEFENBRUNNEN", "OERLIKON", "AIRPORT", "HUB"]
        let at = QueryTime.local(LocalDate("2026-03-30")!, secondsOfDay: 8 * 3600)
        let sample = try TransitBundle(path: TestSupport.sampleBundlePath)
        var refused = 0
        var legs = 0
        for edit in edits {
            let bundle = try TransitBundle(path: try edited(edit))
            for from in stops {
                for to in stops where to != from {
                    for arriveBy in [false, true] {
                        do {
                            let found =
                                arriveBy
                                ? try bundle.journeys(from: .stop(from, feed: "metro"), to: .stop(to, feed: "metro"), arrivingBy: at)
                                : try bundle.journeys(from: .stop(from, feed: "metro"), to: .stop(to, feed: "metro"), departingAt: at)
                            for leg in found.flatMap(\.legs) where leg.kind == .ride {
                                legs += 1
                                let (boarding, alighting) = (try XCTUnwrap(leg.boarding), try XCTUnwrap(leg.alighting))
                                XCTAssertEqual(leg.departure, boarding.departure, "\(edit.name) \(from) -> \(to): boarding")
                                XCTAssertEqual(leg.arrival, alighting.arrival, "\(edit.name) \(from) -> \(to): alighting")
                                // The unedited bundle's boards have the ride's two calls.
                                XCTAssertTrue(
                                    try Self.isOnBoard(boarding, arriving: false, of: sample),
                                    "\(edit.name) \(from) -> \(to): \(boarding.tripID) at \(boarding.departureTime) is on no board")
                                XCTAssertTrue(
                                    try Self.isOnBoard(alighting, arriving: true, of: sample),
                                    "\(edit.name) \(from) -> \(to): \(alighting.tripID) at \(alighting.arrivalLocal) arrives on no board")
                            }
                        } catch TransitError.corruptBundle(let reason) {
                            XCTAssertTrue(reason.hasPrefix("the planner's routes disagree with the timetable"), "\(edit.name): \(reason)")
                            refused += 1
                        }
                    }
                }
            }
        }
        print("planner disagreements: \(refused) queries refused, \(legs) ride legs checked")
        XCTAssertGreaterThan(refused, 0)
    }
}
