import Foundation
import TestKit
import TestSupport
import XCTest

/// Signed manifests end to end, as a publisher and a device would run them: `gtfs-compile
/// keygen` and `manifest --sign`, then `transit-store --trusted-key` against a real server.
/// Forged, re-signed, changed, unsigned, replayed and expired manifests are each refused with
/// their exit status and reason, and the folder keeps what it had.
final class StoreSignedManifestTests: XCTestCase {
    private struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    private func tool(_ name: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent(name)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    func testForgedChangedUnsignedReplayedAndExpiredManifestsAreRefused() async throws {
        let site = try StoreFixture()
        let keys = TemporaryFolders.make()
        let (a, b) = (keys.appendingPathComponent("a").path, keys.appendingPathComponent("b").path)
        XCTAssertEqual(try tool("gtfs-compile", ["keygen", "--output", a]).status, 0)
        XCTAssertEqual(try tool("gtfs-compile", ["keygen", "--output", b]).status, 0)
        XCTAssertEqual(try tool("gtfs-compile", ["keygen", "--output", a]).status, 1, "an existing key is not overwritten")
        let mode = try FileManager.default.attributesOfItem(atPath: a)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "the private key is its owner's alone")
        func publish(_ name: String, _ files: [String], patch: String? = nil, sequence: Int, signers: [String]) throws {
            let arguments =
                ["manifest"] + files.map(site.path) + ["-o", site.path(name), "--sequence", String(sequence)]
                + (patch.map { ["--patch", site.path($0)] } ?? []) + signers.flatMap { ["--sign", $0] }
            let result = try tool("gtfs-compile", arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        // Without --sequence, the Unix time in milliseconds: two publications one after the
        // other get two numbers, both past every seconds-based default.
        var defaults: [Int64] = []
        for name in ["default-1.json", "default-2.json"] {
            XCTAssertEqual(try tool("gtfs-compile", ["manifest", site.path("valley.db"), "-o", site.path(name)]).status, 0)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: site.path(name)))) as? [String: Any]
            defaults.append(try XCTUnwrap((json?["sequence"] as? NSNumber)?.int64Value))
        }
        XCTAssertLessThan(defaults[0], defaults[1])
        XCTAssertGreaterThan(defaults[0], 1_000_000_000_000)
        try publish("s1.json", ["metro-1.db", "valley.db", "both.db"], sequence: 100, signers: [a])
        try publish("s2.json", ["metro-2.db", "valley.db", "both.db"], patch: "metro-1-2.patch", sequence: 200, signers: [a])
        try publish("by-b.json", ["metro-2.db", "valley.db", "both.db"], sequence: 300, signers: [b])
        try publish("by-both.json", ["metro-2.db", "valley.db", "both.db"], sequence: 400, signers: [a, b])
        // An older manifest signed with the same sequence as s2 (two publications within one
        // second under the old Unix-seconds default): other content, the same number.
        try publish("s2-older.json", ["metro-1.db", "valley.db", "both.db"], sequence: 200, signers: [a])
        // One byte changed after signing: the signature stays, the bytes do not match.
        var changed = try Data(contentsOf: URL(fileURLWithPath: site.path("s2.json")))
        let at = try XCTUnwrap(changed.firstRange(of: Data("\"metro\"".utf8))).lowerBound + 1
        changed[at] = UInt8(ascii: "n")
        try changed.write(to: URL(fileURLWithPath: site.path("changed.json")))
        try FileManager.default.copyItem(atPath: site.path("s2.json.sig"), toPath: site.path("changed.json.sig"))

        let folder = TemporaryFolders.make()
        func store(_ arguments: [String], trusting: [String] = [a + ".pub"]) throws -> Run {
            try tool(
                "transit-store", ["--dir", folder.path, "--retry-pause", "0.05"] + trusting.flatMap { ["--trusted-key", $0] } + arguments)
        }
        func installed() throws -> String? {
            let status = try store(["status", "--on", TestClock.metroDayText, "--json"])
            let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            return (json?["bundles"] as? [[String: Any]])?.first { $0["id"] as? String == "metro" }?["content_sha256"] as? String
        }
        let v1 = try BundleFacts.contentHash(site.path("metro-1.db"))
        let v2 = try BundleFacts.contentHash(site.path("metro-2.db"))

