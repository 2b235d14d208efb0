import Foundation
import TestKit
import TestSupport
import XCTest

/// No work outlives the command: `gtfs-compile` refusing a broken feed used to exit while a
/// background thread was still hashing the input with libcrypto, and died of SIGSEGV in
/// exit's handlers now and then (6 of 40 runs of tf-missing_column). Every broken feed is
/// compiled many times as a process; not one run may end by a signal.
final class ExitTests: XCTestCase {
    func testNoCompileOfABrokenFeedEndsInACrash() throws {
        let folder = try TestPaths.requireShared("broken")
        let feeds = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".zip") }.sorted()
        XCTAssertGreaterThan(feeds.count, 30)
        let output = TemporaryFolders.make().appendingPathComponent("b.db").path
        // Eight runs of each feed, and forty more of the one that crashed most often.
        let runs = feeds.flatMap { Array(repeating: $0, count: 8) } + Array(repeating: "tf-missing_column.zip", count: 40)
        var crashes: [String] = []
        var exits: [Int32: Int] = [:]
        for feed in runs {
            let process = Process()
            process.executableURL = TestPaths.products.appendingPathComponent("gtfs-compile")
            process.arguments = [folder.appendingPathComponent(feed).path, "-o", output, "--quiet"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal {
                crashes.append("\(feed): signal \(process.terminationStatus)")
            } else {
                exits[process.terminationStatus, default: 0] += 1
            }
        }
        XCTAssertEqual(crashes, [], "\(crashes.count) of \(runs.count) runs ended by a signal")
        XCTAssertEqual(Set(exits.keys), [0, 1], "every run exits 0 (written) or 1 (refused): \(exits)")
    }
}
