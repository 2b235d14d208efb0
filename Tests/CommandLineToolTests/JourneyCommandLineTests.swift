import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// `transit-query plan` and the batch op `plan`: their JSON decodes to the library's own
/// journeys; bad places and options are refused with the documented exit status.
extension CommandLineTests {
    private func journeyBundle() throws -> String {
        try XCTUnwrap(TestSupport.compile(TestFeeds.journeys).bundle)
    }

    func testPlanJSONIsTheLibrarysJourneys() throws {
        let bundle = try journeyBundle()
        let result = try run(
            "transit-query", ["plan", "--bundle", bundle, "--from", "A", "--to", "D", "--at", "2026-03-10T07:55", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        struct Answer: Decodable { let journeys: [Journey] }
        let decoded = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8)).journeys
        let library = try TransitBundle(path: bundle).journeys(
            from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T07:55"))
        XCTAssertEqual(decoded, library)
        XCTAssertEqual(decoded.map(\.rides), [2, 1])
        // A ride's trip fields are also at the leg's top level, for scripts.
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let legs = try XCTUnwrap(((object["journeys"] as? [[String: Any]])?.first)?["legs"] as? [[String: Any]])
        XCTAssertEqual(legs.map { $0["kind"] as? String }, ["ride", "walk", "ride"])
        XCTAssertEqual(legs[0]["trip_id"] as? String, "R1a")
        XCTAssertEqual(legs[0]["service_date"] as? String, "2026-03-10")
        XCTAssertEqual(legs[0]["departure"] as? String, "2026-03-10T08:00:00+01:00")
        XCTAssertEqual(legs[1]["from_stop"] as? String, "B")
        XCTAssertEqual(legs[1]["to_stop"] as? String, "B2")
    }

    func testPlanTextIsAnItinerary() throws {
        let bundle = try journeyBundle()
        let result = try run("transit-query", ["plan", "--bundle", bundle, "--from", "48.0,7.0", "--to", "D", "--at", "2026-03-10T07:55"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("journey 1: 08:00 -> 08:25, 25 min, 2 rides"), result.stdout)
        XCTAssertTrue(result.stdout.contains("08:10-08:10  walk 22 m from B to B2"), result.stdout)
        let arriving = try run(
            "transit-query", ["plan", "--bundle", bundle, "--from", "A", "--to", "D", "--at", "2026-03-10T09:10", "--arrive-by"])
        XCTAssertTrue(arriving.stdout.hasPrefix("journey 1: 08:05 -> 09:10, 65 min, 1 ride"), arriving.stdout)
    }

    func testPlanInBatchAndItsRefusals() throws {
        let bundle = try journeyBundle()
        let lines = """
            {"id":1,"op":"plan","from":"A","to":"D","at":"2026-03-10T07:55","max_transfers":0}
            {"id":2,"op":"plan","from":"A","to":"NOPE","at":"2026-03-10T07:55"}
            {"id":3,"op":"plan","from":"A","to":"D","at":"2026-03-10T07:55","walk_speed":0}

            """
        let result = try run("transit-query", ["batch", "--bundle", bundle], input: lines)
        let answers = result.stdout.split(separator: "\n").map { String($0) }
        XCTAssertEqual(answers.count, 3, result.stdout)
        XCTAssertTrue(answers[0].hasPrefix("{\"id\":1,\"journeys\":[{"), answers[0])
        XCTAssertTrue(answers[0].contains("\"trip_id\":\"R3a\""), answers[0])
        XCTAssertTrue(answers[1].contains("\"code\":\"unknown_stop\""), answers[1])
        XCTAssertTrue(answers[2].contains("\"code\":\"bad_query\""), answers[2])
        let unknown = try run(
            "transit-query", ["plan", "--bundle", bundle, "--from", "NOPE", "--to", "D", "--at", "2026-03-10T07:55", "--json"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stdout.contains("\"code\":\"unknown_stop\""), unknown.stdout + unknown.stderr)
        XCTAssertEqual(
            try run("transit-query", ["plan", "--bundle", bundle, "--from", "A", "--to", "95,7", "--at", "2026-03-10T07:55"]).status, 64)
        XCTAssertEqual(
            try run(
                "transit-query",
                ["plan", "--bundle", bundle, "--from", "A", "--to", "D", "--arrive-by", "--window", "10", "--at", "2026-03-10T07:55"]
            ).status, 64)
        XCTAssertEqual(
            try run("transit-query", ["plan", "--bundle", bundle, "--from", "A", "--to", "D", "--at", "2031-01-01T08:00"]).status, 1)
    }
}

/// `plan --realtime`: the command line and batch lines ride on the same live times as the
/// library's realtime variant.
extension CommandLineTests {
    /// A trip-updates message at 2026-03-10T08:00:00+01:00 cancelling `trip` that day.
    static func cancelling(_ trip: String) throws -> Data {
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = 1_773_126_000
        var entity = TransitRealtime_FeedEntity()
        entity.id = trip
        entity.tripUpdate.trip.tripID = trip
        entity.tripUpdate.trip.startDate = "20260310"
        entity.tripUpdate.trip.scheduleRelationship = .canceled
        feed.entity = [entity]
        return try feed.serializedData()
    }

    func testPlanOnLiveTimes() throws {
        let bundle = try XCTUnwrap(TestSupport.compile(TestFeeds.journeys).bundle)
        let file = TemporaryFolders.make().appendingPathComponent("updates.pb").path
        try Self.cancelling("R4a").write(to: URL(fileURLWithPath: file))

        let arguments = ["plan", "--bundle", bundle, "--from", "A", "--to", "D", "--at", "2026-03-10T07:55", "--json"]
        let planned = try run("transit-query", arguments + ["--realtime", file, "--now", "2026-03-10T08:01"])
        XCTAssertEqual(planned.status, 0, planned.stderr)
        struct Answer: Decodable { let journeys: [Journey] }
        let decoded = try JSONDecoder().decode(Answer.self, from: Data(planned.stdout.utf8)).journeys
        let opened = try TransitBundle(path: bundle)
        let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(contentsOf: file)], bundle: opened)
        let library = try opened.journeys(
            from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T07:55"), realtime: snapshot,
            now: Date(timeIntervalSince1970: 1_773_126_060))
        XCTAssertEqual(decoded, library)
        XCTAssertFalse(decoded.contains { $0.legs.contains { $0.boarding?.tripID == "R4a" } }, "the cancelled trip is not ridden")
        // Without live data the cancelled trip makes the earliest arrival: the two answers differ.
        let scheduled = try run("transit-query", arguments)
        XCTAssertTrue(scheduled.stdout.contains("\"trip_id\":\"R4a\""), scheduled.stdout)

        let batch = try run(
            "transit-query", ["batch", "--bundle", bundle, "--realtime", file, "--now", "2026-03-10T08:01"],
            input: "{\"id\":1,\"op\":\"plan\",\"from\":\"A\",\"to\":\"D\",\"at\":\"2026-03-10T07:55\"}\n")
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertTrue(batch.stdout.contains("\"trip_id\":\"R2a\""), batch.stdout)
        XCTAssertFalse(batch.stdout.contains("\"trip_id\":\"R4a\""), batch.stdout)
        // --now without --realtime is a usage error.
        XCTAssertEqual(try run("transit-query", arguments + ["--now", "2026-03-10T08:01"]).status, 64)
    }

    /// `--range-searches` (batch: "range_searches") searches a window's earliest instants
    /// only, and the answer says where it stopped: in the text and as `searched_until`.
    func testARangeCutByItsBudgetSaysWhereItStopped() throws {
        let bundle = TestSupport.sampleBundlePath
        let args = [
            "plan", "--bundle", bundle, "--from", "CENTRAL", "--to", "TIEFENBRUNNEN", "--at", "2026-03-30T08:00", "--window", "360",
        ]
        let whole = try run("transit-query", args)
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertFalse(whole.stdout.contains("searched until"), whole.stdout)
        let cut = try run("transit-query", args + ["--range-searches", "2"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        XCTAssertTrue(cut.stdout.contains("searched until 2026-03-30T"), cut.stdout)
        XCTAssertLessThan(cut.stdout.components(separatedBy: "journey ").count, whole.stdout.components(separatedBy: "journey ").count)
        let json = try run("transit-query", args + ["--range-searches", "2", "--json"])
        XCTAssertTrue(json.stdout.contains("\"searched_until\":\"2026-03-30T"), json.stdout)
        let lines = """
            {"id":1,"op":"plan","from":"CENTRAL","to":"TIEFENBRUNNEN","at":"2026-03-30T08:00","window":360,"range_searches":2}
            {"id":2,"op":"plan","from":"CENTRAL","to":"TIEFENBRUNNEN","at":"2026-03-30T08:00","window":360}
            {"id":3,"op":"plan","from":"CENTRAL","to":"TIEFENBRUNNEN","at":"2026-03-30T08:00","window":360,"range_searches":0}

            """
        let answers = try run("transit-query", ["batch", "--bundle", bundle], input: lines).stdout.split(separator: "\n").map { String($0) }
        XCTAssertEqual(answers.count, 3)
        XCTAssertTrue(answers[0].contains("\"searched_until\":\"2026-03-30T"), answers[0])
        XCTAssertFalse(answers[1].contains("searched_until"), answers[1])
        XCTAssertTrue(answers[2].contains("\"code\":\"bad_query\""), answers[2])
        XCTAssertEqual(try run("transit-query", args + ["--range-searches", "0"]).status, 64)
    }
}
