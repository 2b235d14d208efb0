import Foundation
import TestKit
import XCTest

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
