import Foundation
import TestKit
import TransitRuntime
import XCTest

/// The store on a real full filesystem: a 2 MB tmpfs mounted in a private mount namespace
/// (`unshare -m`, as root; the test is skipped where that is not allowed), with
/// `transit-store` run as a user would, step by step, by one shell script.
final class StoreDiskFullTests: XCTestCase {
    func testAFullDiskIsAStorageErrorAndLosesNoSettings() async throws {
        try MountNamespaceScript.requireRoot(for: "mounting a tmpfs")
        let site = try StoreFixture()
        let work = TemporaryFolders.make()
        let mountPoint = work.appendingPathComponent("disk").path
        let tool = TestPaths.products.appendingPathComponent("transit-store").path
        let script = """
            set -u
            mkdir -p \(mountPoint)
            mount -t tmpfs -o size=2m tmpfs \(mountPoint) || exit 99
            S="\(tool) --dir \(mountPoint)/store --retry-pause 0.01 --json"
            step() { echo "@@ $1"; shift; "$@"; echo "@@ exit $?"; }
            step manifest $S manifest \(site.server.url("v1.json").absoluteString)
            step prefs $S prefs --max-bytes 10000000 --auto-update false --stale-days 3
            step download-metro $S download metro --explicit
            # Fill the disk, then free 24 KB: the state file can still write, a bundle cannot.
            dd if=/dev/zero of=\(mountPoint)/filler bs=4096 2>/dev/null
            dd if=/dev/zero of=\(mountPoint)/spare bs=4096 count=6 2>/dev/null
            dd if=/dev/zero of=\(mountPoint)/filler2 bs=4096 2>/dev/null
            rm \(mountPoint)/spare
            step download-valley $S download valley
            step status-full $S status
            step list-full $S list
            step prefs-full $S prefs
            # Nothing left at all: reading still works, and remove frees space.
            dd if=/dev/zero of=\(mountPoint)/filler3 bs=1024 2>/dev/null
            step status-none $S status
            step remove-metro $S remove metro
            rm -f \(mountPoint)/filler \(mountPoint)/filler2 \(mountPoint)/filler3
            step download-valley-again $S download valley
            step status-after $S status
            ls -a \(mountPoint)/store
            umount \(mountPoint)
            """
        let text = try MountNamespaceScript.run(script, mount: "mounting a tmpfs")
        // "@@ NAME" output "@@ exit N" per step.
        var steps: [String: (status: Int, output: String)] = [:]
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
        func step(_ name: String) throws -> (status: Int, output: String) { try XCTUnwrap(steps[name], "step \(name) missing:\n\(text)") }
        func json(_ name: String) throws -> [String: Any] {
            let output = try step(name).output
            guard let start = output.firstIndex(of: "{") else { return [:] }
            return (try? JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any]) ?? [:]
        }
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
}
