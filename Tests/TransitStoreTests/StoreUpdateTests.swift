import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitStore
import XCTest

/// Updates by patch or whole file, concurrent readers, eviction and a lost state file.
final class StoreUpdateTests: XCTestCase {
    /// The departures board at CENTRAL on a Monday morning, as text: it differs between the
    /// metro sample's two versions (T4_WK_0845 runs two minutes later in the second).
    static func board(_ bundle: TransitBundle) throws -> String {
        try bundle.departures(from: "BELLEVUE", at: try QueryTime.parse("2026-03-30T08:00"), within: 90 * 60)
            .map { "\($0.tripID) \($0.departureTime)" }.joined(separator: ",")
    }

    func testAnUpdateUsesThePatchWhenListedAndFallsBackToTheWholeFile() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        _ = try await store.download("metro", explicit: true).finished()
        try await store.setPreferences(StorePreferences(autoUpdate: false))
        try await store.refreshCatalogue(from: site.server.url("v2.json"))
        let stale = try await store.status(on: TestClock.metroDay)
        XCTAssertEqual(stale.first?.newerContentHash, try BundleFacts.contentHash(site.path("metro-2.db")))
        XCTAssertEqual(stale.first?.isStale, true)
        let jobs = try await store.updateAll()
        XCTAssertEqual(jobs.map(\.bundleID), ["metro"])
        let updated = await jobs[0].finished()
        XCTAssertEqual(updated, .done)
        let paths = try await site.server.log().map(\.path)
        XCTAssertEqual(paths.filter { $0.hasSuffix(".patch") || $0 == "/metro-2.db" }, ["/metro-1-2.patch"], "only the patch")
        let installed = try TransitBundle(path: folder.appendingPathComponent("bundles/metro.db").path)
        XCTAssertEqual(try BundleFacts.contentHash(installed.path), try BundleFacts.contentHash(site.path("metro-2.db")))
        XCTAssertEqual(try Self.board(installed), try Self.board(TransitBundle(path: site.path("metro-2.db"))))
        let after = try await store.status(on: TestClock.metroDay)
        XCTAssertEqual(after.first?.explicit, true, "an update keeps the user's choice")
        XCTAssertEqual(after.first?.isStale, false)
        XCTAssertEqual(after.first?.bytes, Int64(try Data(contentsOf: folder.appendingPathComponent("bundles/metro.db")).count))

