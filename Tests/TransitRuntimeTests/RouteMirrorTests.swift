import TestSupport
import XCTest

@testable import TransitRuntime

/// The arrive-by mirror shares the forward tables' stop, place and offset arrays and reads
/// them backwards: read through its accessors, it is the routes run backwards in time as
/// `RouteTables.mirrored()` defines them, stop for stop and trip for trip.
final class RouteMirrorTests: XCTestCase {
    func testTheMirrorReadsEveryRouteBackwardsInTime() throws {
        let tables = try TestSupport.sampleBundle.pool.with { db in try RoutingNetwork(db: db) }.tables
        let mirror = tables.mirrored()
        XCTAssertEqual(mirror.routes.count, tables.routes.count)
        var checked = 0
        for (r, route) in tables.routes.enumerated() {
            let back = mirror.routes[r]
            XCTAssertEqual(back.stopCount, route.stopCount)
            XCTAssertEqual(back.trips, route.trips)
            let n = route.stopCount
            for idx in 0..<n {
                let g = tables.stop(n - 1 - idx, of: route)
                let m = mirror.stop(idx, of: back)
                XCTAssertEqual(mirror.stopSid[m], tables.stopSid[g], "route \(r) stop \(idx)")
                XCTAssertEqual(mirror.stopBoards[m], tables.stopAlights[g], "route \(r) stop \(idx): boarding is alighting")
                XCTAssertEqual(mirror.stopAlights[m], tables.stopBoards[g], "route \(r) stop \(idx): alighting is boarding")
            }
            for trip in route.trips {
                let other = tables.mirroredTrip(trip, route: route)
                XCTAssertEqual(mirror.tripTid[other], tables.tripTid[trip])
                XCTAssertEqual(mirror.pattern(ofTrip: other), tables.pattern(ofTrip: trip))
                for idx in 0..<n {
                    // A departure at t is an arrival at -t, stops counted from the other end.
                    XCTAssertEqual(mirror.departure(other, idx), -tables.arrival(trip, n - 1 - idx), "trip \(trip) stop \(idx)")
                    XCTAssertEqual(mirror.arrival(other, idx), -tables.departure(trip, n - 1 - idx), "trip \(trip) stop \(idx)")
                    checked += 1
                }
            }
            for t in route.templateRange {
                let template = tables.templates[t]
                for idx in 0..<n {
                    XCTAssertEqual(
                        mirror.departureOffset(mirror.templates[t].offsets, idx), -tables.arrivalOffset(template.offsets, n - 1 - idx))
                }
            }
        }
        XCTAssertGreaterThan(checked, 30)
        // Every stop's places name the same routes, at the mirrored index.
        for sid in 0..<(tables.placeFirst.count - 1) {
            let forward = tables.places(of: sid).map { tables.place($0) }
            let backward = mirror.places(of: sid).map { mirror.place($0) }
            XCTAssertEqual(forward.map(\.route), backward.map(\.route))
            XCTAssertEqual(
                forward.map { tables.routes[$0.route].stopCount - 1 - $0.idx }, backward.map(\.idx), "stop \(sid)")
        }
        // The mirror of the mirror reads as the routes.
        let again = mirror.mirrored()
        for (r, route) in tables.routes.enumerated() {
            XCTAssertEqual(again.routes[r].firstStop, route.firstStop)
            for trip in route.trips {
                XCTAssertEqual(again.tripStart[trip], tables.tripStart[trip])
                XCTAssertEqual(again.tripOffsets[trip], tables.tripOffsets[trip])
            }
        }
    }
}
