import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitCities
import TransitRuntime
import TransitStore
import XCTest

/// Offline mode as a rider lives it, against Debian's nginx on loopback with the clock given:
/// the airplane test, a metered network, pruning by age, city photos, the job history and
/// "Clear all".
final class StoreOfflineModeTests: XCTestCase {
    private func site() throws -> OfflineSite {
        guard NginxServer.executable != nil else { throw TestPaths.missing("nginx is not installed; make deps installs it") }
        return try OfflineSite()
    }

    /// The store's events from now on, collected as they come.
    private func collect(_ store: BundleStore) -> (LockedList<StoreEvent>, Task<Void, Never>) {
        let events = LockedList<StoreEvent>()
        let stream = store.events()
        let task = Task { for await event in stream { events.append(event) } }
        return (events, task)
    }

    /// Three cities installed, the server stopped: every bundle opens and answers, the first
    /// failed probe makes the store offline at once, and the server back (with an update)
    /// brings the update without anyone asking.
    func testAirplaneModeEveryBundleAnswersAndComingBackUpdatesByItself() async throws {
        let site = try site()
        let store = try site.store()
        try await store.refreshCatalogue(from: site.manifestURL)
        for id in ["metro", "valley", "both"] {
            let state = try await store.download(id, explicit: true).finished()
            XCTAssertEqual(state, .done, id)
        }
        let metro1 = try await store.status(on: TestClock.metroDay).first { $0.id == "metro" }?.contentHash
        let (events, collector) = collect(store)
        site.nginx.stop()
        // Airplane mode: everything on the device answers.
        for (id, text) in [("metro", "Zürich"), ("valley", "Hub"), ("both", "Hub")] {
            let bundle = try await store.open(id)
            let stops = try await bundle.stops(matching: text)
            XCTAssertFalse(stops.isEmpty, "\(id) finds \(text) offline")
        }
        let metro = try await store.open("metro")
        let board = try await metro.departures(from: "CENTRAL", at: try QueryTime.parse("2026-03-30T08:00"), within: 3600)
        XCTAssertFalse(board.isEmpty, "metro's board offline")
        XCTAssertTrue(store.connectivity.path.isOnline, "nothing said offline before a probe")

        // The first probe goes out at once; the next not for an hour while online.
        let watch = Task { await store.watchConnectivity(probeInterval: .seconds(3600), offlineProbeInterval: .milliseconds(50)) }
        let clock = ContinuousClock()
        let started = clock.now
        let offline = await TestClock.waitAsync(upTo: 2) { events.values.contains(.connectivityChanged(.offline)) }
        XCTAssertTrue(offline, "offline within 2 s of the first failed probe (took \(clock.now - started))")
        XCTAssertFalse(store.connectivity.path.isOnline)

        // The network comes back with a new manifest: refreshed and updated unasked.
        try site.publishUpdate()
        try site.nginx.restart()
        let updated = await TestClock.waitAsync(upTo: 60) {
            events.values.contains { if case .updated(id: "metro", _, _) = $0 { return true } else { return false } }
        }
        XCTAssertTrue(updated, "metro updated after the network came back; events: \(events.values)")
        XCTAssertTrue(events.values.contains(.connectivityChanged(.online)))
        let metro2 = try await store.status(on: TestClock.metroDay).first { $0.id == "metro" }?.contentHash
        XCTAssertNotEqual(metro2, metro1)
        let got1 = await store.currentCatalogue()?.entry("metro")?.contentHash
        XCTAssertEqual(metro2, got1)
        watch.cancel()
        await watch.value
        collector.cancel()
    }