        // A damaged patch (wrong bytes): the store falls back to the whole file.
        let second = try site.store()
        try await second.refreshCatalogue(from: site.server.url("v1.json"))
        _ = try await second.download("metro").finished()
        try await site.server.inject(["path": "/metro-1-2.patch", "corrupt": true])
        try await second.refreshCatalogue(from: site.server.url("v2.json"))  // automatic updates are on
        let pending = try await second.resumePendingJobs()
        for job in pending { await job.finished() }
        let fallback = try await second.status(on: TestClock.metroDay)
        XCTAssertEqual(fallback.first?.contentHash, try BundleFacts.contentHash(site.path("metro-2.db")))
        XCTAssertEqual(fallback.first?.explicit, false)
        let log = try await site.server.log().map(\.path)
        XCTAssertEqual(log.last, "/metro-2.db", "the whole file after the damaged patch")
    }

    func testAFailedUpdateLeavesTheInstalledBundleAsItWas() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        _ = try await store.download("metro", explicit: true).finished()
        let installed = folder.appendingPathComponent("bundles/metro.db").path
        let before = try Data(contentsOf: URL(fileURLWithPath: installed))
        try await store.setPreferences(StorePreferences(autoUpdate: false))
        try await store.refreshCatalogue(from: site.server.url("v2-full.json"))
        try FileManager.default.removeItem(atPath: site.path("metro-2.db"))
        let queued = try await store.update("metro")
        let job = try XCTUnwrap(queued)
        let outcome = await job.finished()
        guard case .failed(.transfer(let reason, transient: false, _)) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.contains("404"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: installed)), before)
        let status = try await store.status(on: TestClock.metroDay)
        XCTAssertEqual(status.first?.contentHash, try BundleFacts.contentHash(installed))
        XCTAssertEqual(StoreFolderCheck.leftovers(in: folder), [])
    }

    /// Readers on several threads while the bundle is updated: each answer is the old
    /// version's or the new one's, and a bundle opened before the update keeps answering
    /// from the old version.
    func testQueriesDuringAnUpdateAnswerFromTheOldOrTheNewVersion() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        _ = try await store.download("metro").finished()
        let old = try Self.board(TransitBundle(path: site.path("metro-1.db")))
        let new = try Self.board(TransitBundle(path: site.path("metro-2.db")))
        XCTAssertNotEqual(old, new)
        let path = folder.appendingPathComponent("bundles/metro.db").path
        let held = try await store.open("metro")
        let answers = LockedList<String>()
        let failures = LockedList<String>()
        let stop = LockedList<Bool>()
        let readers = (0..<4).map { index in
            Thread {
                while stop.values.isEmpty {
                    do {
                        // Half the readers reopen the path each time, half share the held bundle.
                        let bundle = index % 2 == 0 ? try TransitBundle(path: path) : held
                        answers.append(try Self.board(bundle))
                    } catch { failures.append("\(error)") }
                }
            }
        }
        for reader in readers { reader.start() }
        try await store.refreshCatalogue(from: site.server.url("v2.json"))
        for job in try await store.resumePendingJobs() { await job.finished() }
        // The readers go on until a reopening one has seen the new version (or 20 s passed).
        TestClock.wait(upTo: 20) { answers.values.contains(new) }
        let counted = answers.values.count
        TestClock.wait(upTo: 20) { answers.values.count >= counted + 8 }
        stop.append(true)
        TestClock.wait(upTo: 20) { readers.allSatisfy(\.isFinished) }
        XCTAssertEqual(failures.values, [])
        let seen = Set(answers.values)
        XCTAssertTrue(seen.isSubset(of: [old, new]), "an answer from neither version: \(seen.subtracting([old, new]))")
        XCTAssertTrue(seen.contains(new), "readers that reopen see the new version")
        XCTAssertEqual(try Self.board(held), old, "a bundle opened before the update keeps its version")
        XCTAssertGreaterThan(answers.values.count, 10)
    }

    /// Budgets that force eviction in several orders of access.
    func testEvictionTakesCachedBundlesLeastRecentlyAccessedFirstAndNeverExplicitOnes() async throws {
        let site = try StoreFixture()
        let sizes = ["metro": site.bytes("metro-1.db"), "valley": site.bytes("valley.db"), "both": site.bytes("both.db")]
        for order in [["metro", "valley"], ["valley", "metro"]] {
            let folder = TemporaryFolders.make()
            let store = try site.store(in: folder)
            try await store.refreshCatalogue(from: site.server.url("v1.json"))
            // Room for two bundles, not three.
            let budget = sizes["metro"]! + sizes["valley"]! + sizes["both"]! - 1
            try await store.setPreferences(StorePreferences(maxBytes: budget))
            for id in ["metro", "valley"] { _ = try await store.download(id).finished() }
            for id in order { _ = try await store.open(id) }  // order[0] is now the least recently accessed
            let third = try await store.download("both").finished()
            XCTAssertEqual(third, .done)
            let left = try await store.status(on: TestClock.metroDay).map(\.id)
            XCTAssertEqual(Set(left), Set(["both", order[1]]), "evicted \(order[0]) first")
            XCTAssertLessThanOrEqual(try Self.bytesOnDisk(folder), budget)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("bundles/\(order[0]).db").path))
        }
        // Explicit bundles stay; a download that cannot fit is refused before it starts.
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        let budget = sizes["metro"]! + sizes["valley"]! + sizes["both"]! - 1
        try await store.setPreferences(StorePreferences(maxBytes: budget))
        _ = try await store.download("metro", explicit: true).finished()
        _ = try await store.download("valley", explicit: true).finished()
        let requestsBefore = try await site.server.log().count
        let refused = try await store.download("both").finished()
        XCTAssertEqual(
            refused,
            .failed(
                .overBudget(
                    id: "both", needed: sizes["both"]!, budget: budget, explicitBytes: sizes["metro"]! + sizes["valley"]!,
                    evictableBytes: 0)))
        let kept = try await store.status(on: TestClock.metroDay).map(\.id)
        XCTAssertEqual(kept, ["metro", "valley"], "explicit bundles are never evicted")
        let requestsAfter = try await site.server.log().count
        XCTAssertEqual(requestsAfter, requestsBefore, "refused before any byte")
        // A smaller budget evicts cached bundles at once, never explicit ones (even when over).
        try await store.setPreferences(StorePreferences(maxBytes: nil))
        _ = try await store.download("both").finished()
        try await store.setPreferences(StorePreferences(maxBytes: 1000))
        let explicitOnly = try await store.status(on: TestClock.metroDay).map(\.id)
        XCTAssertEqual(explicitOnly, ["metro", "valley"])
        for id in explicitOnly { try await store.remove(id) }
        let used = try await store.usedBytes()
        XCTAssertEqual(used, 0)
        XCTAssertEqual(try Self.bytesOnDisk(folder), 0)
    }

    static func bytesOnDisk(_ folder: URL) throws -> Int64 {
        let bundles = folder.appendingPathComponent("bundles")
        return try FileManager.default.contentsOfDirectory(atPath: bundles.path).reduce(0) {
            $0 + Int64(try Data(contentsOf: bundles.appendingPathComponent($1)).count)
        }
    }

    func testALostStateFileIsRebuiltFromTheBundlesPresent() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        var store: BundleStore? = try site.store(in: folder)
        try await store?.refreshCatalogue(from: site.server.url("v1.json"))
        for id in ["metro", "valley"] { _ = try await store?.download(id).finished() }
        store = nil
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("store.sqlite" + suffix))
        }
        // A stray temporary file from a crash goes too.
        try Data("partial".utf8).write(to: folder.appendingPathComponent("bundles/.metro.db.patching"))
        let rebuilt = try site.store(in: folder)
        let status = try await rebuilt.status(on: TestClock.metroDay)
        XCTAssertEqual(status.map(\.id), ["metro", "valley"])
        XCTAssertEqual(status.map(\.explicit), [true, true], "unknown choices count as explicit: never evicted unasked")
        XCTAssertEqual(status.first?.contentHash, try BundleFacts.contentHash(site.path("metro-1.db")))
        XCTAssertEqual(StoreFolderCheck.leftovers(in: folder), [])
        // A damaged state file is set aside and rebuilt the same way.
        try Data(repeating: 0x41, count: 4096).write(to: folder.appendingPathComponent("store.sqlite"))
        let again = try site.store(in: folder)
        let ids = try await again.status(on: TestClock.metroDay).map(\.id)
        XCTAssertEqual(ids, ["metro", "valley"])
    }

    func testStalenessFollowsCoverageAndTheManifest() async throws {
        let site = try StoreFixture()
        let store = try site.store()
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        _ = try await store.download("metro").finished()
        let utc = TimeZone(identifier: "UTC")!
        func status(_ day: String) async throws -> InstalledBundle {
            let format = ISO8601DateFormatter()
            return try await store.status(on: format.date(from: day + "T12:00:00Z")!, timeZone: utc)[0]
        }
        // The metro sample's service ends 2026-12-31; stale from 7 days before, expired after.
        let summer = try await status("2026-06-01")
        XCTAssertEqual(summer.lastServiceDate, ServiceDate("2026-12-31"))
        XCTAssertEqual([summer.isStale, summer.isExpired], [false, false])
        let late = try await status("2026-12-25")
        XCTAssertEqual([late.isStale, late.isExpired], [true, false])
        let before = try await status("2026-12-23")
        XCTAssertEqual([before.isStale, before.isExpired], [false, false])
        let after = try await status("2027-01-01")
        XCTAssertEqual([after.isStale, after.isExpired], [true, true])
        try await store.setPreferences(StorePreferences(autoUpdate: false, staleDays: 30))
        let month = try await status("2026-12-02")
        XCTAssertEqual(month.isStale, true)
    }
}
