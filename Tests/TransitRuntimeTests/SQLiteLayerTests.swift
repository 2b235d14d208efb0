import CSQLite
import Foundation
import TestKit
import TestSupport
import TransitSQLite
import XCTest

/// Binds are checked: a parameter SQLite refuses is an error at the next step, naming the
/// parameter, and the statement works again after it.
final class SQLiteLayerTests: XCTestCase {
    private func database() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: TemporaryFolders.make().appendingPathComponent("t.db").path, writable: true)
        try db.execute("CREATE TABLE t (a INTEGER, b TEXT)")
        return db
    }

    func testABindToAMissingParameterIsThrownAtStep() throws {
        let db = try database()
        let q = try db.prepare("SELECT count(*) FROM t WHERE a = ?1")
        q.bind(3, 7)  // the statement has one parameter
        XCTAssertThrowsError(try q.step()) { error in
            let failure = error as? SQLiteError
            XCTAssertEqual(failure?.code, SQLITE_RANGE)
            XCTAssertTrue(failure?.message.contains("parameter 3") ?? false, "\(error)")
        }
        // The failure is reported once; bound correctly, the statement answers.
        q.bind([7])
        XCTAssertTrue(try q.step())
        XCTAssertEqual(q.int(0), 0)
    }

    func testInsertsWithTooManyValuesFailInsteadOfDroppingOne() throws {
        let db = try database()
        let insert = try db.prepare("INSERT INTO t (a, b) VALUES (?1, ?2)")
        XCTAssertThrowsError(try insert.run(1, "x", 3))
        try insert.run(2, "y")
        let q = try db.prepare("SELECT a, b FROM t")
        XCTAssertTrue(try q.step())
        XCTAssertEqual(q.int(0), 2)
        XCTAssertEqual(q.string(1), "y")
        XCTAssertFalse(try q.step(), "the refused insert wrote nothing")
    }
}
