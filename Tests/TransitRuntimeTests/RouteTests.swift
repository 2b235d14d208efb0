import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Agencies, routes, the routes at a stop, a route's stops per direction, the nearest stops,
/// and the `Codable` keys of the library's types against `transit-query`'s JSON.
final class RouteTests: XCTestCase {
    static let feed = TestFeeds.routes

    func testAgenciesRoutesAndTheirStops() throws {
        let (log, path) = TestSupport.compile(Self.feed)
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        XCTAssertEqual(try bundle.agencies().map(\.id), ["f/A", "f/B"])
        XCTAssertEqual(try bundle.agencies().first?.url, "https://a.example")
        let r = Route(
            feedID: "f", routeID: "R", agencyID: "A", shortName: "1", longName: "One to Three", routeType: .bus, color: HexColor("FF0000"))
        let b = Route(feedID: "f", routeID: "B", agencyID: "B", longName: "Bee line", routeType: .extended(700))
        XCTAssertEqual(try bundle.routes(), [b, r])
        XCTAssertEqual(try bundle.routes(agency: "A"), [r])
        XCTAssertThrowsError(try bundle.routes(agency: "Z")) { XCTAssertEqual($0 as? TransitError, .unknownAgency("Z")) }
        XCTAssertEqual(try bundle.routes(servingStop: "S3"), [r])
        XCTAssertEqual(try bundle.routes(servingStop: "S4"), [b, r], "a terminus counts")
        XCTAssertEqual(try bundle.routes(servingStop: "ST"), [b, r], "a station answers for its platforms")

        let details = try bundle.route("R")
        XCTAssertEqual(details.route, r)
        XCTAssertEqual(details.directions.map(\.directionID), [0, 1])
        XCTAssertEqual(
            details.directions[0].stops.map(\.stopID), ["S1", "S2", "S4", "S3"],
            "the branch stop right after the stop it leaves the busier pattern at")
        XCTAssertEqual(details.directions[0].headsign, "Three")
        XCTAssertEqual(details.directions[0].tripCount, 3)
        XCTAssertEqual(details.directions[1].stops.map(\.stopID), ["S3", "S2", "S1"])
        let bee = try bundle.route("B")
        XCTAssertEqual(bee.directions.map(\.directionID), [nil])
        XCTAssertEqual(bee.directions[0].headsign, "Two", "no trip_headsign: the last stop's name")
        XCTAssertThrowsError(try bundle.route("Q")) { XCTAssertEqual($0 as? TransitError, .unknownRoute("Q")) }
    }

    func testNearestStops() throws {
        let (log, path) = TestSupport.compile(Self.feed)
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        let point = Coordinate(latitude: 48.0, longitude: 7.0)
        // S2 and station ST share a place: ties go by the stops' order.
        XCTAssertEqual(try bundle.nearestStops(to: point, count: 2).map(\.stopID), ["S1", "S2"])
        let all = try bundle.nearestStops(to: point, count: 10)
        XCTAssertEqual(all.count, 5)
        XCTAssertEqual(all.first?.stopID, "S1")
        XCTAssertEqual(all.map { $0.distanceMetres ?? -1 }, all.map { $0.distanceMetres ?? -1 }.sorted())
        XCTAssertEqual(try bundle.nearestStops(to: point, count: 10, maxDistance: 1_000).map(\.stopID), ["S1"])
    }
}

extension RouteTests {
    func testTransfersFromAStopItsStationAndPlatforms() throws {
        var feed = Self.feed
        feed["transfers.txt"] = """
            from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_trip_id
            S1,S3,2,120,
            ST,S4,0,,
            S2,S1,1,,
            S1,S3,2,300,
            S1,NOPE,0,,
            S1,S2,0,,T1
            S3,S1,4,,

            """
        let (log, path) = TestSupport.compile(feed)
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        XCTAssertEqual(
            try bundle.transfers(at: "S1"),
            [Transfer(feedID: "f", fromStopID: "S1", toStopID: "S3", type: .minimumTime, minTransferTime: 120)])
        // A platform gets its station's transfers; a station its platforms'.
        let atS2 = try bundle.transfers(at: "S2").map { "\($0.fromStopID)>\($0.toStopID) \($0.type.rawValue)" }
        XCTAssertEqual(atS2, ["S2>S1 1", "ST>S4 0"])
        XCTAssertEqual(try bundle.transfers(at: "ST").map(\.toStopID), ["S1", "S4"])
        XCTAssertEqual(try bundle.transfers(at: "S3"), [])
        let problems = log.record.diagnostics.map { "\($0.code.rawValue) \($0.line ?? 0)" }
        XCTAssertTrue(problems.contains("W_DUPLICATE_ID 5"), "\(problems)")
        XCTAssertTrue(problems.contains("W_UNKNOWN_REF 6"), "\(problems)")
        XCTAssertTrue(problems.contains("I_TRANSFERS_UNUSED 7"), "\(problems)")
        XCTAssertTrue(log.record.diagnostics.contains { $0.message.hasPrefix("2 row(s)") }, "the trip row and the in-seat row")
    }
}
