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
/// (or 250 m) apart. The planner measures the pairs the compiler stored (`planner_walks`);
/// its lists must be the same stops with the same distances, to the bit, in sid order.
/// The transfer graph built from them holds, for each stop, the change there and each walk
/// with its τ, by τ then sid.
///
/// Routes: those the compiler planned into the bundle are those worked out here from the
/// patterns of the same bundle, array for array, and the same read on one thread or two.
final class RealFeedNetworkTests: XCTestCase {
    func testPlannedRoutesAreTheRoutesWorkedOutFromThePatternsOnEveryFeed() throws {
        try RealFeeds.requireShared()
        var checked = (feeds: 0, routes: 0, trips: 0)
        for name in RealFeeds.names {
            let bundle = try RealFeeds.bundle(name).bundle
            let planned = try bundle.pool.with { db in try RoutingNetwork(db: db) }.tables
            let db = try SQLiteDatabase(path: RealFeeds.output.appendingPathComponent(name + ".db").path, writable: false)
            let maxSid = try db.scalarInt("SELECT MAX(sid) FROM stops") ?? 0
            let windows = try FrequencyTable.all(db: db).mapValues { list in
                list.map { (start: $0.startSecs, end: $0.endSecs, headway: max(1, $0.headwaySecs), exact: $0.exactTimes) }
            }
            let workedOut = RouteTables(try RoutePlan(patternsIn: db, maxSid: maxSid), windows: windows, stopCount: maxSid + 1)
            Self.assertSame(planned, workedOut, name)
            // Read on two threads (the routes on one connection, the patterns' offsets on
            // another), as a journey reads it: the same arrays.
            let pool = bundle.pool
            Self.assertSame(planned, try pool.with { db in try RoutingNetwork(db: db) { work in try pool.withSpare(work) } }.tables, name)
            checked.feeds += 1
            checked.routes += planned.routes.count
            checked.trips += planned.tripStart.count
        }
        print("planned routes equal worked-out routes: \(checked.feeds) feeds, \(checked.routes) routes, \(checked.trips) trips")
        XCTAssertEqual(checked.feeds, 24)
    }

    private static func assertSame(_ a: RouteTables, _ b: RouteTables, _ name: String, line: UInt = #line) {
        XCTAssertEqual(a.routes.map(\.firstTrip), b.routes.map(\.firstTrip), name, line: line)
        XCTAssertEqual(a.routes.map(\.firstStop), b.routes.map(\.firstStop), name, line: line)
        XCTAssertEqual(a.routes.map(\.sv), b.routes.map(\.sv), name, line: line)
        XCTAssertEqual(a.routes.map(\.fid), b.routes.map(\.fid), name, line: line)
        XCTAssertEqual(a.routes.map(\.templateRange), b.routes.map(\.templateRange), name, line: line)
        XCTAssertEqual(a.stopSid, b.stopSid, name, line: line)
        XCTAssertEqual(a.stopBoards, b.stopBoards, name, line: line)
        XCTAssertEqual(a.stopAlights, b.stopAlights, name, line: line)
        XCTAssertEqual(a.tripStart, b.tripStart, name, line: line)
        XCTAssertEqual(a.tripTid, b.tripTid, name, line: line)
        XCTAssertEqual(a.tripAccessible, b.tripAccessible, name, line: line)
        XCTAssertEqual(a.tripOffsets, b.tripOffsets, name, line: line)
        XCTAssertEqual(a.offsetDeparture, b.offsetDeparture, name, line: line)
        XCTAssertEqual(a.offsetArrival, b.offsetArrival, name, line: line)
        XCTAssertEqual(a.placeFirst, b.placeFirst, name, line: line)
        XCTAssertEqual(a.templates.map(\.tid), b.templates.map(\.tid), name, line: line)
        XCTAssertEqual(a.templates.map(\.windows.count), b.templates.map(\.windows.count), name, line: line)
    }

    func testWalksAreEveryPairWithinTheDistanceMeasuredFromEitherEnd() throws {
        try RealFeeds.requireShared()
        for (name, radius) in [("cts-strasbourg", 400.0), ("wmata", 400), ("vilnius", 400), ("cts-strasbourg", 250)] {
            let bundle = try RealFeeds.bundle(name).bundle
            let network = try bundle.pool.with { db in try RoutingNetwork(db: db) }
            XCTAssertEqual(network.storedWalks?.metres, 400, name)
            let paths = TransferTimes.footpaths(network, within: radius)
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
                    if there <= radius { expected[a].append((Int32(b), Float(there))) }
                    if back <= radius { expected[b].append((Int32(a), Float(back))) }
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
            print("\(name): \(pairs) walks of at most \(radius) m between \(served.count) served stops")
            XCTAssertGreaterThan(pairs, name == "wmata" ? 50 : served.count, name)
            guard network.transferRules.isEmpty, network.pathways.isEmpty else { continue }
            // The graph: the change at the stop (120 s) and each walk at 1.2 m/s plus 120 s.
            let graph = try TransferGraph(TransferTimes(network: network, footpaths: paths, changeTime: 120, walkingSpeed: 1.2))
            for sid in served {
                var edges = [[sid, 120]] + expected[sid].map { [Int($0.sid), Int((Double($0.distance) / 1.2).rounded(.up)) + 120] }
                edges.sort { ($0[1], $0[0]) < ($1[1], $1[0]) }
                let got = (Int(graph.first[sid])..<Int(graph.first[sid + 1])).map { [Int(graph.targets[$0]), graph.seconds($0)] }
                XCTAssertEqual(got, edges, "\(name): the transfers from stop \(sid)")
            }
        }
    }
}