    /// A download asked for while the server cannot be reached waits for the network (kept,
    /// not failed) and finishes by itself once the network is back.
    func testAJobThatFindsNoNetworkWaitsAndFinishesWhenItComesBack() async throws {
        let site = try site()
        let store = try site.store()
        try await store.refreshCatalogue(from: site.manifestURL)
        site.nginx.stop()
        let job = try await store.download("valley", explicit: true)
        let state = await job.finished()
        XCTAssertEqual(state, .waiting(.offline))
        XCTAssertFalse(store.connectivity.path.isOnline, "the failed request told the monitor")
        let pending = try await store.pendingJobs()
        XCTAssertEqual(pending.map(\.id), ["valley"], "the job is kept for later")
        let again = try await store.download("valley", explicit: true)
        let waitedAgain = await again.finished()
        XCTAssertEqual(waitedAgain, .waiting(.offline), "while offline a job waits without trying")

        try site.nginx.restart()
        let watch = Task { await store.watchConnectivity(probeInterval: .seconds(3600), offlineProbeInterval: .milliseconds(50)) }
        let done = await TestClock.waitAsync(upTo: 30) { job.state == .done }
        XCTAssertTrue(done, "finished once the network was back: \(job.state)")
        let installed = try await store.status(on: TestClock.metroDay).map(\.id)
        XCTAssertEqual(installed, ["valley"])
        watch.cancel()
        await watch.value
    }

    /// With Wi-Fi only on an expensive network a download waits (not fails), and runs when
    /// the network is no longer expensive.
    func testWifiOnlyWaitsOnAnExpensiveNetworkAndRunsOnAnotherOne() async throws {
        let site = try site()
        let monitor = ConnectivityMonitor(NetworkPath(isOnline: true, isExpensive: true))
        let store = try site.store(connectivity: monitor)
        try await store.setPreferences(StorePreferences(wifiOnly: true))
        try await store.refreshCatalogue(from: site.manifestURL)
        let job = try await store.download("valley", explicit: true)
        let waited = await job.finished()
        XCTAssertEqual(waited, .waiting(.expensiveNetwork))
        let got2 = try await store.pendingJobs().map(\.id)
        XCTAssertEqual(got2, ["valley"], "kept as a job, not failed")
        let got3 = try await store.pendingJobs().first?.failure
        XCTAssertNil(got3)
        XCTAssertFalse(site.nginx.log().contains { $0.uri.hasSuffix("valley.db") }, "nothing fetched on the expensive network")
        let got4 = try await store.status(on: TestClock.metroDay).isEmpty
        XCTAssertTrue(got4)

        let watch = Task { await store.watchConnectivity(probeInterval: .seconds(3600)) }
        monitor.report(NetworkPath(isOnline: true))  // the phone joined a Wi-Fi network
        let ran = await TestClock.waitAsync(upTo: 30) { job.state == .done }
        XCTAssertTrue(ran, "the waiting job ran on the unmetered network: \(job.state)")
        let got5 = try await store.status(on: TestClock.metroDay).map(\.id)
        XCTAssertEqual(got5, ["valley"])
        watch.cancel()
        await watch.value
    }

