import BundleFormat
import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

final class BundleOpenAndSearchTests: XCTestCase {
    private func refuses(
        _ data: Data?, copyOf source: String? = nil, edit: ((SQLiteDatabase) throws -> Void)? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> TransitError? {
        let path = TemporaryFolders.make().appendingPathComponent("b.db").path
        if let data { try data.write(to: URL(fileURLWithPath: path)) }
        if let source { try FileManager.default.copyItem(atPath: source, toPath: path) }
        if let edit { try edit(try SQLiteDatabase(path: path, writable: true)) }
        do {
            _ = try TransitBundle(path: path)
            XCTFail("opened a bad bundle", file: file, line: line)
            return nil
        } catch let error as TransitError {
            return error
        }
    }

    func testDamagedOrForeignFilesAreRefusedWithAReason() throws {
        func reason(_ error: TransitError?) -> String {
            if case .notABundle(_, let reason)? = error { return reason }
            return "\(String(describing: error))"
        }
        XCTAssertEqual(reason(try refuses(Data("agency_id,agency_name\n".utf8))), "not an SQLite database")
        XCTAssertEqual(reason(try refuses(Data())), "the file is empty")
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestSupport.sampleBundlePath))
        XCTAssertNotNil(try refuses(whole.prefix(whole.count / 3)), "a truncated bundle is refused")
        XCTAssertEqual(
            reason(try refuses(nil, copyOf: TestSupport.sampleBundlePath) { try $0.execute("DROP TABLE trip_blocks") }),
            "table trip_blocks is missing")
        // A bundle of an earlier schema is named as such: 8 (fares v1 as text rows), and 7
        // (a table of schema 9 missing too).
        XCTAssertEqual(
            reason(
                try refuses(nil, copyOf: TestSupport.sampleBundlePath) {
                    try $0.execute("UPDATE metadata SET value = '8' WHERE key = 'schema_version'")
                }), "schema version 8 is older than this runtime reads (9)")
        XCTAssertEqual(
            reason(
                try refuses(nil, copyOf: TestSupport.sampleBundlePath) {
                    try $0.execute("DROP TABLE planner_walks; UPDATE metadata SET value = '7' WHERE key = 'schema_version'")
                }), "schema version 7 is older than this runtime reads (9)")
        XCTAssertEqual(
            try refuses(nil, copyOf: TestSupport.sampleBundlePath) {
                try $0.execute("UPDATE metadata SET value = '99' WHERE key = 'schema_version'")
            }, .unsupportedSchemaVersion(found: 99, supported: BundleSchema.version))
        XCTAssertNotNil(try refuses(nil))
    }

    /// A folder, a FIFO or a path that cannot be opened is refused with a reason, never a
    /// crash (a folder used to stop the process inside Foundation) or a hang (a FIFO).
    func testFoldersFIFOsAndUnreadablePathsAreRefused() throws {
        func reason(_ path: String) -> String {
            do {
                _ = try TransitBundle(path: path)
                return "opened"
            } catch TransitError.notABundle(_, let reason) {
                return reason
            } catch {
                return "\(error)"
            }
        }
        let directory = TemporaryFolders.make()
        XCTAssertEqual(reason(directory.path), "it is a folder, not a file")
        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(reason(fifo), "not a regular file")
        let file = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        XCTAssertEqual(reason(file.appendingPathComponent("inside").path), "cannot open the file: Not a directory")
        XCTAssertEqual(reason(directory.appendingPathComponent("missing.db").path), "cannot open the file: No such file or directory")
        let dangling = directory.appendingPathComponent("link.db").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "/nonexistent/target.db")
        XCTAssertEqual(reason(dangling), "cannot open the file: No such file or directory")
    }

    func testInfoDescribesFeedsAndCounts() throws {
        let info = try TestSupport.sampleBundle.info()
        XCTAssertEqual(info.feeds.map(\.feedID), ["metro", "valley"])
        XCTAssertEqual(info.feeds.map(\.timezone), ["Europe/Zurich", "America/New_York"])
        XCTAssertEqual(info.feeds.first?.version, "2026.1")
        XCTAssertEqual(info.feeds.last?.firstServiceDate?.description, "2026-10-01")
        XCTAssertEqual(info.stops, 13)
        XCTAssertEqual(info.trips, 11, "10 metro trips minus S2_GHOST, plus 2 valley trips")
        XCTAssertEqual(info.stopTimes, 37)
        XCTAssertEqual(info.cities, 6)
        let sha = try XCTUnwrap(info.feeds.first?.sha256)
        XCTAssertEqual(sha.count, 64)
    }

    func testStopSearchRanksStationsFirstAndMatchesPrefixes() throws {
        let bundle = TestSupport.sampleBundle
        XCTAssertEqual(try bundle.stops(matching: "zurich").map(\.stopID), ["CENTRAL", "CENTRAL_1", "CENTRAL_2", "AIRPORT"])
        XCTAssertEqual(try bundle.stops(matching: "ZÜRICH hauptb").map(\.stopID), ["CENTRAL", "CENTRAL_1", "CENTRAL_2"])
        XCTAssertEqual(try bundle.stops(matching: "opern").map(\.name), ["Opernhaus"])
        XCTAssertEqual(try bundle.stops(matching: "\"*:( ").count, 0, "FTS syntax in the query is only text")
        XCTAssertEqual(try bundle.stops(matching: "cafe").map(\.name), ["Café \"Corner\""])
    }

    /// Names written without spaces are found by any part of them; German transliterations
    /// find umlauts; folding and prefixes work as before.
    func testStopSearchFindsAnyPartOfNamesInEveryScript() throws {
        let names = ["河口湖駅", "甲府駅北口", "Zürich HB", "สถานีกรุงเทพ", "서울역", "São Paulo"]
        let stops =
            "stop_id,stop_name,stop_lat,stop_lon\n"
            + names.enumerated().map { "S\($0.offset + 1),\($0.element),48.0\($0.offset),7.0" }.joined(separator: "\n") + "\n"
        let (log, path) = TestSupport.compile(["stops.txt": stops])
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        let cases: [(String, [String])] = [
            ("湖駅", ["河口湖駅"]), ("口湖", ["河口湖駅"]), ("河口湖駅", ["河口湖駅"]), ("北口", ["甲府駅北口"]), ("駅", ["河口湖駅", "甲府駅北口"]),
            ("zuerich", ["Zürich HB"]), ("zurich h", ["Zürich HB"]), ("กรุงเทพ", ["สถานีกรุงเทพ"]), ("울역", ["서울역"]),
            ("sao pa", ["São Paulo"]), ("paulo", ["São Paulo"]), ("aulo", []),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(Set(try bundle.stops(matching: text).map(\.name)), Set(expected), text)
        }
    }

    func testNearbyStopsNearestFirstWithinRadius() throws {
        let near = try TestSupport.sampleBundle.stops(near: Coordinate(latitude: 47.3667, longitude: 8.5450), within: 300)
        XCTAssertEqual(near.map(\.stopID), ["BELLEVUE", "OPERA"])
        XCTAssertEqual(try XCTUnwrap(near.first?.distanceMetres), 0, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(near.last?.distanceMetres), 229, accuracy: 5)
        XCTAssertThrowsError(try TestSupport.sampleBundle.stops(near: Coordinate(latitude: 95, longitude: 0))) {
            XCTAssertEqual($0 as? TransitError, .badArgument("coordinate 95.0,0.0 is out of range"))
        }
    }

    func testPreloadedBundleGivesTheSameAnswers() throws {
        let lazy = try TransitBundle(path: TestSupport.sampleBundlePath)
        let preloaded = try TransitBundle(path: TestSupport.sampleBundlePath)
        try preloaded.preload()
        for stop in ["CENTRAL", "CENTRAL_1", "CENTRAL_2", "BELLEVUE", "OPERA", "OERLIKON", "TIEFENBRUNNEN"] {
            for at in ["2026-03-28T23:50", "2026-03-29T07:30", "2026-03-30T06:00", "2026-04-06T07:55"] {
                let time = try QueryTime.parse(at)
                XCTAssertEqual(
                    try preloaded.departures(from: stop, at: time, within: 180 * 60, limit: 100),
                    try lazy.departures(from: stop, at: time, within: 180 * 60, limit: 100), "\(stop) \(at)")
            }
        }
        XCTAssertEqual(
            try preloaded.departures(from: "CENTRAL", at: QueryTime.parse("2026-03-30T08:00"), within: 1 * 60).map(\.tripID),
            ["T4_WK_0800", "S2_FREQ"])
    }

    func testConcurrentQueriesAgreeWithOneThread() throws {
        let bundle = TestSupport.sampleBundle
        let stops = ["CENTRAL", "CENTRAL_1", "CENTRAL_2", "BELLEVUE", "OPERA", "OERLIKON"]
        let times = (0..<24).map { String(format: "2026-03-%02dT%02d:15", 28 + $0 % 4, $0) }
        @Sendable func answers() throws -> [String] {
            try stops.flatMap { stop in
                try times.map { try bundle.departures(from: stop, at: QueryTime.parse($0)).map(\.departureTime).joined(separator: ",") }
            }
        }
        let expected = try answers()
        let results = LockedList<Bool>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in results.append((try? answers()) == expected) }
        XCTAssertEqual(results.values, [Bool](repeating: true, count: 8))
    }
}
