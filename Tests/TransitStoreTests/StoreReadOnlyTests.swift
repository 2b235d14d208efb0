import Foundation
import TestKit
import TestSupport
import XCTest

/// A store folder mounted read-only (a bind mount with `-o ro` in a private mount namespace,
/// as root): reading answers, changing fails with the store's storage error, and nothing in
/// the folder changes.
final class StoreReadOnlyTests: XCTestCase {
    func testAReadOnlyFolderAnswersStatusListAndOpen() async throws {
        try MountNamespaceScript.requireRoot(for: "a read-only bind mount")
        let site = try StoreFixture()
        let folder = TemporaryFolders.make().appendingPathComponent("store").path
        let tool = TestPaths.products.appendingPathComponent("transit-store").path
        let script = """
            set -u
            S="\(tool) --dir \(folder) --retry-pause 0.01"
            step() { echo "@@ $1"; shift; "$@"; echo "@@ exit $?"; }
            step manifest $S manifest \(site.server.url("v1.json").absoluteString)
            step download $S download metro --explicit
            rm -f \(folder)/state.lock \(folder)/jobs.lock
            before=$(ls -la --time-style=full-iso -R \(folder) | md5sum)
            mount --bind \(folder) \(folder) && mount -o remount,bind,ro \(folder) || exit 99
            step status $S status --on \(TestClock.metroDayText)
            step list $S list
            step open $S open metro
            step remove $S remove metro
            after=$(ls -la --time-style=full-iso -R \(folder) | md5sum)
            [ "$before" = "$after" ] && echo "@@ unchanged" || echo "@@ changed"
            umount \(folder)
            """
        let text = try MountNamespaceScript.run(script, mount: "a read-only bind mount")
        func exit(of step: String) -> String? {
            let lines = text.components(separatedBy: "\n")
            guard let start = lines.firstIndex(of: "@@ \(step)") else { return nil }
            return lines[start...].first { $0.hasPrefix("@@ exit ") }
        }
        XCTAssertEqual(exit(of: "download"), "@@ exit 0", text)
        XCTAssertEqual(exit(of: "status"), "@@ exit 0", text)
        XCTAssertEqual(exit(of: "list"), "@@ exit 0", text)
        XCTAssertEqual(exit(of: "open"), "@@ exit 0", text)
        XCTAssertTrue(text.contains("\(folder)/bundles/metro.db\n"), text)
        XCTAssertTrue(text.contains("metro") && text.contains("explicit"), text)
        XCTAssertEqual(exit(of: "remove"), "@@ exit 5", "a change fails as a storage error: \(text)")
        XCTAssertTrue(text.contains("@@ unchanged"), text)
    }
}
