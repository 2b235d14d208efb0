import BundleFormat
import Foundation
import TestKit
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
        XCTAssertEqual(try db.scalarInt("PRAGMA user_version"), 2)
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
}
