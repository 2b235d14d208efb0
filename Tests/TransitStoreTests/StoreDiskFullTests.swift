import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// The store on a real full filesystem: a 2 MB tmpfs mounted in a private mount namespace
/// (`unshare -m`, as root; the test is skipped where that is not allowed), with
/// `transit-store` run as a user would, step by step, by one shell script.
final class StoreDiskFullTests: XCTestCase {
    func testAFullDiskIsAStorageErrorAndLosesNoSettings() async throws {
        try MountNamespaceScript.requireRoot(for: "mounting a tmpfs")
        let site = try StoreFixture()
        let mountPoint = TemporaryFolders.make().appendingPathComponent("disk").path
        let script =
            Self.prelude(mountPoint, site) + """
                step prefs $S prefs --max-bytes 10000000 --auto-update false --stale-days 3
                step download-metro $S download metro --explicit
                # Fill the disk, then free 24 KB: the state file can still write, a bundle cannot.
                dd if=/dev/zero of=\(mountPoint)/spare bs=4096 count=6 2>/dev/null
                dd if=/dev/zero of=\(mountPoint)/filler bs=4096 2>/dev/null
                rm \(mountPoint)/spare
                step download-valley $S download valley
                step status-full $S status --on 2026-03-30
                step list-full $S list
                step prefs-full $S prefs
                # Nothing left at all: reading still works, and remove frees space.
                dd if=/dev/zero of=\(mountPoint)/filler3 bs=1024 2>/dev/null
                step status-none $S status --on 2026-03-30
                step remove-metro $S remove metro
                rm -f \(mountPoint)/filler \(mountPoint)/filler2 \(mountPoint)/filler3
                step download-valley-again $S download valley
                step status-after $S status --on 2026-03-30
                ls -a \(mountPoint)/store
                umount \(mountPoint)
                """
        let text = try MountNamespaceScript.run(script, mount: "mounting a tmpfs")
        let steps = ScriptSteps(text)
        func step(_ name: String) throws -> (status: Int, output: String) { try steps.step(name) }
        func json(_ name: String) throws -> [String: Any] { try steps.json(name) }
        for name in ["manifest", "prefs", "download-metro"] { XCTAssertEqual(try step(name).status, 0, "\(name): \(text)") }
        // A download that meets a full disk is a storage error of its own (exit 6) that says so.
        let full = try step("download-valley")
        XCTAssertEqual(full.status, 6, full.output)
        XCTAssertTrue(full.output.contains("no space left on the device"), full.output)
        XCTAssertTrue(full.output.contains("\"no_space\""), full.output)
        XCTAssertFalse(full.output.contains("NSCocoaErrorDomain"), full.output)
        // Reading works, and nothing was lost: settings, the pinned bundle, the manifest.
        for name in ["status-full", "list-full", "prefs-full", "status-none"] {
            XCTAssertEqual(try step(name).status, 0, "\(name): \(text)")
        }
        let status = try json("status-full")
        XCTAssertEqual(status["max_bytes"] as? Int, 10_000_000)
        XCTAssertEqual((status["pending_jobs"] as? [Any])?.count, 0, "no job left to loop on: \(status)")
        XCTAssertEqual((status["bundles"] as? [[String: Any]])?.first?["explicit"] as? Bool, true)
        let prefs = try json("prefs-full")
        XCTAssertEqual(prefs["auto_update"] as? Bool, false)
        XCTAssertEqual(prefs["stale_days"] as? Int, 3)
        XCTAssertEqual(try step("remove-metro").status, 0, text)
        XCTAssertEqual(try step("download-valley-again").status, 0, text)
        let after = try json("status-after")
        XCTAssertEqual((after["bundles"] as? [[String: Any]])?.map { $0["id"] as? String }, ["valley"])
        XCTAssertEqual(after["max_bytes"] as? Int, 10_000_000)
        XCTAssertFalse(text.contains("store.sqlite.damaged"), text)
    }

