import Foundation
import TestKit
import TransitRuntime
import XCTest

/// Agencies, routes, the routes at a stop, a route's stops per direction and the nearest
/// stops on every real feed, against the feed files read plainly (`ReferenceTimetable.table`).
final class RealFeedRouteTests: XCTestCase {
    /// What the feed files say about routes: routes.txt (first row of an id wins), and per
    /// kept trip its route, direction and stops.
    struct Reference {
        var routes: [String: ReferenceTimetable.Row] = [:]
        var tripsOfRoute: [String: [(trip: String, direction: String, stops: [String])]] = [:]
        var routesAtStop: [String: Set<String>] = [:]
        var parent: [String: String] = [:]
    }

    static func reference(_ name: String, keeps: (String) -> Bool) throws -> Reference {
        let zip = RealFeeds.folder.appendingPathComponent(name + ".zip").path
        let field = { (row: ReferenceTimetable.Row, key: String) in row[key] ?? "" }
        var r = Reference()
        for row in try ReferenceTimetable.table("routes.txt", in: zip)
        where !field(row, "route_id").isEmpty && r.routes[field(row, "route_id")] == nil {
            r.routes[field(row, "route_id")] = row
        }
        for row in try ReferenceTimetable.table("stops.txt", in: zip) where !field(row, "parent_station").isEmpty {
            r.parent[field(row, "stop_id")] = field(row, "parent_station")
        }
        var tripRoute: [String: (route: String, direction: String)] = [:]
        for row in try ReferenceTimetable.table("trips.txt", in: zip) where tripRoute[field(row, "trip_id")] == nil {
            // direction_id is 0 or 1; anything else is none.
            let direction = field(row, "direction_id")
            tripRoute[field(row, "trip_id")] = (field(row, "route_id"), ["0", "1"].contains(direction) ? direction : "")
        }
        var stopsOfTrip: [String: [(Int, String)]] = [:]
        for row in try ReferenceTimetable.table("stop_times.txt", in: zip) {
            stopsOfTrip[field(row, "trip_id"), default: []].append((Int(field(row, "stop_sequence")) ?? 0, field(row, "stop_id")))
        }
        for (trip, stops) in stopsOfTrip where keeps(trip) {
            guard let (route, direction) = tripRoute[trip] else { continue }
            let ordered = stops.sorted { $0.0 < $1.0 }.map(\.1)
            r.tripsOfRoute[route, default: []].append((trip, direction, ordered))
            for stop in ordered { r.routesAtStop[stop, default: []].insert(route) }
        }
        return r
    }

    func testRoutesAndTheirStopsAgreeWithTheFeedFiles() throws {
        try RealFeeds.requireShared()
        let seed = SplitMix64.testSeed(515)
        var random = SplitMix64(state: seed)
        for name in RealFeeds.names {
            let bundle = try RealFeeds.bundle(name).bundle
            // The trips a rider can take, read from the files by the reference timetable
            // (departures-semantics.md: at least two stop_times, a first and last time, known
            // stops), whose service_id is defined in calendar.txt or calendar_dates.txt.
            let timetable = try ReferenceTimetable(zip: RealFeeds.folder.appendingPathComponent(name + ".zip").path)
            let r = try Self.reference(name) { trip in
                guard let service = timetable.trips[trip]?.service else { return false }
                return timetable.weekly[service] != nil || timetable.exceptions[service] != nil
            }
            let routes = try bundle.routes()
            XCTAssertEqual(Set(routes.map(\.routeID)), Set(r.routes.keys), name)
            for route in routes {
                let row = try XCTUnwrap(r.routes[route.routeID])
                let text = { (key: String) -> String? in
                    let value = row[key] ?? ""
                    return value.isEmpty ? nil : value
                }
                XCTAssertEqual(route.shortName, text("route_short_name"), "\(name) \(route.routeID)")
                XCTAssertEqual(route.longName, text("route_long_name"), "\(name) \(route.routeID)")
                XCTAssertEqual(route.routeType.rawValue, Int(text("route_type") ?? "") ?? -1, "\(name) \(route.routeID)")
                let details = try bundle.route(route.routeID)
                let trips = r.tripsOfRoute[route.routeID] ?? []
                XCTAssertEqual(details.directions.reduce(0) { $0 + $1.tripCount }, trips.count, "\(name) \(route.routeID)")
                for direction in details.directions {
                    let mine = trips.filter { $0.direction == (direction.directionID.map(String.init) ?? "") }
                    XCTAssertEqual(direction.tripCount, mine.count, "\(name) \(route.routeID) \(String(describing: direction.directionID))")
                    let listed = direction.stops.map(\.stopID)
                    XCTAssertEqual(Set(listed), Set(mine.flatMap(\.stops)), "\(name) \(route.routeID)")
                    // The longest trip's stops run in the listed order.
                    if let longest = mine.max(by: { $0.stops.count < $1.stops.count }) {
                        var next = listed.startIndex
                        for stop in longest.stops {
                            guard let found = listed[next...].firstIndex(of: stop) else {
                                XCTFail("\(name) \(route.routeID): \(stop) of \(longest.trip) out of order in \(listed)")
                                break
                            }
                            next = found + 1
                        }
                    }
                }
            }
            let served = Array(r.routesAtStop.keys).sorted()
            for _ in 0..<min(100, served.count) {
                let stop = served[Int.random(in: 0..<served.count, using: &random)]
                XCTAssertEqual(
                    Set(try bundle.routes(servingStop: stop).map(\.routeID)), r.routesAtStop[stop], "seed \(seed): \(name) \(stop)")
            }
            // A station answers for its platforms.
            var byStation: [String: Set<String>] = [:]
            for (stop, station) in r.parent { byStation[station, default: []].formUnion(r.routesAtStop[stop] ?? []) }
            for (station, expected) in byStation.sorted(by: { $0.key < $1.key }).prefix(20) where r.routesAtStop[station] == nil {
                XCTAssertEqual(Set(try bundle.routes(servingStop: station).map(\.routeID)), expected, "\(name) station \(station)")
            }
        }
    }

