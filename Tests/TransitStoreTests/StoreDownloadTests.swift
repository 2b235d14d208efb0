import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitStore
import XCTest

/// Downloads from a real HTTP server on 127.0.0.1 (Tests/Server/fault_server.py) that drops
/// connections, fails, stalls, ignores Range and sends wrong bytes on request.
final class StoreDownloadTests: XCTestCase {
    /// The SHA-256 of a file as sha256sum sees it, to check the store's own hashing.
    static func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    func testADownloadReportsProgressVerifiesAndInstallsTheManifestsFile() async throws {
        for urlSession in [false, true] { try await downloadWithProgress(urlSession: urlSession) }
    }

    func downloadWithProgress(urlSession: Bool) async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder, urlSession: urlSession)
        let catalogue = try await store.refreshCatalogue(from: site.server.url("v1.json"))
        XCTAssertEqual(catalogue.bundles.map(\.id), ["metro", "valley", "both"])
        XCTAssertEqual(catalogue.entry("metro")?.bytes, site.bytes("metro-1.db"))
        // Slow enough (64 KB/s) that progress shows several steps.
        try await site.server.inject(["path": "/metro-1.db", "rate": 65536])
        let job = try await store.download("metro", explicit: true)
        var seen: [JobState] = []
        for await state in job.updates { seen.append(state) }
        XCTAssertEqual(seen.last, .done)
        let names = seen.map(\.name)
        XCTAssertEqual(
            names.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }.filter { $0 != "queued" },
            ["downloading", "verifying", "installing", "done"])
        let progress = seen.compactMap { state -> Int64? in
            if case .downloading(let done, _) = state { return done }
            return nil
        }
        XCTAssertEqual(progress, progress.sorted(), "bytes done only grow")
        XCTAssertGreaterThan(progress.count, 2)
        let installed = folder.appendingPathComponent("bundles/metro.db").path
        XCTAssertEqual(try Self.sha256sum(installed), try Self.sha256sum(site.path("metro-1.db")))
        let status = try await store.status(on: TestClock.metroDay)
        XCTAssertEqual(status.map(\.id), ["metro"])
        XCTAssertEqual(status.first?.explicit, true)
        XCTAssertEqual(status.first?.bytes, site.bytes("metro-1.db"))
        XCTAssertEqual(status.first?.contentHash, try BundleFacts.contentHash(site.path("metro-1.db")))
        XCTAssertEqual(StoreFolderCheck.leftovers(in: folder), [])
        let bundle = try await store.open("metro")
        let board = try await bundle.departures(from: "CENTRAL", at: try QueryTime.parse("2026-03-30T08:00"), within: 60 * 60)
        XCTAssertFalse(board.isEmpty)
    }

    func testADroppedConnectionResumesWithRangeAndServerErrorsAreRetried() async throws {
        for urlSession in [false, true] { try await dropsAndServerErrors(urlSession: urlSession) }
    }

    func dropsAndServerErrors(urlSession: Bool) async throws {
        let site = try StoreFixture()
        let store = try site.store(urlSession: urlSession)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        try await site.server.inject(["path": "/metro-1.db", "drop_after": 20_000, "times": 1])
        let first = try await store.download("metro")
        let awaited1 = await first.finished()
        XCTAssertEqual(awaited1, .done)
        let metro = try await site.server.log().filter { $0.path == "/metro-1.db" }
        XCTAssertEqual(metro.count, 2)
        XCTAssertEqual(metro[0].sent, 20_000)
        XCTAssertEqual(metro[1].range, "bytes=20000-", "the second request asks only for the rest")
        XCTAssertEqual(metro[1].status, 206)

        try await site.server.inject(["path": "/valley.db", "status": 503, "times": 2])
        let second = try await store.download("valley")
        let awaited2 = await second.finished()
        XCTAssertEqual(awaited2, .done)
        let valley = try await site.server.log().filter { $0.path == "/valley.db" }.map(\.status)
        XCTAssertEqual(valley, [503, 503, 200])
        let awaited3 = try await store.status(on: TestClock.metroDay).map(\.id)
        XCTAssertEqual(awaited3, ["metro", "valley"])
    }

    func testARangeIgnoringServerStartsOverAndAStallTimesOutThenRetries() async throws {
        for urlSession in [false, true] { try await rangeIgnoredAndStall(urlSession: urlSession) }
    }

    func rangeIgnoredAndStall(urlSession: Bool) async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder, timeout: 1, urlSession: urlSession)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        // The first answer is cut after 30,000 bytes; the retry asks for a range and this
        // server then answers 200 with everything (both faults set before the first request).
        try await site.server.inject([
            "path": "/both.db", "drop_after": 30_000, "times": 1, "then": ["path": "/both.db", "ignore_range": true, "times": 1],
        ])
        let job = try await store.download("both")
        let awaited4 = await job.finished()
        XCTAssertEqual(awaited4, .done)
        let both = try await site.server.log().filter { $0.path == "/both.db" }
        XCTAssertEqual(both.count, 2, "\(both)")
        XCTAssertNil(both.first?.range, "the first request asks for the whole file")
        XCTAssertEqual(both.first?.sent, 30_000, "the first answer was cut")
        XCTAssertNotNil(both.last?.range, "the retry asks for the rest")
        XCTAssertEqual(both.last?.status, 200, "and gets everything")
        XCTAssertEqual(try Self.sha256sum(folder.appendingPathComponent("bundles/both.db").path), try Self.sha256sum(site.path("both.db")))

        // A response that waits 3 s (time-out 1 s) is abandoned and retried.
        try await site.server.inject(["path": "/valley.db", "delay": 3.0, "times": 1])
        let slow = try await store.download("valley")
        let awaited5 = await slow.finished()
        XCTAssertEqual(awaited5, .done)
        // The stalled request is logged when its delay ends.
        var valleyRequests = 0
        for _ in 0..<50 where valleyRequests < 2 {
            try await Task.sleep(nanoseconds: 100_000_000)
            valleyRequests = try await site.server.log().filter { $0.path == "/valley.db" }.count
        }
        XCTAssertEqual(valleyRequests, 2)
    }

    func testPermanentFailuresFailTheJobAndInstallNothing() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder)
        // A manifest pointing to a missing file: 404 is not retried.
        try FileManager.default.removeItem(atPath: site.path("valley.db"))
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        let missing = try await store.download("valley")
        guard case .failed(.transfer(let reason, transient: false, let failure)) = await missing.finished() else {
            return XCTFail("\(missing.state)")
        }
        XCTAssertTrue(reason.contains("404"), reason)
        XCTAssertEqual(failure, .http(status: 404))
        let awaited7 = try await site.server.log().filter { $0.path == "/valley.db" }.count
        XCTAssertEqual(awaited7, 1)
        // Wrong bytes: the hash check refuses them.
        try await site.server.inject(["path": "/metro-1.db", "corrupt": true])
        let corrupt = try await store.download("metro")
        guard case .failed(.hashMismatch(let id, let expected, _)) = await corrupt.finished() else {
            return XCTFail("\(corrupt.state)")
        }
        XCTAssertEqual(id, "metro")
        XCTAssertEqual(expected, try Self.sha256sum(site.path("metro-1.db")))
        // Retries that never succeed end as a transient failure after the limit.
        try await site.server.inject(["path": "/both.db", "status": 500])
        let failing = try await store.download("both")
        guard case .failed(.transfer(_, transient: true, .http(status: 500))) = await failing.finished() else {
            return XCTFail("\(failing.state)")
        }
        let awaited8 = try await site.server.log().filter { $0.path == "/both.db" }.count
        XCTAssertEqual(awaited8, 4, "one try and three retries")
        let awaited9 = try await store.status(on: TestClock.metroDay)
        XCTAssertEqual(awaited9, [])
        XCTAssertEqual(StoreFolderCheck.leftovers(in: folder), [])
        let awaited10 = try await store.pendingJobs().count
        XCTAssertEqual(awaited10, 0)
        // Unknown ids and bad manifests are refused up front; the last good manifest stays.
        do {
            _ = try await store.download("atlantis")
            XCTFail("unknown id accepted")
        } catch let error as StoreError { XCTAssertEqual(error, .unknownBundle("atlantis")) }
        try Data("{\"manifest_version\": 1, \"bundles\": [{\"id\": \"x\"}]}".utf8).write(to: site.site.appendingPathComponent("bad.json"))
        do {
            _ = try await store.refreshCatalogue(from: site.server.url("bad.json"))
            XCTFail("bad manifest accepted")
        } catch StoreError.badManifest(let reason) {
            XCTAssertTrue(reason.hasPrefix("bundles[0]: field") && reason.contains("is missing"), reason)
        }
        let awaited11 = await store.currentCatalogue()?.bundles.count
        XCTAssertEqual(awaited11, 3)
    }

    func testAPausedDownloadSurvivesARestartAndResumesWhereItStopped() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        var store: BundleStore? = try site.store(in: folder)
        try await store?.refreshCatalogue(from: site.server.url("v1.json"))
        try await site.server.inject(["path": "/both.db", "rate": 40_000, "times": 1])
        let job = try await store!.download("both", explicit: true)
        for await state in job.updates {
            if case .downloading(let done, _) = state, done > 16_384 { break }
        }
        try await store?.pause("both")
        let awaited12 = await job.finished()
        XCTAssertEqual(awaited12, .paused)
        let part = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("downloads").path)
        XCTAssertEqual(part.count, 1)
        store = nil
        // A new store on the same folder: the paused job is still pending, with its bytes.
        let reopened = try site.store(in: folder)
        let pending = try await reopened.pendingJobs()
        XCTAssertEqual(pending.map(\.id), ["both"])
        XCTAssertEqual(pending.first?.paused, true)
        XCTAssertEqual(pending.first?.explicit, true)
        let awaited13 = try await reopened.resumePendingJobs().count
        XCTAssertEqual(awaited13, 0, "paused jobs wait")
        let resumed = try await reopened.resume("both")
        let awaited14 = await resumed.finished()
        XCTAssertEqual(awaited14, .done)
        // The abandoned first request is logged only once the server notices; the resume is the one with a Range.
        let ranged = try await site.server.log().filter { $0.path == "/both.db" && $0.range != nil }
        XCTAssertEqual(ranged.count, 1)
        let resumedAt = Int(ranged.first?.range?.dropFirst("bytes=".count).dropLast() ?? "") ?? 0
        XCTAssertGreaterThan(resumedAt, 16_384, "the download went on from the bytes kept")
        XCTAssertEqual(Int64(resumedAt) + Int64(ranged.first?.sent ?? 0), site.bytes("both.db"))
        let awaited15 = try await reopened.status(on: TestClock.metroDay).first?.explicit
        XCTAssertEqual(awaited15, true)
        XCTAssertEqual(StoreFolderCheck.leftovers(in: folder), [])
    }

    func testACancelledDownloadLeavesNothingBehind() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        try await site.server.inject(["path": "/valley.db", "rate": 20_000])
        let job = try await store.download("valley", explicit: true)
        for await state in job.updates {
            if case .downloading(let done, _) = state, done > 4096 { break }
        }
        try await store.cancel("valley")
        let outcome = await job.finished()
        XCTAssertEqual(outcome, .cancelled)
        let pending = try await store.pendingJobs().count
        XCTAssertEqual(pending, 0)
        let installed = try await store.status(on: TestClock.metroDay)
        XCTAssertEqual(installed, [])
        XCTAssertEqual(StoreFolderCheck.leftovers(in: folder), [])
    }

    /// Retries exhausted after most of the file arrived: the job waits with its partial file,
    /// and the next ask continues from those bytes with Range.
    func testExhaustedRetriesKeepThePartialFileForTheNextAttempt() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder, retries: 2)
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        let size = site.bytes("both.db")
        // The first request stops at 98 %, the two retries get nothing more.
        try await site.server.inject(["path": "/both.db", "drop_after": Int(size * 98 / 100), "times": 1])
        let job = try await store.download("both", explicit: true)
        // Once the first answer has begun, every later request fails.
        for await state in job.updates {
            if case .downloading(let done, _) = state, done > 0 { break }
        }
        try await site.server.inject(["path": "/both.db", "status": 503])
        guard case .failed(.transfer(_, transient: true, _)) = await job.finished() else { return XCTFail("\(job.state)") }
        let pending = try await store.pendingJobs()
        XCTAssertEqual(pending.map(\.id), ["both"])
        XCTAssertNotNil(pending.first?.failure)
        let kept = try XCTUnwrap(StoreFolderCheck.leftovers(in: folder).first)
        let keptBytes = try XCTUnwrap(
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("downloads/" + kept).path)[.size] as? Int)
        XCTAssertGreaterThan(keptBytes, 0)
        // A failed job is not restarted by itself (no loop on every start)...
        let restarted = try await store.resumePendingJobs().count
        XCTAssertEqual(restarted, 0)
        // ...but asking again continues from the bytes kept.
        try await site.server.clearFaults()
        let again = try await store.download("both", explicit: true)
        let outcome = await again.finished()
        XCTAssertEqual(outcome, .done)
        let last = try await site.server.log().last { $0.path == "/both.db" }
        XCTAssertEqual(last?.range, "bytes=\(keptBytes)-")
        XCTAssertEqual(StoreFolderCheck.leftovers(in: folder), [])
    }

    /// The manifest follows the same retry and time-out policy as the files.
    func testTheManifestIsRetriedAndTimesOutLikeTheFiles() async throws {
        let site = try StoreFixture()
        let store = try site.store(timeout: 0.5, retries: 2)
        try await site.server.inject(["path": "/v1.json", "status": 503, "times": 2])
        let catalogue = try await store.refreshCatalogue(from: site.server.url("v1.json"))
        XCTAssertEqual(catalogue.bundles.count, 3)
        let tries = try await site.server.log().filter { $0.path == "/v1.json" }.count
        XCTAssertEqual(tries, 3)
        // A server that never answers: three attempts of half a second, then a readable error.
        try await site.server.inject(["path": "/v2.json", "delay": 30])
        do {
            try await store.refreshCatalogue(from: site.server.url("v2.json"))
            XCTFail("a silent server gave a manifest")
        } catch StoreError.transfer(let reason, let transient, let failure) {
            XCTAssertTrue(transient)
            XCTAssertTrue(reason.contains("time-out"), reason)
            XCTAssertEqual(failure, .timedOut)
        }
        // Each attempt is logged on arrival: the first try and two retries, each given up.
        let silent = try await site.server.log().filter { $0.path == "/v2.json" }
        XCTAssertEqual(silent.count, 3)
        XCTAssertEqual(silent.map(\.status), [0, 0, 0], "no attempt was answered")
        let awaited = await store.currentCatalogue()?.bundles.count
        XCTAssertEqual(awaited, 3, "the last good manifest stays")
    }
}
