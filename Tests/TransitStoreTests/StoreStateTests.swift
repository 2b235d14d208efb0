import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitSQLite
import TransitStore
import XCTest

/// The state file's layout version: an unversioned file of the first release migrates and
/// keeps everything; a file from a newer release is refused, never set aside as damaged.
final class StoreStateTests: XCTestCase {
    /// The first release's layout, as it wrote it (WAL, no user_version).
    static let layout1 = """
        PRAGMA journal_mode = WAL;
        CREATE TABLE installed (
          id TEXT PRIMARY KEY, content_sha256 TEXT NOT NULL, bytes INTEGER NOT NULL, explicit INTEGER NOT NULL,
          downloaded_at REAL NOT NULL, last_accessed_at REAL NOT NULL, first_service_date TEXT, last_service_date TEXT,
          modified INTEGER NOT NULL);
        CREATE TABLE jobs (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, explicit INTEGER NOT NULL, paused INTEGER NOT NULL);
        CREATE TABLE preferences (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE catalogue (one INTEGER PRIMARY KEY CHECK (one = 1), source TEXT NOT NULL, fetched_at REAL NOT NULL,
          json BLOB NOT NULL);
        INSERT INTO preferences VALUES ('max_bytes', '123456'), ('auto_update', 'false'), ('stale_days', '4');
        INSERT INTO jobs (id, explicit, paused) VALUES ('valley', 1, 1);
        """

    func testAFirstReleaseStateFileMigratesAndKeepsEverything() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let path = folder.appendingPathComponent("store.sqlite").path
        do {
            let db = try SQLiteDatabase(path: path, writable: true)
            try db.execute(Self.layout1)
            let manifest = try Data(contentsOf: URL(fileURLWithPath: site.path("v1.json")))
            try db.prepare("INSERT INTO catalogue VALUES (1, ?, 0, ?)").run(site.server.url("v1.json").absoluteString, [UInt8](manifest))
        }
        let store = try site.store(in: folder)
        let preferences = try await store.preferences()
        XCTAssertEqual(preferences, StorePreferences(maxBytes: 123_456, autoUpdate: false, staleDays: 4))
        let pending = try await store.pendingJobs()
        XCTAssertEqual(pending.map(\.id), ["valley"])
        XCTAssertEqual(pending.first?.paused, true)
        XCTAssertNil(pending.first?.failure)
        let bundles = await store.currentCatalogue()?.bundles.count
        XCTAssertEqual(bundles, 3)
        let db = try SQLiteDatabase(path: path, writable: false)
        XCTAssertEqual(try db.scalarInt("PRAGMA user_version"), 3)
        // And the migrated file works as a new one does: the paused job resumes and installs.
        let job = try await store.resume("valley")
        let outcome = await job.finished()
        XCTAssertEqual(outcome, .done)
    }

    func testAStateFileFromANewerReleaseIsRefusedAndKept() throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let path = folder.appendingPathComponent("store.sqlite").path
        do {
            let db = try SQLiteDatabase(path: path, writable: true)
            try db.execute("CREATE TABLE future (x); PRAGMA user_version = 9")
        }
        XCTAssertThrowsError(try site.store(in: folder)) { error in
            guard case StoreError.storage(let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("newer"), reason)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".damaged"))
    }

    /// A job queued on a manifest an older release took although today's checks refuse it
    /// (here `bytes` of 2^63-1 with a budget set) ends with the reason; it never runs, never
    /// traps, and is not left to fail again on every later start.
    func testAJobOnAManifestAnOlderReleaseTookEndsWithTheReason() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let path = folder.appendingPathComponent("store.sqlite").path
        do {
            let store = try site.store(in: folder)
            try await store.refreshCatalogue(from: site.server.url("v1.json"))
            try await store.setPreferences(StorePreferences(maxBytes: 100_000, autoUpdate: false))
        }
        do {
            // What the older release kept: the manifest with the absurd size, and the job.
            let manifest = try Data(contentsOf: URL(fileURLWithPath: site.path("v1.json")))
            var json = try XCTUnwrap(JSONSerialization.jsonObject(with: manifest) as? [String: Any])
            var bundles = try XCTUnwrap(json["bundles"] as? [[String: Any]])
            let index = try XCTUnwrap(bundles.firstIndex { $0["id"] as? String == "metro" })
            bundles[index]["bytes"] = Int64.max
            json["bundles"] = bundles
            let db = try SQLiteDatabase(path: path, writable: true)
            try db.prepare("UPDATE catalogue SET json = ?").run([UInt8](try JSONSerialization.data(withJSONObject: json)))
            try db.execute("INSERT INTO jobs (id, explicit, paused) VALUES ('metro', 1, 0)")
        }
        let store = try site.store(in: folder)
        let jobs = try await store.resumePendingJobs()
        XCTAssertEqual(jobs.map(\.bundleID), ["metro"])
        let outcome = await jobs[0].finished()
        guard case .failed(.badManifest(let reason)) = outcome else { return XCTFail("not refused: \(outcome)") }
        XCTAssertTrue(reason.contains("kept from an earlier run"), reason)
        XCTAssertTrue(reason.contains("is \(Int64.max); a file has 1 to"), reason)
        let pending = try await store.pendingJobs()
        XCTAssertTrue(pending.isEmpty, "the job was ended: \(pending)")
        let status = try await store.status(on: TestClock.metroDay)
        XCTAssertTrue(status.isEmpty, "nothing installed: \(status)")
        // A later start finds nothing to run; new work asks for a fresh manifest, and with
        // one it goes on as usual.
        let later = try site.store(in: folder)
        let resumed = try await later.resumePendingJobs()
        XCTAssertTrue(resumed.isEmpty)
        do {
            _ = try await later.download("valley")
            XCTFail("a download ran on the refused manifest")
        } catch StoreError.badManifest(let reason) {
            XCTAssertTrue(reason.contains("fetch it again"), reason)
        }
        try await later.refreshCatalogue(from: site.server.url("v1.json"))
        let valley = try await later.download("valley").finished()
        XCTAssertEqual(valley, .done)
    }
}
