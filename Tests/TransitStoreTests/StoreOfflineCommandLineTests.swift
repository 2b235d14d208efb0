import Foundation
import TestKit
import TestSupport
import TransitStore
import XCTest

/// The offline-mode commands of `transit-store` (jobs, photos, viewed, prefs, prune,
/// clear-all), each with `--now`, and their JSON as the library's `Codable` values.
final class StoreOfflineCommandLineTests: XCTestCase {
    private func run(_ folder: URL, _ arguments: [String]) throws -> StoreCommandLineTests.Run {
        StoreCommandLineTests.finish(try StoreCommandLineTests.start(folder, arguments))
    }

    func testOfflineCommandsWithTheClockGiven() async throws {
        guard NginxServer.executable != nil else { throw TestPaths.missing("nginx is not installed; make deps installs it") }
        let site = try OfflineSite()
        let folder = TemporaryFolders.make()
        let day0 = "2026-03-30T12:00:00Z"
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        XCTAssertEqual(try run(folder, ["manifest", site.manifestURL.absoluteString, "--now", day0]).status, 0)
        XCTAssertEqual(try run(folder, ["download", "valley", "--explicit", "--now", day0]).status, 0)
        let spare = try run(folder, ["download", "spare", "--now", day0])
        XCTAssertEqual(spare.status, 1, spare.stderr)
        let viewed = try run(folder, ["viewed", "zurich", "--now", day0])
        XCTAssertEqual(viewed.status, 0, viewed.stderr)
        XCTAssertEqual(viewed.stdout, "metro: done\n", "the city's bundle is downloaded, cached")

        let photos = try run(folder, ["photos", "metro", "--json"])
        XCTAssertEqual(photos.status, 0, photos.stderr)
        struct Photos: Decodable { var photos: [CityPhoto] }
        let listed = try decoder.decode(Photos.self, from: Data(photos.stdout.utf8)).photos
        let library = try BundleStore(directory: folder.path)
        let libraryPhotos = try await library.photos(of: "metro")
        XCTAssertEqual(listed, libraryPhotos)
        XCTAssertEqual(listed.filter { $0.localURL != nil }.count, 3)
        XCTAssertEqual(try run(folder, ["photos", "atlantis"]).status, 3)

        struct Jobs: Decodable { var jobs: [JobRecord] }
        let jobs = try decoder.decode(Jobs.self, from: Data(try run(folder, ["jobs", "--json", "--now", day0]).stdout.utf8)).jobs
        XCTAssertEqual(jobs.map(\.bundleID), ["metro", "spare", "valley"])
        XCTAssertEqual(jobs.map(\.state), ["done", "failed", "done"])
        XCTAssertEqual(jobs.first?.startedAt, TestClock.metroDay)
        let later = try run(folder, ["jobs", "--json", "--now", "2026-04-01T12:00:00Z"])
        XCTAssertEqual(try decoder.decode(Jobs.self, from: Data(later.stdout.utf8)).jobs.map(\.bundleID), ["spare"])

        let prefs = try run(folder, ["prefs", "--wifi-only", "true", "--prune-after-days", "7", "--json"])
        XCTAssertEqual(prefs.status, 0, prefs.stderr)
        XCTAssertEqual(prefs.json["wifi_only"] as? Bool, true)
        XCTAssertEqual(prefs.json["prune_after_days"] as? Int, 7)
        let saved = try await library.preferences()
        XCTAssertEqual(try decoder.decode(StorePreferences.self, from: Data(prefs.stdout.utf8)), saved)
        let outOfRange = try run(folder, ["prefs", "--prune-after-days", "0"])
        XCTAssertEqual(outOfRange.status, 64, outOfRange.stderr)
        XCTAssertTrue(outOfRange.stderr.contains("prune_after_days is a whole number from 1 to 90"), outOfRange.stderr)
        XCTAssertEqual(try run(folder, ["prefs", "--wifi-only", "false"]).status, 0)

        XCTAssertEqual(try run(folder, ["prune", "--json", "--now", "2026-04-05T12:00:00Z"]).json["removed"] as? [String], [])
        let pruned = try run(folder, ["prune", "--json", "--now", "2026-04-07T12:00:00Z"])
        XCTAssertEqual(pruned.json["removed"] as? [String], ["metro"], "the viewed (cached) bundle, not the explicit one")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("photos/metro").path))

        XCTAssertEqual(try run(folder, ["save", "city", "valley", "--now", day0]).status, 0)
        let cleared = try run(folder, ["clear-all", "--json"])
        XCTAssertEqual(cleared.json["used_bytes"] as? Int, 0, cleared.stderr)
        let after = try run(folder, ["status", "--json", "--on", TestClock.metroDayText]).json
        XCTAssertEqual((after["bundles"] as? [Any])?.count, 0)
        XCTAssertEqual(try run(folder, ["prefs", "--json"]).json["prune_after_days"] as? Int, 7, "preferences kept")
        let kept = try JSONSerialization.jsonObject(with: Data(try run(folder, ["saved", "--json"]).stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(kept?.compactMap { ($0["target"] as? [String: Any])?["id"] as? String }, ["valley"], "saved items kept")
        let pending = try JSONSerialization.jsonObject(with: Data(try run(folder, ["pending", "--json"]).stdout.utf8)) as? [Any]
        XCTAssertEqual(pending?.count, 1, "the rider's pending change kept")
    }
}