    /// Pruning by age with the clock 8 days on: a cached bundle not opened goes; an explicit
    /// one, a pinned (saved) one and a cached one opened meanwhile stay. The age warning
    /// comes after 30 days.
    func testPruningRemovesOnlyCachedBundlesNotOpenedForTheChosenDays() async throws {
        let site = try site()
        let clock = SettableClock()
        let store = try site.store(clock: clock)
        try await store.refreshCatalogue(from: site.manifestURL)
        let got6 = try await store.download("metro", explicit: true).finished()
        XCTAssertEqual(got6, .done)
        let got7 = try await store.download("valley", explicit: false).finished()
        XCTAssertEqual(got7, .done)
        // Viewing a city keeps its bundle as cached: "both" serves no catalogue city, so by id.
        let viewed = try await store.noteViewed("both")
        let got8 = await viewed?.finished()
        XCTAssertEqual(got8, .done)
        let got9 = try await store.status(on: clock.now).first { $0.id == "both" }?.explicit
        XCTAssertEqual(got9, false)
        let got10 = try await store.noteViewed("zurich")
        XCTAssertNil(got10, "zurich's bundle (metro) is installed: only its access is noted")

        clock.advance(days: 3)
        _ = try await store.open("both")
        clock.advance(days: 5)  // 8 days after valley's last use, 5 after both's
        let got11 = try await store.prune()
        XCTAssertEqual(got11, ["valley"])
        let got12 = try await store.status(on: clock.now).map(\.id)
        XCTAssertEqual(got12, ["both", "metro"])

        try await store.setPreferences(StorePreferences(pruneAfterDays: 1))
        try await store.setPinned("both", true)  // the rider saved it
        let got13 = try await store.prune()
        XCTAssertEqual(got13, [], "pinned and explicit bundles are never pruned")
        let got14 = try await store.status(on: clock.now).map(\.id)
        XCTAssertEqual(got14, ["both", "metro"])

        let got15 = try await store.status(on: clock.now).filter(\.isOld).map(\.id)
        XCTAssertEqual(got15, [])
        clock.advance(days: 23)  // 31 days after the downloads
        let got16 = try await store.status(on: clock.now).filter(\.isOld).map(\.id)
        XCTAssertEqual(got16, ["both", "metro"])
        do {
            try await store.setPreferences(StorePreferences(pruneAfterDays: 91))
            XCTFail("91 days is out of range")
        } catch StoreError.badPreference(let reason) {
            XCTAssertTrue(reason.contains("prune_after_days must be 1 to 90"), reason)
        }
        let got17 = try await store.preferences().pruneAfterDays
        XCTAssertEqual(got17, 1, "nothing saved from a refused change")
    }