    /// The k nearest stops are the k smallest haversine distances over stops.txt.
    func testNearestStopsAreTheClosestByAPlainDistance() throws {
        try RealFeeds.requireShared()
        let seed = SplitMix64.testSeed(88)
        var random = SplitMix64(state: seed)
        for name in RealFeeds.names {
            let bundle = try RealFeeds.bundle(name).bundle
            let stops = try RealFeedStopTests.referenceStops(name).located
            for _ in 0..<20 {
                let base = stops[Int.random(in: 0..<stops.count, using: &random)]
                let lat = base.lat + Double.random(in: -0.02...0.02, using: &random)
                let lon = base.lon + Double.random(in: -0.02...0.02, using: &random)
                let k = [1, 5, 10, 30][Int.random(in: 0..<4, using: &random)]
                let found = try bundle.nearestStops(to: Coordinate(latitude: lat, longitude: lon), count: k)
                let distances = stops.map { PlainDistance.metres(lat, lon, $0.lat, $0.lon) }.filter { $0 <= 50_000 }.sorted()
                XCTAssertEqual(found.count, min(k, distances.count), "seed \(seed): \(name)")
                for (stop, expected) in zip(found, distances) {
                    XCTAssertEqual(try XCTUnwrap(stop.distanceMetres), expected, accuracy: 0.05, "seed \(seed): \(name) \(stop.stopID)")
                }
            }
        }
    }
}

extension RealFeedRouteTests {
    /// Every stop-to-stop row of transfers.txt (types 0-3 and 5, first row of a pair wins)
    /// is among the transfers the bundle gives at its from stop.
    func testTransfersAreTheStopToStopRows() throws {
        try RealFeeds.requireShared()
        var checked = 0
        for name in RealFeeds.names {
            let zip = RealFeeds.folder.appendingPathComponent(name + ".zip").path
            let bundle = try RealFeeds.bundle(name).bundle
            var expected: [String: [String: String]] = [:]
            for row in try ReferenceTimetable.table("transfers.txt", in: zip) {
                let field = { (key: String) in row[key] ?? "" }
                let type = Int(field("transfer_type")) ?? 0
                guard type != 4, ["from_route_id", "to_route_id", "from_trip_id", "to_trip_id"].allSatisfy({ field($0).isEmpty }),
                    !field("from_stop_id").isEmpty, !field("to_stop_id").isEmpty,
                    expected[field("from_stop_id")]?[field("to_stop_id")] == nil
                else { continue }
                expected[field("from_stop_id"), default: [:]][field("to_stop_id")] = "\(type) \(field("min_transfer_time"))"
            }
            for (from, rows) in expected {
                let found = try bundle.transfers(at: from).filter { $0.fromStopID == from }
                XCTAssertEqual(
                    Dictionary(
                        uniqueKeysWithValues: found.map {
                            ($0.toStopID, "\($0.type.rawValue) \($0.minTransferTime.map(String.init) ?? "")")
                        }), rows,
                    "\(name) \(from)")
                checked += rows.count
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }
}
