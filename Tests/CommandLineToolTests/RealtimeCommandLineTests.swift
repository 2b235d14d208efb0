import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// `transit-query realtime` and `departures --realtime`: their JSON decodes to the library's
/// own answers; bad files are refused with a message and the documented exit status.
extension CommandLineTests {
    private func realtimeFixture() throws -> (bundle: String, file: String, snapshot: RealtimeSnapshot) {
        let bundle = try XCTUnwrap(TestSupport.compile([:]).bundle)
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = 1_773_126_000  // 2026-03-10T08:00:00+01:00
        var entity = TransitRealtime_FeedEntity()
        entity.id = "t1"
        entity.tripUpdate.trip.tripID = "T1"
        entity.tripUpdate.trip.startDate = "20260310"
        var stop = TransitRealtime_TripUpdate.StopTimeUpdate()
        stop.stopSequence = 2
        stop.departure.delay = 150
        entity.tripUpdate.stopTimeUpdate = [stop]
        var unknown = TransitRealtime_FeedEntity()
        unknown.id = "ghost"
        unknown.tripUpdate.trip.tripID = "NOPE"
        feed.entity = [entity, unknown]
        let file = TemporaryFolders.make().appendingPathComponent("updates.pb").path
        try feed.serializedData().write(to: URL(fileURLWithPath: file))
        let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(contentsOf: file)], bundle: try TransitBundle(path: bundle))
        return (bundle, file, snapshot)
    }

    func testRealtimeReportJSONIsTheLibrarysReport() throws {
        let fixture = try realtimeFixture()
        let result = try run("transit-query", ["realtime", fixture.file, "--bundle", fixture.bundle, "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try JSONDecoder().decode(RealtimeReport.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(report, fixture.snapshot.report)
        XCTAssertEqual(report.tripUpdatesMatched, 1)
        XCTAssertEqual(report.unmatched.map(\.reason), [.unknownTrip])
        let text = try run("transit-query", ["realtime", fixture.file, "--bundle", fixture.bundle])
        XCTAssertTrue(text.stdout.contains("trip updates: 1 of 2 matched"), text.stdout)
        XCTAssertTrue(text.stdout.contains("unknown_trip: entity ghost trip NOPE"), text.stdout)
    }

    func testDeparturesWithRealtimeAreTheLiveBoard() throws {
        let fixture = try realtimeFixture()
        let arguments = [
            "departures", "--bundle", fixture.bundle, "--stop", "S2", "--at", "2026-03-10T08:00", "--realtime", fixture.file, "--now",
            "2026-03-10T08:01",
        ]
        let result = try run("transit-query", arguments + ["--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let printed = try JSONDecoder().decode([LiveDeparture].self, from: Data(result.stdout.utf8))
        let library = try TransitBundle(path: fixture.bundle).departures(
            from: "S2", at: try QueryTime.parse("2026-03-10T08:00"), realtime: fixture.snapshot,
            now: Date(timeIntervalSince1970: 1_773_126_060))
        XCTAssertEqual(printed, library.departures)
        XCTAssertEqual(printed.first { $0.scheduled.tripID == "T1" }?.delay, 150)
        let text = try run("transit-query", arguments)
        XCTAssertTrue(text.stdout.contains("08:12  +3 min"), text.stdout)
        // Judged an hour later, the updates are stale: the offline board, and a note on stderr.
        let late = try run("transit-query", Array(arguments.dropLast()) + ["2026-03-10T09:00", "--json"])
        XCTAssertEqual(late.status, 0, late.stderr)
        XCTAssertTrue(late.stderr.contains("not applied"), late.stderr)
        XCTAssertFalse(late.stdout.contains("\"delay\""), late.stdout)
    }

    func testBadRealtimeFilesAreRefusedWithTheirStatus() throws {
        let fixture = try realtimeFixture()
        let garbage = TemporaryFolders.make().appendingPathComponent("garbage.pb").path
        try Data("<html>not protobuf</html>".utf8).write(to: URL(fileURLWithPath: garbage))
        let bad = try run("transit-query", ["realtime", garbage, "--bundle", fixture.bundle])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("not a GTFS-Realtime message"), bad.stderr)
        let missing = try run("transit-query", ["realtime", "/nonexistent/updates.pb", "--bundle", fixture.bundle, "--json"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stdout.contains("unreadable_realtime"), missing.stdout)
        let nowAlone = try run(
            "transit-query",
            ["departures", "--bundle", fixture.bundle, "--stop", "S2", "--at", "2026-03-10T08:00", "--now", "2026-03-10T08:00"])
        XCTAssertEqual(nowAlone.status, 64)
    }

    func testBatchAppliesRealtimeToBoardLines() throws {
        let fixture = try realtimeFixture()
        let input = """
            {"id":1,"op":"departures","stop":"S2","at":"2026-03-10T08:00"}
            {"id":2,"op":"info"}

            """
        let result = try run(
            "transit-query", ["batch", "--bundle", fixture.bundle, "--realtime", fixture.file, "--now", "2026-03-10T08:01"], input: input)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map { String($0) }
        XCTAssertEqual(lines.count, 2)
        let first = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let calls = try JSONDecoder().decode(
            [LiveDeparture].self, from: JSONSerialization.data(withJSONObject: try XCTUnwrap(first["departures"])))
        XCTAssertEqual(calls.first { $0.scheduled.tripID == "T1" }?.delay, 150)
        XCTAssertNil(first["realtime_not_applied"])
        XCTAssertTrue(lines[1].contains("\"info\""), lines[1])
        let stale = try run(
            "transit-query", ["batch", "--bundle", fixture.bundle, "--realtime", fixture.file, "--now", "2026-03-10T09:30"], input: input)
        XCTAssertTrue(stale.stdout.contains("realtime_not_applied"), stale.stdout)
    }
}