    /// A city with five photos, one missing (404) and one far larger than listed: the bundle
    /// installs, three are kept, the missing one comes at the next refresh, the oversized one
    /// is refused; the budget counts them; a removal deletes them.
    func testPhotosAreKeptCountedRetriedRefusedAndRemovedWithTheirBundle() async throws {
        let site = try site()
        let store = try site.store()
        try await store.refreshCatalogue(from: site.manifestURL)
        let got18 = try await store.download("metro", explicit: true).finished()
        XCTAssertEqual(got18, .done, "a failed photo never fails the bundle")
        var photos = try await store.photos(of: "metro")
        XCTAssertEqual(photos.count, 5)
        let kept = photos.filter { $0.localURL != nil }
        XCTAssertEqual(kept.map { URL(string: $0.url)!.lastPathComponent }, ["hero.png", "gallery.png", "tram.png"])
        for photo in kept {
            let name = URL(string: photo.url)!.lastPathComponent
            XCTAssertEqual(try Data(contentsOf: photo.localURL!), site.data("img/" + name), name)
            XCTAssertEqual(photo.bytes, Int64(site.data("img/" + name).count))
        }
        let late = try XCTUnwrap(photos.first { $0.url.hasSuffix("late.png") })
        XCTAssertNil(late.localURL)
        XCTAssertFalse(late.isRefused)
        XCTAssertTrue(late.failure?.contains("404") == true, late.failure ?? "")
        let huge = try XCTUnwrap(photos.first { $0.url.hasSuffix("huge.png") })
        XCTAssertTrue(huge.isRefused)
        XCTAssertTrue(huge.failure?.contains("sends more than") == true, huge.failure ?? "")

        let bundleBytes = try await store.status(on: TestClock.metroDay).first { $0.id == "metro" }!.bytes
        let photoBytes = kept.reduce(Int64(0)) { $0 + $1.bytes }
        let got19 = try await store.usedBytes()
        XCTAssertEqual(got19, bundleBytes + photoBytes, "the budget counts the photos")
        let got20 = try await store.status(on: TestClock.metroDay).first?.photoBytes
        XCTAssertEqual(got20, photoBytes)

        // The rider's offline city page finds the files by the catalogue's images.
        let city = try await store.open("metro").city(id: "zurich")
        let got21 = try await store.localURL(for: city.images[0])
        XCTAssertEqual(got21, kept[0].localURL)
        let got22 = try await store.localURL(for: city.images[4])
        XCTAssertNil(got22)

        try site.publishLatePhoto()
        try await store.refreshCatalogue(from: site.manifestURL)
        photos = try await store.photos(of: "metro")
        XCTAssertEqual(photos.filter { $0.localURL != nil }.count, 4, "the missing photo came with the refresh")
        XCTAssertEqual(site.nginx.log().filter { $0.uri.hasSuffix("huge.png") }.count, 1, "a refused photo is not fetched again")

        let folder = try XCTUnwrap(photos.first?.localURL).deletingLastPathComponent()
        try await store.remove("metro")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "the photos went with their bundle")
        let got23 = try await store.usedBytes()
        XCTAssertEqual(got23, 0)
    }

    /// Photos as a hostile catalogue lists them: a local file, a web page named like a PNG,
    /// and far more pictures than a city page needs. Nothing local is read, the page is not
    /// kept (and is tried again later), and only the first 64 are considered.
    func testHostilePhotoListingsReadNothingLocalAndStayBounded() async throws {
        let site = try site()
        try Data("<!doctype html><html><body>Please sign in</body></html>".utf8).write(
            to: site.site.appendingPathComponent("img/portal.png"))
        var images: [[String: Any]] = [
            ["url": "file:///etc/passwd", "type": "hero"],
            ["url": site.nginx.url("files/img/portal.png").absoluteString, "type": "gallery"],
        ]
        for index in 0..<80 {
            images.append(["url": site.nginx.url("files/img/hero.png?copy=\(index)").absoluteString, "type": "gallery"])
        }
        let city: [String: Any] = [
            "id": "zurich", "name": "Zürich", "country": "CH", "location": ["lat": 47.3769, "lng": 8.5417], "images": images,
            "feeds": ["metro"],
        ]
        let catalogue = site.site.appendingPathComponent("hostile-cities.json")
        try JSONSerialization.data(withJSONObject: ["version": 1, "cities": [city]]).write(to: catalogue)
        var request = CompileRequest(
            feeds: [.init(name: "metro", path: TestSupport.samples + "/metro")], citiesPath: catalogue.path,
            outputPath: site.path("hostile.db"))
        request.bundleID = "hostile"
        _ = try Compiler.compile(request)
        var manifest = try BundleManifest(bundles: [site.path("hostile.db")])
        manifest.sequence = 1
        try manifest.write(to: site.path("hostile.json"))

        let store = try site.store()
        try await store.refreshCatalogue(from: site.nginx.url("files/hostile.json"))
        let state = try await store.download("hostile", explicit: true).finished()
        XCTAssertEqual(state, .done)
        let photos = try await store.photos(of: "hostile")
        XCTAssertEqual(photos.count, BundleStore.maximumPhotosPerBundle, "only the first 64 pictures are considered")
        let local = try XCTUnwrap(photos.first { $0.url.hasPrefix("file:") })
        XCTAssertTrue(local.isRefused)
        XCTAssertNil(local.localURL)
        XCTAssertEqual(local.failure, "file:///etc/passwd is not an http or https URL")
        let portal = try XCTUnwrap(photos.first { $0.url.hasSuffix("portal.png") })
        XCTAssertNil(portal.localURL)
        XCTAssertFalse(portal.isRefused, "a captive portal's page is tried again later")
        XCTAssertTrue(portal.failure?.contains("web page") == true, portal.failure ?? "")
        let kept = photos.filter { $0.localURL != nil }
        XCTAssertEqual(kept.count, 62)
        XCTAssertEqual(site.nginx.log().filter { $0.uri.contains("hero.png?copy=") }.count, 62)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: try XCTUnwrap(kept.first?.localURL).deletingLastPathComponent().path)
        XCTAssertEqual(files.count, 62, "one file per kept photo, nothing else")
    }

    /// Jobs keep their id, times and outcome: completed ones for 24 hours, failed ones for
    /// 7 days; `clearAll` leaves 0 bytes and keeps the preferences.
    func testJobHistoryRetentionAndClearAll() async throws {
        let site = try site()
        let clock = SettableClock()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder, clock: clock)
        try await store.refreshCatalogue(from: site.manifestURL)
        let first = try await store.download("valley", explicit: true)
        let got24 = await first.finished()
        XCTAssertEqual(got24, .done)
        try await store.remove("valley")
        clock.advance(by: 60)
        let second = try await store.download("valley", explicit: true)
        let got25 = await second.finished()
        XCTAssertEqual(got25, .done)
        let failed = try await store.download("spare")
        guard case .failed = await failed.finished() else { return XCTFail("spare's file is gone: \(failed.state)") }

        var history = try await store.jobHistory()
        XCTAssertEqual(history.map(\.bundleID), ["spare", "valley", "valley"], "newest first")
        XCTAssertEqual(Set(history.map(\.id)).count, 3, "each job its own id")
        XCTAssertEqual(history.map(\.state), ["failed", "done", "done"])
        XCTAssertEqual(history[0].error?.code, "transfer")
        XCTAssertEqual(history[2].startedAt, TestClock.metroDay)
        XCTAssertEqual(history[2].finishedAt, TestClock.metroDay)
        XCTAssertEqual(history[1].startedAt, TestClock.metroDay.addingTimeInterval(60))
        XCTAssertEqual(history[2].id, first.id)

        clock.advance(by: 86_400 + 61)
        history = try await store.jobHistory()
        XCTAssertEqual(history.map(\.bundleID), ["spare"], "completed jobs go after 24 h, the failed one stays")
        clock.advance(days: 5)
        history = try await store.jobHistory()
        XCTAssertEqual(history.map(\.bundleID), ["spare"], "failed ones stay 7 days")
        clock.advance(days: 1)
        let got26 = try await store.jobHistory().count
        XCTAssertEqual(got26, 0)

        let preferences = StorePreferences(maxBytes: 50_000_000, wifiOnly: true, pruneAfterDays: 14)
        try await store.setPreferences(preferences)
        let rider = folder.appendingPathComponent("rider.sqlite")
        try Data("the rider's own data".utf8).write(to: rider)
        try await store.clearAll()
        let got27 = try await store.usedBytes()
        XCTAssertEqual(got27, 0)
        let got28 = try await store.status(on: TestClock.metroDay).isEmpty
        XCTAssertTrue(got28)
        let got29 = try await store.preferences()
        XCTAssertEqual(got29, preferences)
        XCTAssertEqual(try Data(contentsOf: rider), Data("the rider's own data".utf8), "the rider's data is not touched")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("bundles").path)
        XCTAssertEqual(left, [])
    }

    /// "Download all" runs the manifest's bundles one after another with overall progress.
    func testDownloadAllReportsOverallProgress() async throws {
        let site = try site()
        let store = try site.store()
        try await store.refreshCatalogue(from: site.manifestURL)
        let batch = try await store.downloadAll(["metro", "valley", "zurich"])
        XCTAssertEqual(batch.jobs.map(\.bundleID), ["metro", "valley"], "zurich is served by metro, asked for once")
        var seen: [BatchProgress] = []
        for await progress in batch.updates { seen.append(progress) }
        let end = await batch.finished()
        XCTAssertEqual(end.finishedJobs, 2)
        XCTAssertEqual(end.failedJobs, 0)
        XCTAssertEqual(end.fraction, 1)
        XCTAssertEqual(end.totalBytes, Int64(site.data("metro-1.db").count + site.data("valley.db").count))
        XCTAssertEqual(seen.map(\.doneBytes), seen.map(\.doneBytes).sorted(), "progress only grows")
        let got30 = try await store.downloadAll(["metro"]).jobs.count
        XCTAssertEqual(got30, 0, "installed bundles are left out")
    }
}
