import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

@testable import GTFSCompiler

/// Every bundle says what it is (id, label, compiler, schema, application id), what it
/// holds (a content hash independent of the file's layout) and for which days.
final class BundleIdentityTests: XCTestCase {
    private func compile(_ output: String, id: String? = nil, label: String? = nil) throws -> String {
        var request = CompileRequest(feeds: [.init(name: "metro", path: TestSupport.samples + "/metro")], outputPath: output)
        request.bundleID = id
        request.label = label
        _ = try Compiler.compile(request)
        return output
    }

    func testIdentityIsRecordedAndShown() throws {
        let path = try compile(TemporaryFolders.make().appendingPathComponent("zurich-2026.db").path, label: "spring")
        let info = try TransitBundle(path: path).info()
        XCTAssertEqual(info.bundleID, "zurich-2026", "the output file's stem by default")
        XCTAssertEqual(info.label, "spring")
        XCTAssertEqual(info.compilerVersion, Compiler.version)
        XCTAssertEqual(info.schemaVersion, 9)
        XCTAssertEqual(info.contentHash.count, 64)
        let db = try SQLiteDatabase(path: path, writable: false)
        XCTAssertEqual(try db.scalarInt("PRAGMA application_id"), 0x5452_4E42)
        XCTAssertEqual(try db.scalarInt("PRAGMA user_version"), 9)
    }

    func testContentHashIgnoresPageLayoutAndCatchesEdits() throws {
        let directory = TemporaryFolders.make()
        let path = try compile(directory.appendingPathComponent("a.db").path, id: "same")
        let recorded = try TransitBundle(path: path).info().contentHash
        // The same content on other pages: a different page size and a rebuilt file.
        let copy = directory.appendingPathComponent("copy.db").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try SQLiteDatabase(path: copy, writable: true).execute("PRAGMA page_size = 8192; VACUUM")
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertTrue(try TransitBundle(path: copy).verifyContentHash())
        // Compiled again under another name with the same id: the same content, the same hash.
        let again = try compile(directory.appendingPathComponent("b.db").path, id: "same")
        XCTAssertEqual(try TransitBundle(path: again).info().contentHash, recorded)
        // Another label is other content.
        let labelled = try compile(directory.appendingPathComponent("c.db").path, id: "same", label: "v2")
        XCTAssertNotEqual(try TransitBundle(path: labelled).info().contentHash, recorded)
        // One departure time changed after compiling: the hash no longer matches.
        let db = try SQLiteDatabase(path: copy, writable: true)
        let read = try db.prepare("SELECT trips FROM patterns WHERE pid = 1")
        XCTAssertTrue(try read.step())
        var trips = try PatternTripsBlob.decode(read.blob(0))
        trips[0].startTime += 60
        try db.prepare("UPDATE patterns SET trips = ?1 WHERE pid = 1").run(PatternTripsBlob.encode(trips))
        XCTAssertFalse(try TransitBundle(path: copy).verifyContentHash())
    }

    func testAnotherApplicationsDatabaseIsRefused() throws {
        let path = try compile(TemporaryFolders.make().appendingPathComponent("a.db").path)
        try SQLiteDatabase(path: path, writable: true).execute("PRAGMA application_id = 42")
        XCTAssertThrowsError(try TransitBundle(path: path)) {
            XCTAssertEqual(
                $0 as? TransitError, .notABundle(path: path, reason: "an SQLite database of another application (application_id 42)"))
        }
    }

    func testCoverageAndExpiry() throws {
        // Weekdays of January 2026 (the 31st is a Saturday), and feed_info declaring service to the end of August.
        let (_, bundle) = TestSupport.compile([
            "calendar.txt":
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,0,0,20260101,20260131\n",
            "feed_info.txt":
                "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\nP,https://example.org,en,20251215,20260831\n",
        ])
        let info = try TransitBundle(path: try XCTUnwrap(bundle)).info()
        XCTAssertEqual(info.feeds[0].firstServiceDate?.description, "2025-12-15")
        XCTAssertEqual(info.feeds[0].lastServiceDate?.description, "2026-08-31")
        XCTAssertEqual(info.feeds[0].lastTripDate?.description, "2026-01-30")
        XCTAssertEqual(info.coverage.lastTripDate?.description, "2026-01-30")
        let c = info.coverage
        XCTAssertFalse(c.isExpired(on: ServiceDate("2026-08-31")!))
        XCTAssertTrue(c.isExpired(on: ServiceDate("2026-09-01")!))
        XCTAssertFalse(c.expires(withinDays: 7, from: ServiceDate("2026-08-24")!), "the last day is still 7 days ahead")
        XCTAssertTrue(c.expires(withinDays: 7, from: ServiceDate("2026-08-25")!))
    }
}
