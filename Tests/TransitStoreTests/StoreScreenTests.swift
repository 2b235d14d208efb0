import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitStore
import XCTest

/// The store as an app's screens use it: opened off the main actor, offers with their
/// availability, a summary, and events for installs, updates, removals and evictions.
final class StoreScreenTests: XCTestCase {
    /// Collects `events` in the background until `count` have come.
    private func collect(_ events: AsyncStream<StoreEvent>, count: Int) -> Task<[StoreEvent], Never> {
        Task {
            var seen: [StoreEvent] = []
            for await event in events {
                seen.append(event)
                if seen.count == count { break }
            }
            return seen
        }
    }

    func testOffersSummaryAndEventsFollowInstallsUpdatesAndRemovals() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try await BundleStore.open(
            directory: folder.path, transport: BundleStore.defaultTransport(timeout: 5),
            retries: RetryPolicy(limit: 3, firstPause: 0.05, maxPause: 0.2))
        do {
            _ = try await store.offers()
            XCTFail("offers need a manifest")
        } catch let error as StoreError { XCTAssertEqual(error, .noCatalogue) }
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        try await store.setPreferences(StorePreferences(autoUpdate: false))
        let offered = try await store.offers()
        XCTAssertEqual(offered.map(\.id), ["metro", "valley", "both"])
        XCTAssertEqual(Set(offered.map(\.availability)), [.available])

        let metro1 = try BundleFacts.contentHash(site.path("metro-1.db"))
        let metro2 = try BundleFacts.contentHash(site.path("metro-2.db"))
        let metroBytes = Int64(site.bytes("metro-1.db"))
        let installing = collect(store.events(), count: 2)
        let downloaded = try await store.download("metro", explicit: true).finished()
        XCTAssertEqual(downloaded, .done)
        let installed = await installing.value
        XCTAssertEqual(installed, [.installed(id: "metro", contentHash: metro1), .usageChanged(usedBytes: metroBytes)])
        let afterInstall = try await store.offers()
        XCTAssertEqual(afterInstall.first { $0.id == "metro" }?.availability, .installed)
        XCTAssertEqual(afterInstall.first { $0.id == "metro" }?.isPinned, true)

        try await store.refreshCatalogue(from: site.server.url("v2.json"))
        let listed = try await store.offers()
        XCTAssertEqual(listed.first { $0.id == "metro" }?.availability, .updateAvailable)
        let updating = collect(store.events(), count: 1)
        let jobs = try await store.updateAll()
        XCTAssertEqual(jobs.map(\.outcome.id), ["metro"])
        let finished = await jobs[0].finished()
        XCTAssertEqual(finished, .done)
        XCTAssertEqual(jobs[0].outcome, JobOutcome(id: "metro", state: "done"))
        let updated = await updating.value
        XCTAssertEqual(updated, [.updated(id: "metro", from: metro1, to: metro2)])

        let summary = try await store.summary(on: TestClock.metroDay, timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(summary.bundles.map(\.contentHash), [metro2])
        XCTAssertEqual(summary.usedBytes, summary.bundles.reduce(0) { $0 + $1.bytes })
        XCTAssertEqual(summary.usedBytes, Int64(site.bytes("metro-2.db")))
        XCTAssertNil(summary.maxBytes)
        XCTAssertEqual(summary.pendingJobs, [])

        let removing = collect(store.events(), count: 2)
        try await store.remove("metro")
        let removed = await removing.value
        XCTAssertEqual(removed, [.removed(id: "metro"), .usageChanged(usedBytes: 0)])
        let afterRemoval = try await store.offers()
        XCTAssertEqual(afterRemoval.first { $0.id == "metro" }?.availability, .available)
    }

    func testAnEvictionIsAnEvent() async throws {
        let site = try StoreFixture()
        let store = try site.store()
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        let downloaded = try await store.download("metro").finished()
        XCTAssertEqual(downloaded, .done)
        let evicting = collect(store.events(), count: 2)
        try await store.setPreferences(StorePreferences(maxBytes: 1000))
        let evicted = await evicting.value
        XCTAssertEqual(evicted, [.removed(id: "metro"), .usageChanged(usedBytes: 0)])
    }
}
