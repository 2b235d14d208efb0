import BundleFormat
import Foundation
import TestKit
import TransitSQLite
import XCTest

@testable import TransitRuntime

/// The planner's network on real feeds.
///
/// Walks between stops against a plain reading: every pair of served stops measured from
/// both ends with `GeoDistance.metres` on the stops' coordinates, kept when at most 400 m
/// apart. The planner measures each pair once from a grid; its lists must be the same
/// stops with the same distances, to the bit, in sid order.
///
/// Routes: those the compiler planned into the bundle are those the runtime works out from
/// the patterns of the same bundle without the planner's tables, array for array.
final class RealFeedNetworkTests: XCTestCase {
    func testPlannedRoutesAreTheRoutesWorkedOutFromThePatternsOnEveryFeed() throws {
        try RealFeeds.requireShared()
        var checked = (feeds: 0, routes: 0, trips: 0)
        for name in RealFeeds.names {
            let bundle = try RealFeeds.bundle(name).bundle
            let planned = try bundle.pool.with { db in try RoutingNetwork(db: db) }.tables
            let copy = RealFeeds.output.appendingPathComponent("\(name)-unplanned.db").path
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: RealFeeds.output.appendingPathComponent(name + ".db").path, toPath: copy)
            let db = try SQLiteDatabase(path: copy, writable: true)
            try db.execute("DROP TABLE planner_routes; DROP TABLE planner_sequences")
            let worked = try RoutingNetwork(db: db).tables
            XCTAssertEqual(planned.routes.map(\.firstTrip), worked.routes.map(\.firstTrip), name)
            XCTAssertEqual(planned.routes.map(\.firstStop), worked.routes.map(\.firstStop), name)
            XCTAssertEqual(planned.routes.map(\.sv), worked.routes.map(\.sv), name)
            XCTAssertEqual(planned.routes.map(\.fid), worked.routes.map(\.fid), name)
            XCTAssertEqual(planned.routes.map(\.templateRange), worked.routes.map(\.templateRange), name)
            XCTAssertEqual(planned.stopSid, worked.stopSid, name)
            XCTAssertEqual(planned.stopBoards, worked.stopBoards, name)
            XCTAssertEqual(planned.stopAlights, worked.stopAlights, name)
            XCTAssertEqual(planned.tripStart, worked.tripStart, name)
            XCTAssertEqual(planned.tripTid, worked.tripTid, name)
            XCTAssertEqual(planned.tripAccessible, worked.tripAccessible, name)
            XCTAssertEqual(planned.tripOffsets, worked.tripOffsets, name)
            XCTAssertEqual(planned.offsetDeparture, worked.offsetDeparture, name)
            XCTAssertEqual(planned.offsetArrival, worked.offsetArrival, name)
            XCTAssertEqual(planned.placeFirst, worked.placeFirst, name)
            XCTAssertEqual(planned.templates.map(\.tid), worked.templates.map(\.tid), name)
            XCTAssertEqual(planned.templates.map(\.windows.count), worked.templates.map(\.windows.count), name)
            checked.feeds += 1
            checked.routes += planned.routes.count
            checked.trips += planned.tripStart.count
        }
        print("planned routes equal worked-out routes: \(checked.feeds) feeds, \(checked.routes) routes, \(checked.trips) trips")
        XCTAssertEqual(checked.feeds, 24)
    }

    func testWalksAreEveryPairWithinTheDistanceMeasuredFromEitherEnd() throws {
        try RealFeeds.requireShared()
        for name in ["cts-strasbourg", "wmata", "vilnius"] {
            let bundle = try RealFeeds.bundle(name).bundle
            let network = try bundle.pool.with { db in try RoutingNetwork(db: db) }
            let paths = TransferTimes.footpaths(network, within: 400)
            let served = (1..<network.stopCount).filter { network.serves($0) && !network.stopLatitude[$0].isNaN }
            // By latitude, so each stop is compared only with those less than 0.004° (445 m)
            // north or south of it.
            let byLatitude = served.sorted { network.stopLatitude[$0] < network.stopLatitude[$1] }
            var expected = [[(sid: Int32, distance: Float)]](repeating: [], count: network.stopCount)
            for (i, a) in byLatitude.enumerated() {
                for b in byLatitude[(i + 1)...] {
                    if network.stopLatitude[b] - network.stopLatitude[a] > 0.004 { break }
                    let there = GeoDistance.metres(
                        network.stopLatitude[a], network.stopLongitude[a], network.stopLatitude[b], network.stopLongitude[b])
                    let back = GeoDistance.metres(
                        network.stopLatitude[b], network.stopLongitude[b], network.stopLatitude[a], network.stopLongitude[a])
                    if there <= 400 { expected[a].append((Int32(b), Float(there))) }
                    if back <= 400 { expected[b].append((Int32(a), Float(back))) }
                }
            }
            var pairs = 0
            for sid in 0..<network.stopCount {
                let want = expected[sid].sorted { $0.sid < $1.sid }
                let got = paths[sid].sorted { $0.sid < $1.sid }
                XCTAssertEqual(got.map(\.sid), want.map(\.sid), "\(name): walks from stop \(sid)")
                XCTAssertEqual(got.map(\.distance), want.map(\.distance), "\(name): walk lengths from stop \(sid)")
                pairs += want.count
            }
            print("\(name): \(pairs) walks of at most 400 m between \(served.count) served stops")
            XCTAssertGreaterThan(pairs, name == "wmata" ? 50 : 2 * served.count, name)
        }
    }
}
