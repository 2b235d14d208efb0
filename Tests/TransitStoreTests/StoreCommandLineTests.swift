import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitStore
import XCTest

/// `transit-store` as a user and a script run it, and killed with SIGKILL mid-job.
final class StoreCommandLineTests: XCTestCase {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]) ?? [:] }
    }

    func store(_ folder: URL, _ arguments: [String]) throws -> Run {
        Self.finish(try Self.start(folder, arguments))
    }

    /// Reads a started command's output to its end and waits (up to a minute) for its exit.
    static func finish(_ process: Process) -> Run {
        let stdout = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        let stderr = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
        for _ in 0..<6000 where process.isRunning { usleep(10_000) }
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func start(_ folder: URL, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent("transit-store")
        process.arguments = ["--dir", folder.path] + arguments + ["--retry-pause", "0.05"]
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// `value` with its dates to the second, as ISO 8601 writes them.
    static func toTheSecond<T: Codable>(_ value: T) throws -> T {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: encoder.encode(value))
    }

    func testACommandLineSessionWithExitCodesAndJSON() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let none = try store(folder, ["list"])
        XCTAssertEqual(none.status, 3, none.stderr)
        XCTAssertTrue(none.stderr.contains("no manifest yet"), none.stderr)
        XCTAssertEqual(try store(folder, ["manifest", site.server.url("v1.json").absoluteString]).stdout, "3 bundles, 0 patches\n")
        let list = try store(folder, ["list", "--json"])
        let offered = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(offered.map { $0["id"] as? String }, ["metro", "valley", "both"])
        XCTAssertEqual(offered.first?["bytes"] as? Int, Int(site.bytes("metro-1.db")))
        XCTAssertEqual(offered.first?["availability"] as? String, "available")
        // Each --json output decodes into the library's type, and is the library's answer.
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let library = try BundleStore(directory: folder.path)
        let offers = try await library.offers()
        XCTAssertEqual(try decoder.decode([BundleOffer].self, from: Data(list.stdout.utf8)), offers)
        let download = try store(folder, ["download", "metro", "--explicit", "--json"])
        XCTAssertEqual(download.status, 0, download.stderr)
        XCTAssertEqual((download.json["jobs"] as? [[String: Any]])?.first?["state"] as? String, "done")
        struct Jobs: Decodable { var jobs: [JobOutcome] }
        XCTAssertEqual(try decoder.decode(Jobs.self, from: Data(download.stdout.utf8)).jobs, [JobOutcome(id: "metro", state: "done")])
        let listed = try decoder.decode([BundleOffer].self, from: Data(try store(folder, ["list", "--json"]).stdout.utf8))
        XCTAssertEqual(listed.map(\.availability), [.installed, .available, .available])
        XCTAssertEqual(listed.map(\.isPinned), [true, false, false])
        let summary = try store(folder, ["status", "--on", TestClock.metroDayText, "--json"])
        let librarySummary = try await library.summary(on: TestClock.metroDay, timeZone: .current)
        XCTAssertEqual(try decoder.decode(StoreSummary.self, from: Data(summary.stdout.utf8)), try Self.toTheSecond(librarySummary))
        let status = summary.json
        let bundle = (status["bundles"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(bundle["id"] as? String, "metro")
        XCTAssertEqual(bundle["explicit"] as? Bool, true)
        XCTAssertEqual(bundle["content_sha256"] as? String, try BundleFacts.contentHash(site.path("metro-1.db")))
        XCTAssertEqual(bundle["path"] as? String, folder.appendingPathComponent("bundles/metro.db").path)
        XCTAssertEqual(status["used_bytes"] as? Int, Int(site.bytes("metro-1.db")))
        XCTAssertEqual(try store(folder, ["open", "metro"]).stdout, folder.appendingPathComponent("bundles/metro.db").path + "\n")
        // Unknown bundle 3, over budget 2, unreadable manifest 4, bad arguments 64.
        XCTAssertEqual(try store(folder, ["download", "atlantis"]).status, 3)
        let prefs = try store(folder, ["prefs", "--max-bytes", "60000", "--json"])
        XCTAssertEqual(prefs.json["max_bytes"] as? Int, 60000)
        let preferences = try await library.preferences()
        XCTAssertEqual(try decoder.decode(StorePreferences.self, from: Data(prefs.stdout.utf8)), preferences)
        let over = try store(folder, ["download", "valley", "--json"])
        XCTAssertEqual(over.status, 2, over.stderr)
        XCTAssertTrue(over.stderr.contains("needs \(site.bytes("valley.db")) more bytes, but the budget is 60000 bytes"), over.stderr)
        try Data("not json".utf8).write(to: site.site.appendingPathComponent("junk.json"))
        let junk = try store(folder, ["manifest", site.server.url("junk.json").absoluteString])
        XCTAssertEqual(junk.status, 4, junk.stderr)
        XCTAssertEqual(try store(folder, ["download"]).status, 64)
        // update: nothing to do on v1; the patch on v2.
        XCTAssertEqual(try store(folder, ["prefs", "--max-bytes", "0", "--auto-update", "false"]).status, 0)
        XCTAssertEqual(try store(folder, ["update"]).stdout, "nothing to do\n")
        XCTAssertEqual(try store(folder, ["manifest", site.server.url("v2.json").absoluteString]).status, 0)
        let stale = try store(folder, ["status", "--on", TestClock.metroDayText])
        XCTAssertTrue(stale.stdout.contains("explicit, stale"), stale.stdout)
        let update = try store(folder, ["update", "metro"])
        XCTAssertEqual(update.stdout, "metro: done\n", update.stderr)
        let requested = try await site.server.log().map(\.path)
        XCTAssertEqual(requested.last, "/metro-1-2.patch")
        // With automatic updates on, fetching a manifest runs the updates it brings (here v1 again, the whole file).
        XCTAssertEqual(try store(folder, ["prefs", "--auto-update", "true"]).status, 0)
        let automatic = try store(folder, ["manifest", site.server.url("v1.json").absoluteString])
        XCTAssertEqual(automatic.stdout, "3 bundles, 0 patches\nmetro: done\n", automatic.stderr)
        let back = try store(folder, ["status", "--on", TestClock.metroDayText, "--json"]).json["bundles"] as? [[String: Any]]
        XCTAssertEqual(back?.first?["content_sha256"] as? String, try BundleFacts.contentHash(site.path("metro-1.db")))
        XCTAssertEqual(try store(folder, ["remove", "metro"]).stdout, "removed metro\n")
        XCTAssertEqual(try store(folder, ["remove", "metro"]).status, 3)
    }

    /// Shared options go before or after the subcommand; numbers that mean nothing are refused;
    /// a budget below the pinned bundles is kept and said.
    func testOptionsAnywhereAndValuesChecked() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent("transit-store")
        process.arguments = ["--dir", folder.path, "--json", "--timeout", "5", "manifest", site.server.url("v1.json").absoluteString]
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(try store(folder, ["download", "metro", "--explicit"]).status, 0)
        for bad in [
            ["prefs", "--max-bytes", "-5"], ["prefs", "--stale-days", "-3"], ["status", "--on", TestClock.metroDayText, "--timeout", "0"],
        ] {
            let run = try store(folder, bad)
            XCTAssertEqual(run.status, 64, "\(bad): \(run.stderr)")
        }
        let below = try store(folder, ["prefs", "--max-bytes", "1000", "--json"])
        XCTAssertEqual(below.status, 0, below.stderr)
        XCTAssertTrue(below.stderr.contains("more than the budget of 1000"), below.stderr)
        XCTAssertTrue((below.json["warning"] as? String)?.contains("explicitly") == true, below.stdout)
        let status = try store(folder, ["status", "--on", TestClock.metroDayText, "--json"])
        XCTAssertEqual((status.json["bundles"] as? [Any])?.count, 1, "an explicit bundle is never evicted")
    }

    /// Kills the command at random moments of downloads, patch updates and installs; after
    /// each kill a `resume` must finish the job and leave only whole, recorded bundles.
    func testKillingTheCommandAtAnyMomentLosesNothing() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let hashes = [
            "metro-1": try BundleFacts.contentHash(site.path("metro-1.db")),
            "metro-2": try BundleFacts.contentHash(site.path("metro-2.db")),
            "both": try BundleFacts.contentHash(site.path("both.db")),
        ]
        // About a third of a second per file, so that kills land in every phase.
        for file in ["metro-1.db", "metro-2.db", "both.db", "metro-1-2.patch"] {
            try await site.server.inject(["path": "/" + file, "rate": 200_000])
        }
        // The kill moments are drawn from a seed (TEST_SEED replays them; timing still varies).
        let seed = SplitMix64.testSeed(0x5EED_0003)
        var generator = SplitMix64(state: seed)
        let rounds = 18
        var killedWithPartialFiles = 0
        for round in 0..<rounds {
            let (manifest, command, id, expected): (String, [String], String, String)
            switch round % 3 {
            case 0:
                _ = try store(folder, ["remove", "metro"])
                (manifest, command, id, expected) = ("v1.json", ["download", "metro", "--explicit"], "metro", hashes["metro-1"]!)
            case 1: (manifest, command, id, expected) = ("v2.json", ["update", "metro"], "metro", hashes["metro-2"]!)
            default:
                _ = try store(folder, ["remove", "both"])
                (manifest, command, id, expected) = ("v1.json", ["download", "both"], "both", hashes["both"]!)
            }
            XCTAssertEqual(try store(folder, ["prefs", "--auto-update", "false"]).status, 0)
            XCTAssertEqual(try store(folder, ["manifest", site.server.url(manifest).absoluteString]).status, 0)
            let process = try Self.start(folder, command)
            usleep(UInt32.random(in: 20_000...450_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            for _ in 0..<500 where process.isRunning { usleep(10_000) }
            if !StoreFolderCheck.leftovers(in: folder).isEmpty { killedWithPartialFiles += 1 }
            let pendingBefore =
                (try store(folder, ["status", "--on", TestClock.metroDayText, "--json"]).json["pending_jobs"] as? [[String: Any]] ?? [])
                .compactMap {
                    $0["id"] as? String
                }
            // The next run finishes what was interrupted (or finds it done).
            let resumed = try store(folder, ["resume"])
            XCTAssertEqual(resumed.status, 0, "round \(round), TEST_SEED=\(seed): \(resumed.stderr)")
            let status = try store(folder, ["status", "--on", TestClock.metroDayText, "--json"]).json
            XCTAssertEqual((status["pending_jobs"] as? [Any])?.count, 0, "round \(round)")
            let target = (status["bundles"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }
            if !pendingBefore.contains(id) && target?["content_sha256"] as? String != expected {
                // Killed before the job was recorded: nothing was promised. Run it again.
                XCTAssertEqual(try store(folder, command).status, 0, "round \(round)")
            }
            let after = try store(folder, ["status", "--on", TestClock.metroDayText, "--json"]).json["bundles"] as? [[String: Any]] ?? []
            let installed = after.first { $0["id"] as? String == id }
            XCTAssertEqual(installed?["content_sha256"] as? String, expected, "round \(round)")
            if let metro = after.first(where: { $0["id"] as? String == "metro" }) {
                XCTAssertEqual(metro["explicit"] as? Bool, true, "round \(round): explicit kept")
            }
            XCTAssertEqual(StoreFolderCheck.problems(in: folder), [], "round \(round)")
            for bundle in after {
                let recorded = try BundleFacts.contentHash(bundle["path"] as? String ?? "")
                XCTAssertEqual(recorded, bundle["content_sha256"] as? String, "round \(round): the state's hash is the file's")
            }
        }
        XCTAssertGreaterThan(killedWithPartialFiles, 0, "some kills must land mid-transfer")
        print("kill -9 rounds: \(rounds), \(killedWithPartialFiles) left partial files behind")
    }
}
