import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitSQLite
import XCTest

@testable import GTFSCompiler

/// Patterns are numbered route by route (docs/bundle-format.md, "patterns"): the patterns
/// through a stop are mostly those of a few routes, and a board's first read finds them
/// next to each other. Trip ids in byte order alternate between the two routes here, as
/// they do in a feed whose copies or agencies share id schemes.
final class PatternNumberingTests: XCTestCase {
    /// Two routes; the trips in byte order of their ids alternate A, B, A, B, A.
    private static let feed: [String: String] = [
        "routes.txt": "route_id,route_short_name,route_type\nRA,1,3\nRB,2,3\n",
        "trips.txt": "route_id,service_id,trip_id\nRB,D,T1\nRA,D,T2\nRB,D,T3\nRA,D,T4\nRB,D,T5\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:10:00,08:10:00,S2,2
        T2,08:00:00,08:00:00,S1,1
        T2,08:20:00,08:20:00,S3,2
        T3,08:00:00,08:00:00,S2,1
        T3,08:10:00,08:10:00,S3,2
        T4,08:00:00,08:00:00,S3,1
        T4,08:20:00,08:20:00,S1,2
        T5,09:00:00,09:00:00,S1,1
        T5,09:10:00,09:10:00,S2,2

        """,
    ]

    func testARoutesPatternsTakeConsecutiveIds() throws {
        let bundle = try XCTUnwrap(TestSupport.compile(Self.feed).bundle)
        let byRoute = try Self.patternsByRoute(bundle)
        // Route RA (rid 1) first: T2's pattern, then T4's; then RB's: T1's (T5 shares it), T3's.
        XCTAssertEqual(byRoute, ["RA": [1, 2], "RB": [3, 4]])
        XCTAssertEqual(try Self.tripPatterns(bundle), ["T1": 3, "T2": 1, "T3": 4, "T4": 2, "T5": 3])
    }

    /// With `--base`, a pattern the base has keeps its id and a new one takes the next.
    func testTheBasesPatternsKeepTheirIds() throws {
        let base = try XCTUnwrap(TestSupport.compile(Self.feed).bundle)
        var next = Self.feed
        // A new pattern for route RA, and T1 dropped (T5 keeps RB's first pattern).
        next["trips.txt"] = "route_id,service_id,trip_id\nRA,D,T0\nRA,D,T2\nRB,D,T3\nRA,D,T4\nRB,D,T5\n"
        next["stop_times.txt"] =
            Self.feed["stop_times.txt"]!.replacingOccurrences(of: "T1,", with: "T0,").replacingOccurrences(
                of: "T0,08:10:00,08:10:00,S2,2", with: "T0,08:30:00,08:30:00,S2,2")
        let directory = TemporaryFolders.make()
        let feedDirectory = directory.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feedDirectory, withIntermediateDirectories: true)
        var files = TestSupport.minimalFeed
        for (name, text) in next { files[name] = text }
        _ = TestSupport.writeFeed(files, in: feedDirectory)
        var request = CompileRequest(
            feeds: [.init(name: "f", path: feedDirectory.path)], outputPath: directory.appendingPathComponent("next.db").path)
        request.basePath = base
        let log = DiagnosticLog()
        _ = try Compiler.compile(request, log: log)
        let patterns = try Self.tripPatterns(request.outputPath)
        XCTAssertEqual(patterns["T2"], 1, "\(log.diagnostics)")
        XCTAssertEqual(patterns["T4"], 2)
        XCTAssertEqual(patterns["T3"], 4)
        XCTAssertEqual(patterns["T5"], 3)
        XCTAssertEqual(patterns["T0"], 5, "the new pattern takes the next id")
    }

    /// Each route's pids, as `route_patterns` lists them.
    private static func patternsByRoute(_ path: String) throws -> [String: [Int]] {
        let db = try SQLiteDatabase(path: path, writable: false)
        let q = try db.prepare("SELECT d.route_id, p.pids FROM route_patterns p JOIN dict_route d ON d.rid = p.rid")
        var found: [String: [Int]] = [:]
        while try q.step() { found[q.string(0)] = try IDListBlob.decode(q.blob(1)) }
        return found
    }

    /// Each trip's pid, from its trip block.
    private static func tripPatterns(_ path: String) throws -> [String: Int] {
        let db = try SQLiteDatabase(path: path, writable: false)
        let q = try db.prepare("SELECT first_tid, entries FROM trip_blocks")
        var found: [String: Int] = [:]
        while try q.step() {
            let block = try TripBlock.decode(firstTid: q.int(0), q.blob(1))
            for case let entry? in block.entries { found[entry.tripID] = entry.pid }
        }
        return found
    }
}
