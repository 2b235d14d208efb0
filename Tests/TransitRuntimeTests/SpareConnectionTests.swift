import Foundation
import TestKit
import TestSupport
import TransitSQLite
import XCTest

@testable import TransitRuntime

/// `ConnectionPool.withSpare` lends a connection of its own while the caller holds one (the
/// planner's first read uses it for a second thread), and never waits: once the bundle's
/// file has been replaced and every connection is busy, it lends none, where waiting for
/// the caller's own connection would never end.
final class SpareConnectionTests: XCTestCase {
    func testASpareConnectionIsAnotherOne() throws {
        let bundle = try TransitBundle(path: try TestSupport.sampleBundleCopy(editedBy: "SELECT 1"))
        let stops = try bundle.pool.with { held in
            try bundle.pool.withSpare { spare in
                XCTAssertFalse(spare === held)
                return try spare.scalarInt("SELECT count(*) FROM stops") ?? 0
            }
        }
        XCTAssertGreaterThan(try XCTUnwrap(stops), 10)
    }

    func testNoSpareOnceTheFileIsReplacedAndEveryConnectionIsBusy() throws {
        let path = try TestSupport.sampleBundleCopy(editedBy: "SELECT 1")
        let bundle = try TransitBundle(path: path)
        try bundle.pool.with { _ in
            // A newer version renamed over the path, as a store installs one.
            try FileManager.default.copyItem(atPath: path, toPath: path + ".new")
            XCTAssertEqual(rename(path + ".new", path), 0)
            XCTAssertNil(try bundle.pool.withSpare { _ in 1 })
        }
        // The connection the bundle was opened with still answers, from the version it opened.
        XCTAssertGreaterThan(try bundle.pool.with { db in try db.scalarInt("SELECT count(*) FROM stops") } ?? 0, 10)
    }
}