        XCTAssertEqual(try store(["prefs", "--auto-update", "false"]).status, 0)
        let first = try store(["manifest", site.server.url("s1.json").absoluteString])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertFalse(first.stderr.contains("not authenticated"), first.stderr)
        XCTAssertEqual(try store(["download", "metro"]).status, 0)
        XCTAssertEqual(try installed(), v1)

        let refusals: [(file: String, status: Int32, reason: String)] = [
            ("by-b.json", 7, "untrusted manifest: the manifest is not signed by a trusted key"),
            ("changed.json", 7, "untrusted manifest: the signature does not match the manifest (it was changed after it was signed)"),
            ("v2.json", 7, "untrusted manifest: no signature"),
        ]
        for (file, status, reason) in refusals {
            let run = try store(["manifest", site.server.url(file).absoluteString])
            XCTAssertEqual(run.status, status, "\(file): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(reason), "\(file): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("the last good manifest is kept"), run.stderr)
        }
        // The last good manifest (s1) still answers, and nothing was installed.
        let listed = try store(["list", "--json"])
        XCTAssertTrue(listed.stdout.contains(v1), listed.stdout)
        XCTAssertEqual(try installed(), v1)

        // The next version installs by patch; then the older manifest served again is a replay.
        XCTAssertEqual(try store(["manifest", site.server.url("s2.json").absoluteString]).status, 0)
        XCTAssertEqual(try store(["update", "metro"]).stdout, "metro: done\n")
        XCTAssertEqual(try installed(), v2)
        let replay = try store(["manifest", site.server.url("s1.json").absoluteString])
        XCTAssertEqual(replay.status, 8, replay.stderr)
        XCTAssertTrue(replay.stderr.contains("its sequence 100 is lower than the last good manifest's 200 (a replay)"), replay.stderr)
        XCTAssertEqual(try store(["update"]).stdout, "nothing to do\n")
        XCTAssertEqual(try installed(), v2, "never downgraded")
        // The same number with other content is a replay too; the same manifest again is fine.
        let sameNumber = try store(["manifest", site.server.url("s2-older.json").absoluteString])
        XCTAssertEqual(sameNumber.status, 8, sameNumber.stderr)
        XCTAssertTrue(
            sameNumber.stderr.contains("its sequence 200 is the last good manifest's, but its content differs"), sameNumber.stderr)
        XCTAssertEqual(try store(["update"]).stdout, "nothing to do\n")
        XCTAssertEqual(try installed(), v2, "never downgraded by a manifest of the same number")
        XCTAssertEqual(try store(["manifest", site.server.url("s2.json").absoluteString]).status, 0, "the same manifest fetched again")

        // Key rotation: trusting both keys, a manifest signed by the new one alone is taken.
        XCTAssertEqual(try store(["manifest", site.server.url("by-b.json").absoluteString], trusting: [a + ".pub", b + ".pub"]).status, 0)
        XCTAssertEqual(try store(["manifest", site.server.url("by-both.json").absoluteString]).status, 0, "signed by a and b")
        XCTAssertEqual(StoreFolderCheck.problems(in: folder), [])
    }

    /// Without trusted keys the store says once that manifests are not authenticated; a
    /// manifest that expired installs nothing, and the bundles keep working, marked stale.
    func testAnExpiredManifestInstallsNothingNew() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        func store(_ arguments: [String]) throws -> Run { try tool("transit-store", ["--dir", folder.path] + arguments) }
        var json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: site.site.appendingPathComponent("v1.json"))) as? [String: Any])
        json["sequence"] = 5
        json["expires"] = "2020-01-01T00:00:00Z"
        try JSONSerialization.data(withJSONObject: json).write(to: site.site.appendingPathComponent("expired.json"))
        let first = try store(["manifest", site.server.url("v1.json").absoluteString])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("manifests are not authenticated"), first.stderr)
        XCTAssertEqual(try store(["download", "valley"]).status, 0)
        let expired = try store(["manifest", site.server.url("expired.json").absoluteString])
        XCTAssertEqual(expired.status, 8, expired.stderr)
        XCTAssertTrue(expired.stderr.contains("stale manifest: it expired on 2020-01-01T00:00:00Z"), expired.stderr)
        XCTAssertEqual(try store(["open", "valley"]).status, 0, "the installed bundle keeps working")
    }
}
