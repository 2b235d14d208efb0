import Foundation
import TestKit
import XCTest

/// Runs `Examples/OfflineBoard` (built with the tests) as an app would run: against a local
/// download site, from an empty store folder.
final class ExampleAppTests: XCTestCase {
    func testTheExampleAppDownloadsACityAndShowsABoard() throws {
        let site = try StoreFixture()
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent("offline-board-example")
        process.arguments = [
            site.server.url("v1.json").absoluteString, TemporaryFolders.make().appendingPathComponent("store").path, "metro", "CENTRAL",
            "2026-03-30T08:00",
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "cities offered: metro, valley, both")
        XCTAssertTrue(lines.contains("download: done"), text)
        XCTAssertTrue(lines.contains("  08:00  4  Tiefenbrunnen (platform 1)"), text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("lines at CENTRAL: ") && $0.contains("4") }, text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("line of trip T4_WK_0800: ") }, text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("near ") }, text)
    }

    func testAnUnknownCityIsShownAsAnAppWould() throws {
        let site = try StoreFixture()
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent("offline-board-example")
        process.arguments = [
            site.server.url("v1.json").absoluteString, TemporaryFolders.make().appendingPathComponent("store").path, "atlantis", "X",
            "2026-03-30T08:00",
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertEqual(text, "cities offered: metro, valley, both\nThat city is not available. Refresh the list of cities.\n")
    }
}
