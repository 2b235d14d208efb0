import Foundation
import TestKit
import TestSupport
import XCTest

@testable import TransitRealtime

/// Runs `Examples/OfflineBoard` (built with the tests) as an app would run: against a local
/// download site, from an empty store folder.
final class ExampleAppTests: XCTestCase {
    /// The example's exit status and standard output for a city and stop of `site`'s v1 manifest.
    func runExample(_ site: StoreFixture, city: String, stop: String) throws -> (status: Int32, lines: [String], text: String) {
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent("offline-board-example")
        process.arguments = [
            site.server.url("v1.json").absoluteString, TemporaryFolders.make().appendingPathComponent("store").path, city, stop,
            "2026-03-30T08:00",
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text.split(separator: "\n").map(String.init), text)
    }

    func testTheExampleAppDownloadsACityAndShowsABoard() throws {
        let (status, lines, text) = try runExample(try StoreFixture(), city: "metro", stop: "CENTRAL")
        XCTAssertEqual(status, 0, text)
        XCTAssertEqual(lines.first, "cities offered: metro, valley, both")
        XCTAssertTrue(lines.contains("download: done"), text)
        XCTAssertTrue(lines.contains("  08:00  4  Tiefenbrunnen (platform 1)"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("lines at CENTRAL: ") && $0.contains("4") }, text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("line of trip T4_WK_0800: ") }, text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("near ") }, text)
    }

    func testAnUnknownCityIsShownAsAnAppWould() throws {
        let (status, _, text) = try runExample(try StoreFixture(), city: "atlantis", stop: "X")
        XCTAssertEqual(status, 1)
        XCTAssertEqual(text, "cities offered: metro, valley, both\nThat city is not available. Refresh the list of cities.\n")
    }
}

/// `Examples/TransitApp`, the app-shaped example: every screen's output from a run against
/// the local download site, with a trip update delaying the 08:00 tram by two minutes.
extension ExampleAppTests {
    func testTheAppShapedExampleRunsEveryScreen() throws {
        guard NginxServer.executable != nil else { throw TestPaths.missing("nginx is not installed; make deps installs it") }
        // The offline-mode site: its metro bundle's city lists five photos (three servable).
        let site = try OfflineSite()
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = 1_774_850_280  // 2026-03-30T07:58:00+02:00
        var entity = TransitRealtime_FeedEntity()
        entity.id = "late"
        entity.tripUpdate.trip.tripID = "T4_WK_0800"
        entity.tripUpdate.trip.startDate = "20260330"
        var update = TransitRealtime_TripUpdate.StopTimeUpdate()
        update.stopSequence = 1
        update.departure.delay = 120
        entity.tripUpdate.stopTimeUpdate = [update]
        feed.entity = [entity]
        let realtime = TemporaryFolders.make().appendingPathComponent("updates.pb")
        try feed.serializedData().write(to: realtime)

        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent("transit-app-example")
        process.arguments = [
            site.manifestURL.absoluteString, TemporaryFolders.make().appendingPathComponent("store").path, "metro", "CENTRAL",
            "Tiefenbrunnen", "2026-03-30T08:00", realtime.path, "2026-03-30T07:58",
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        let lines = text.split(separator: "\n").map(String.init)
        // Saved cities: three offered, metro downloaded with progress, the events, storage.
        XCTAssertTrue(lines.contains { $0.hasPrefix("city metro: available, ") }, text)
        XCTAssertEqual(lines.filter { $0.hasPrefix("download metro: ") }.last, "download metro: done", text)
        XCTAssertTrue(lines.contains("event: metro installed"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("storage: 1 bundle(s), ") && $0.hasSuffix("pinned: metro") }, text)
        // The board: the 08:00 tram two minutes late, on the feed's clock.
        XCTAssertTrue(lines.contains("board at CENTRAL (live):"), text)
        XCTAssertTrue(lines.contains("  08:02  4  Tiefenbrunnen (platform 1)  +2 min"), text)
        // Map, planner, timetable.
        XCTAssertTrue(lines.contains("map: Zürich Hauptbahnhof at 47.3779, 8.5403"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("map: line 4: ") }, text)
        XCTAssertTrue(lines.contains("search \"Tiefen\": Tiefenbrunnen"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("journey: 08:00 -> 08:16, ") }, text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("journey: ride 4 drawn with ") }, text)
        XCTAssertTrue(lines.contains("recent searches kept: 1, same: true"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("range search: ") }, text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("timetable at CENTRAL on 2026-03-30: 06:00 ") }, text)
        XCTAssertTrue(lines.contains("timetable of line 4 on 2026-03-30: 4 trip(s)"), text)
        // The rider's data, offline: the saved city, its note, two changes waiting.
        XCTAssertTrue(lines.contains("saved: city metro"), text)
        XCTAssertTrue(lines.contains("note on city metro: Line 4 to the lake"), text)
        XCTAssertTrue(lines.contains("pending sync: 2"), text)
        // Offline mode: the badge, the city page's photos from the device, clear all.
        XCTAssertTrue(lines.contains("badge: none (online)"), text)
        XCTAssertTrue(lines.contains("city page zurich: 3 of 5 photo(s) on the device"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("storage screen: 1 bundle(s), ") && !$0.hasSuffix("photos 0 bytes") }, text)
        XCTAssertTrue(lines.contains("job metro: done"), text)
        XCTAssertTrue(lines.contains("clear all: 0 bytes used"), text)
    }
}
