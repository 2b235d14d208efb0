import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitStore

/// A download server that answers as an attacker (or a broken mirror) would: manifests that
/// name local files, lie about sizes or label a patch wrongly, and bodies that never end.
/// Each is refused with its reason, and the folder keeps what it had.
final class StoreHostileServerTests: XCTestCase {
    /// `name` on the site: `v1.json` (or `from`) with `edit` applied to its JSON.
    private func manifest(_ site: StoreFixture, _ name: String, from: String = "v1.json", edit: (inout [String: Any]) -> Void) throws
        -> URL
    {
        var json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: site.site.appendingPathComponent(from))) as? [String: Any])
        edit(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: site.site.appendingPathComponent(name))
        return site.server.url(name)
    }

    private func bundles(_ json: [String: Any]) -> [[String: Any]] { json["bundles"] as? [[String: Any]] ?? [] }

    func testAServerManifestNamingLocalFilesIsRefused() async throws {
        let site = try StoreFixture()
        let store = try site.store()
        for file in ["file:///etc/passwd", "file:///dev/zero", "ftp://127.0.0.1/x.db", "data:,hello"] {
            let url = try manifest(site, "local.json") { json in
                var list = self.bundles(json)
                list[0]["file"] = file
                json["bundles"] = list
            }
            do {
                try await store.refreshCatalogue(from: url)
                XCTFail("\(file) was accepted")
            } catch StoreError.badManifest(let reason) {
                XCTAssertTrue(reason.contains("may name only http and https files"), reason)
            }
        }
        let kept = await store.currentCatalogue()
        XCTAssertNil(kept, "no manifest was kept")
    }

    func testSizesThatAreNotSizesAreRefused() async throws {
        let site = try StoreFixture()
        let store = try site.store()
        for bytes: Int64 in [-1, 0, Int64.max, Catalogue.maximumFileBytes + 1] {
            let url = try manifest(site, "sizes.json") { json in
                var list = self.bundles(json)
                list[0]["bytes"] = bytes
                json["bundles"] = list
            }
            do {
                try await store.refreshCatalogue(from: url)
                XCTFail("bytes \(bytes) was accepted")
            } catch StoreError.badManifest(let reason) {
                XCTAssertTrue(reason.hasSuffix("is \(bytes); a file has 1 to \(Catalogue.maximumFileBytes) bytes"), reason)
            }
        }
        // A budget with the largest size that is allowed: refused by the budget, no trap.
        try await store.setPreferences(StorePreferences(maxBytes: 100_000))
        let largest = try manifest(site, "largest.json") { json in
            var list = self.bundles(json)
            list[0]["bytes"] = Catalogue.maximumFileBytes
            json["bundles"] = list
        }
        try await store.refreshCatalogue(from: largest)
        let refused = try await store.download("metro").finished()
        guard case .failed(.overBudget) = refused else { return XCTFail("not over budget: \(refused)") }
    }

    /// A body longer than the manifest lists (here endless) is cut off at the listed size and
    /// the download fails; nothing is installed and no partial file is left.
    func testABodyLongerThanListedIsCutOff() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder, retries: 1)
        let listed: Int64 = 20_000
        let url = try manifest(site, "short.json") { json in
            var list = self.bundles(json)
            list[0]["bytes"] = listed
            json["bundles"] = list
        }
        try await store.refreshCatalogue(from: url)
        try await site.server.inject(["path": "/metro-1.db", "endless": true])
        let job = try await store.download("metro")
        guard case .failed(.transfer(let reason, transient: false, _)) = await job.finished() else { return XCTFail("\(job.state)") }
        XCTAssertTrue(reason.contains("sends more than the \(listed) bytes the manifest lists"), reason)
        let sent = try await site.server.log().filter { $0.path == "/metro-1.db" }
        XCTAssertEqual(sent.count, 1, "not retried")
        XCTAssertEqual(StoreFolderCheck.leftovers(in: folder), [])
        let installed = try await store.status(on: TestClock.metroDay)
        XCTAssertEqual(installed.count, 0)
    }

    /// A patch whose result is not the version the manifest lists is thrown away; the whole
    /// file (whose content is not that version either) is refused too: the installed version
    /// stays, recorded as what it is.
    func testAMislabelledPatchNeverRecordsAWrongVersion() async throws {
        let site = try StoreFixture()
        let store = try site.store()
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        _ = try await store.download("metro", explicit: true).finished()
        try await store.setPreferences(StorePreferences(autoUpdate: false))
        let before = try await store.status(on: TestClock.metroDay).first?.contentHash
        let claimed = try BundleFacts.contentHash(site.path("valley.db"))
        let url = try manifest(site, "mislabelled.json", from: "v2.json") { json in
            var list = self.bundles(json)
            list[0]["content_sha256"] = claimed
            json["bundles"] = list
            var patches = json["patches"] as? [[String: Any]] ?? []
            patches[0]["to_content_sha256"] = claimed
            json["patches"] = patches
        }
        try await store.refreshCatalogue(from: url)
        let jobs = try await store.updateAll()
        guard case .failed(.install(let reason)) = await jobs[0].finished() else { return XCTFail("\(jobs[0].state)") }
        XCTAssertTrue(reason.contains("is not the manifest's \(claimed)"), reason)
        let paths = try await site.server.log().map(\.path)
        XCTAssertEqual(paths.suffix(2), ["/metro-1-2.patch", "/metro-2.db"], "the patch, then the whole file")
        let after = try await store.status(on: TestClock.metroDay).first
        XCTAssertEqual(after?.contentHash, before)
        XCTAssertEqual(after?.contentHash, try BundleFacts.contentHash(site.path("metro-1.db")))
    }

    /// Staleness comes from the installed bundle's own coverage: a manifest that claims a
    /// coverage into 2099 does not make a bundle that ends in 2026 fresh.
    func testStalenessComesFromTheBundleNotTheManifest() async throws {
        let site = try StoreFixture()
        let store = try site.store()
        let url = try manifest(site, "claims.json") { json in
            var list = self.bundles(json)
            list[0]["coverage"] = ["first_service_date": "2020-01-01", "last_service_date": "2099-12-31"]
            json["bundles"] = list
        }
        try await store.refreshCatalogue(from: url)
        _ = try await store.download("metro").finished()
        let status = try await store.status(on: TestClock.metroLastWeek).first
        XCTAssertEqual(status?.lastServiceDate?.description, "2026-12-31")
        XCTAssertEqual(status?.isStale, true)
        let later = try await store.status(on: Date(timeIntervalSince1970: 1_800_000_000)).first
        XCTAssertEqual(later?.isExpired, true)
    }

    /// A captive portal answers every URL with its sign-in page: the store says so.
    func testACaptivePortalIsNamedAsSuch() async throws {
        let site = try StoreFixture()
        let store = try site.store(retries: 1)
        try await site.server.inject(["path": "/v1.json", "html": true, "times": 1])
        do {
            try await store.refreshCatalogue(from: site.server.url("v1.json"))
            XCTFail("a web page was read as a manifest")
        } catch StoreError.badManifest(let reason) {
            XCTAssertTrue(reason.contains("answered with a web page, not the file"), reason)
        }
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        try await site.server.inject(["path": "/metro-1.db", "html": true])
        guard case .failed(.transfer(let reason, transient: false, _)) = try await store.download("metro").finished() else {
            return XCTFail("the portal's page was not refused")
        }
        XCTAssertTrue(reason.contains("a captive portal"), reason)
    }

    /// No network at all (here: nothing listens on the port) fails at once as offline, not
    /// after the retries.
    func testNoNetworkIsOfflineAtOnce() async throws {
        let store = try StoreFixture().store(retries: 5)
        let closed = try XCTUnwrap(URL(string: "http://127.0.0.1:9/manifest.json"))
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await store.refreshCatalogue(from: closed)
            XCTFail("a closed port answered")
        } catch StoreError.offline(let reason) {
            XCTAssertTrue(reason.hasPrefix("you are offline: 127.0.0.1 cannot be reached (Connection refused)"), reason)
            XCTAssertEqual(StoreError.offline(reason).errorDescription, "You're offline.")
        }
        // Not retried: five retries would take seconds (pauses of 0.05 s doubling, and
        // connection attempts); one attempt takes milliseconds. A generous bound, not a speed test.
        XCTAssertLessThan(clock.now - start, .seconds(1))
    }

    /// 503 with Retry-After: the next attempt waits what the server asked (the retry pause
    /// alone is 0.05 s).
    func testRetryAfterIsHonoured() async throws {
        let site = try StoreFixture()
        let store = try site.store(retries: 2)
        try await site.server.inject(["path": "/v1.json", "retry_after": 1, "times": 1])
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        let tries = try await site.server.log().filter { $0.path == "/v1.json" }
        XCTAssertEqual(tries.map(\.status), [503, 200])
        XCTAssertGreaterThanOrEqual(tries[1].at - tries[0].at, 1.0, "waited as the server asked")
    }

    /// A link cut 20 times at seeded random places: with 3 retries the download still
    /// finishes (an attempt that brought bytes starts the count again), resuming each time,
    /// so that at most 1.5 times the file crosses the wire.
    func testALinkCutTwentyTimesFinishesWithoutStartingOver() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder, retries: 3)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        let size = Int(site.bytes("metro-1.db"))
        var generator = SplitMix64(state: SplitMix64.testSeed(0x5EED_0039))
        var fault: [String: Any] = ["path": "/metro-1.db", "drop_after": Int.random(in: 500...(size / 20), using: &generator), "times": 1]
        for _ in 1..<20 {
            fault = ["path": "/metro-1.db", "drop_after": Int.random(in: 500...(size / 20), using: &generator), "times": 1, "then": fault]
        }
        try await site.server.inject(fault)
        let finished = try await store.download("metro").finished()
        XCTAssertEqual(finished, .done)
        let requests = try await site.server.log().filter { $0.path == "/metro-1.db" }
        XCTAssertEqual(requests.count, 21, "20 cut, then the rest")
        XCTAssertEqual(requests.dropFirst().filter { $0.range == nil }.count, 0, "every retry resumed with Range")
        XCTAssertLessThanOrEqual(requests.reduce(0) { $0 + $1.sent }, size * 3 / 2)
        XCTAssertEqual(
            try StoreDownloadTests.sha256sum(folder.appendingPathComponent("bundles/metro.db").path),
            try StoreDownloadTests.sha256sum(site.path("metro-1.db")))
    }

    /// Pauses between retries double up to the maximum, each drawn between half and all of
    /// it, never below what the server asked (up to `maxRetryAfter`, 120 s).
    func testRetryPausesGrowWithJitterAndHonourTheServer() {
        let policy = RetryPolicy(limit: 5, firstPause: 1, maxPause: 8)
        var generator = SplitMix64(state: SplitMix64.testSeed(0x5EED_0040))
        for failures in 1...6 {
            let ceiling = min(8, Double(1 << (failures - 1)))
            let pauses = (0..<50).map { _ in Double(policy.pause(after: failures, retryAfter: nil, using: &generator)) / 1e9 }
            XCTAssertGreaterThanOrEqual(pauses.min() ?? 0, ceiling / 2)
            XCTAssertLessThanOrEqual(pauses.max() ?? .infinity, ceiling)
            XCTAssertGreaterThan(Set(pauses).count, 40, "drawn, not fixed")
        }
        XCTAssertGreaterThanOrEqual(Double(policy.pause(after: 1, retryAfter: 5, using: &generator)) / 1e9, 5)
        XCTAssertEqual(Double(policy.pause(after: 1, retryAfter: 3_600, using: &generator)) / 1e9, 120, accuracy: 1e-6)
    }
}