    /// A patch update that meets a full disk: the patch arrives, applying it needs a copy of
    /// the bundle the disk has no room for, the whole file is tried instead (the fallback)
    /// and does not fit either: `noSpace` (exit 6), the installed version untouched and no
    /// temporary file left. With space again the same update goes by the patch.
    func testAFullDiskDuringAPatchIsNoSpaceAndKeepsTheInstalledVersion() async throws {
        try MountNamespaceScript.requireRoot(for: "mounting a tmpfs")
        let site = try StoreFixture()
        let mountPoint = TemporaryFolders.make().appendingPathComponent("disk").path
        // Room for the patch and the state file's growth, not for a copy of the bundle.
        let spareBlocks = (site.bytes("metro-1.db") - 8192) / 4096
        XCTAssertLessThan(site.bytes("metro-1-2.patch") + 24_576, spareBlocks * 4096, "the fixture's patch must leave room for the state")
        let script =
            Self.prelude(mountPoint, site) + """
                step prefs $S prefs --auto-update false
                step download-metro $S download metro --explicit
                step manifest-2 $S manifest \(site.server.url("v2.json").absoluteString)
                dd if=/dev/zero of=\(mountPoint)/spare bs=4096 count=\(spareBlocks) 2>/dev/null
                dd if=/dev/zero of=\(mountPoint)/filler bs=4096 2>/dev/null
                rm \(mountPoint)/spare
                step update-full $S update metro
                step status-full $S status --on 2026-03-30
                echo "@@ files"; ls -a \(mountPoint)/store; echo "@@ exit 0"
                rm -f \(mountPoint)/filler
                step update-again $S update metro
                step status-after $S status --on 2026-03-30
                umount \(mountPoint)
                """
        let text = try MountNamespaceScript.run(script, mount: "mounting a tmpfs")
        let steps = ScriptSteps(text)
        for name in ["manifest", "prefs", "download-metro", "manifest-2"] {
            XCTAssertEqual(try steps.step(name).status, 0, "\(name): \(text)")
        }
        let full = try steps.step("update-full")
        XCTAssertEqual(full.status, 6, full.output)
        XCTAssertTrue(full.output.contains("no space left on the device"), full.output)
        XCTAssertFalse(full.output.contains("NSCocoaErrorDomain"), full.output)
        // Only the failed update asks for the whole file (the one that succeeds goes by the patch).
        let requests = try await site.server.log().map(\.path)
        let patchAt = try XCTUnwrap(requests.firstIndex(of: "/metro-1-2.patch"), "\(requests)")
        XCTAssertTrue(requests[patchAt...].contains("/metro-2.db"), "the whole file was tried after the patch: \(requests)")
        XCTAssertEqual(requests.filter { $0 == "/metro-2.db" }.count, 1, "\(requests)")
        let version1 = try BundleFacts.contentHash(site.path("metro-1.db"))
        let version2 = try BundleFacts.contentHash(site.path("metro-2.db"))
        func installed(_ name: String) throws -> [String?] {
            (try steps.json(name)["bundles"] as? [[String: Any]])?.map { $0["content_sha256"] as? String } ?? []
        }
        XCTAssertEqual(try installed("status-full"), [version1])
        let files = try steps.step("files").output
        for leftover in [".patching", ".made", ".part"] { XCTAssertFalse(files.contains(leftover), files) }
        XCTAssertEqual(try steps.step("update-again").status, 0, text)
        XCTAssertEqual(try installed("status-after"), [version2])
    }
}

extension StoreDiskFullTests {
    /// The start of each test's script: a 2 MB tmpfs at `mountPoint`, `$S` the store's
    /// command on a folder there, `step NAME command...` printing "@@ NAME", the output and
    /// "@@ exit N", and the manifest v1 fetched (step `manifest`).
    static func prelude(_ mountPoint: String, _ site: StoreFixture) -> String {
        let tool = TestPaths.products.appendingPathComponent("transit-store").path
        return """
            set -u
            mkdir -p \(mountPoint)
            mount -t tmpfs -o size=2m tmpfs \(mountPoint) || exit 99
            S="\(tool) --dir \(mountPoint)/store --retry-pause 0.01 --json"
            step() { echo "@@ $1"; shift; "$@"; echo "@@ exit $?"; }
            step manifest $S manifest \(site.server.url("v1.json").absoluteString)

            """
    }
}

/// The steps of a script that prints "@@ NAME", the step's output, then "@@ exit N".
private struct ScriptSteps {
    private var steps: [String: (status: Int, output: String)] = [:]
    private let text: String

    init(_ text: String) {
        self.text = text
        var current: String?
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("@@ exit "), let name = current {
                steps[name] = (Int(line.dropFirst(8)) ?? -1, lines.joined(separator: "\n"))
                current = nil
            } else if line.hasPrefix("@@ ") {
                current = String(line.dropFirst(3))
                lines = []
            } else {
                lines.append(line)
            }
        }
    }

    func step(_ name: String) throws -> (status: Int, output: String) { try XCTUnwrap(steps[name], "step \(name) missing:\n\(text)") }

    /// The step's output from its first "{" read as a JSON object (empty when it is none).
    func json(_ name: String) throws -> [String: Any] {
        let output = try step(name).output
        guard let start = output.firstIndex(of: "{") else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any]) ?? [:]
    }
}
