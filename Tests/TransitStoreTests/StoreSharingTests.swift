import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitStore
import XCTest

/// Two `transit-store` processes on one store folder (an app and its widget, two scripts),
/// against the fault server slowed down so that their jobs overlap.
final class StoreSharingTests: XCTestCase {
    typealias CLI = StoreCommandLineTests

    func finish(_ process: Process) -> CLI.Run { CLI.finish(process) }

    /// Waits until a partial file has bytes (the first process is mid-download).
    func waitForPartialFile(in folder: URL, file: StaticString = #filePath, line: UInt = #line) -> String? {
        let downloads = folder.appendingPathComponent("downloads")
        var found: String?
        TestClock.wait(upTo: 20) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? [] {
                let path = downloads.appendingPathComponent(name).path
                if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 { found = path }
            }
            return found != nil
        }
        if let found { return found }
        XCTFail("no partial file appeared", file: file, line: line)
        return nil
    }

    func testTwoProcessesDownloadingAtOnceEachFetchEveryFileOnce() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        // metro takes about two seconds, so the other processes start while it downloads.
        try await site.server.inject(["path": "/metro-1.db", "rate": 30_000])
        for file in ["valley.db", "both.db"] { try await site.server.inject(["path": "/" + file, "rate": 150_000]) }
        XCTAssertEqual(finish(try CLI.start(folder, ["manifest", site.server.url("v1.json").absoluteString])).status, 0)
        let first = try CLI.start(folder, ["download", "metro"])
        let part = waitForPartialFile(in: folder)
        // The second process starts while the first writes its partial file: its start-up
        // must leave that file alone, and its own job waits for the folder's job lock.
        let second = try CLI.start(folder, ["download", "valley", "--explicit"])
        let status = try CLI.start(folder, ["status", "--on", TestClock.metroDayText, "--json"])
        XCTAssertEqual(finish(status).status, 0)
        // While the first still downloads, its partial file is where it was. (Had a start-up
        // deleted it, the first would also fail or fetch the file twice: checked below.)
        if let part, !FileManager.default.fileExists(atPath: part) {
            // Gone is fine only because it was renamed into place (the bundle is there now).
            let installed = FileManager.default.fileExists(atPath: folder.appendingPathComponent("bundles/metro.db").path)
            XCTAssertTrue(installed, "a live partial file was deleted")
        }
        let (a, b) = (finish(first), finish(second))
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(b.status, 0, b.stderr)
        let requests = try await site.server.log().map(\.path)
        XCTAssertEqual(requests.filter { $0 == "/metro-1.db" }.count, 1, "\(requests)")
        XCTAssertEqual(requests.filter { $0 == "/valley.db" }.count, 1, "\(requests)")
        let bundles =
            finish(try CLI.start(folder, ["status", "--on", TestClock.metroDayText, "--json"])).json["bundles"] as? [[String: Any]] ?? []
        XCTAssertEqual(bundles.map { $0["id"] as? String }, ["metro", "valley"])
        XCTAssertEqual(bundles.map { $0["explicit"] as? Bool }, [false, true])
        XCTAssertEqual(StoreFolderCheck.problems(in: folder), [])
    }

    /// The same bundle asked for by two processes, cached then explicit: one download, and
    /// the bundle is pinned (the second ask counts even though the first process installs it).
    func testAnExplicitAskWhileACachedDownloadRunsPinsTheBundle() async throws {
        let site = try StoreFixture()
        try await site.server.inject(["path": "/metro-1.db", "rate": 150_000])
        for round in 0..<3 {
            let folder = TemporaryFolders.make()
            XCTAssertEqual(finish(try CLI.start(folder, ["manifest", site.server.url("v1.json").absoluteString])).status, 0)
            let cached = try CLI.start(folder, ["download", "metro"])
            _ = waitForPartialFile(in: folder)
            let explicit = finish(try CLI.start(folder, ["download", "metro", "--explicit"]))
            XCTAssertEqual(explicit.status, 0, explicit.stderr)
            XCTAssertEqual(finish(cached).status, 0)
            let bundles =
                finish(try CLI.start(folder, ["status", "--on", TestClock.metroDayText, "--json"])).json["bundles"] as? [[String: Any]]
                ?? []
            XCTAssertEqual(bundles.first?["explicit"] as? Bool, true, "round \(round)")
        }
        let requests = try await site.server.log().filter { $0.path == "/metro-1.db" }.count
        XCTAssertEqual(requests, 3, "one download per round")
    }

    /// A `remove` in one process while another updates the bundle: the bundle stays removed.
    func testARemoveIsNotUndoneByAnUpdateFinishingInAnotherProcess() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        XCTAssertEqual(finish(try CLI.start(folder, ["manifest", site.server.url("v1.json").absoluteString])).status, 0)
        XCTAssertEqual(finish(try CLI.start(folder, ["download", "metro", "--explicit"])).status, 0)
        try await site.server.inject(["path": "/metro-2.db", "rate": 100_000])
        XCTAssertEqual(finish(try CLI.start(folder, ["prefs", "--auto-update", "false"])).status, 0)
        XCTAssertEqual(finish(try CLI.start(folder, ["manifest", site.server.url("v2-full.json").absoluteString])).status, 0)
        let update = try CLI.start(folder, ["update", "metro"])
        _ = waitForPartialFile(in: folder)
        let remove = finish(try CLI.start(folder, ["remove", "metro"]))
        XCTAssertEqual(remove.status, 0, remove.stderr)
        _ = finish(update)
        let state = finish(try CLI.start(folder, ["status", "--on", TestClock.metroDayText, "--json"])).json
        XCTAssertEqual((state["bundles"] as? [Any])?.count, 0, "\(state)")
        XCTAssertEqual((state["pending_jobs"] as? [Any])?.count, 0, "\(state)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("bundles/metro.db").path))
        // The next start cleans up what the interrupted update left.
        XCTAssertEqual(finish(try CLI.start(folder, ["status", "--on", TestClock.metroDayText])).status, 0)
        XCTAssertEqual(StoreFolderCheck.problems(in: folder), [])
    }
}
