import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Every `transit-query` command's `--json` output decodes into the library type it prints,
/// and decoded it is the library's own answer to the same question (the commands with a
/// test of their own elsewhere: departures, trip, info, city, cities, plan, realtime).
extension CommandLineTests {
    private func decoded<T: Decodable>(_ type: T.Type, _ arguments: [String]) throws -> T {
        let result = try run("transit-query", arguments + ["--bundle", TestSupport.sampleBundlePath, "--json"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    }

    func testEveryQueryCommandsJSONDecodesIntoItsLibraryType() throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let at = "2026-03-30T08:00"
        let arrivals = try decoded([Departure].self, ["arrivals", "--stop", "BELLEVUE", "--at", at, "--window", "60"])
        XCTAssertFalse(arrivals.isEmpty)
        XCTAssertEqual(arrivals, try bundle.arrivals(to: "BELLEVUE", at: try QueryTime.parse(at), within: 3600))
        let found = try decoded([Stop].self, ["stops", "--search", "bellevue"])
        XCTAssertEqual(found, try bundle.stops(matching: "bellevue"))
        XCTAssertFalse(found.isEmpty)
        let near = try decoded([Stop].self, ["stops", "--near", "47.3667,8.5450", "--radius", "300"])
        let answered = try bundle.stops(near: Coordinate(latitude: 47.3667, longitude: 8.5450), within: 300)
        XCTAssertEqual(near.map(\.id), answered.map(\.id))
        for (printed, exact) in zip(near, answered) {
            XCTAssertEqual(try XCTUnwrap(printed.distanceMetres), try XCTUnwrap(exact.distanceMetres), accuracy: 0.05)
        }
        let nearest = try decoded([Stop].self, ["nearest", "--near", "47.3667,8.5450", "--count", "3"])
        XCTAssertEqual(nearest.map(\.id), try bundle.nearestStops(to: Coordinate(latitude: 47.3667, longitude: 8.5450), count: 3).map(\.id))
        XCTAssertEqual(try decoded(Shape.self, ["shape", "--trip", "T4_WK_0800"]), try bundle.shape(trip: "T4_WK_0800"))
        let lines = try decoded([Shape].self, ["shape", "--route", "T4"])
        XCTAssertEqual(lines, try bundle.shapes(route: "T4"))
        XCTAssertFalse(lines.isEmpty)
        XCTAssertEqual(try decoded([Agency].self, ["agencies"]), try bundle.agencies())
        XCTAssertEqual(try decoded([Route].self, ["routes"]), try bundle.routes())
        XCTAssertEqual(try decoded([Route].self, ["routes", "--stop", "CENTRAL"]), try bundle.routes(servingStop: "CENTRAL"))
        XCTAssertEqual(try decoded(RouteDetails.self, ["route", "T4"]), try bundle.route("T4"))
        XCTAssertEqual(try decoded([Transfer].self, ["transfers", "--stop", "CENTRAL"]), try bundle.transfers(at: "CENTRAL"))
    }

    /// A batch answer is `{"id": ..., "<key>": <the library type's encoding>}`; an error
    /// `{"id": ..., "error": {"code": ..., "message": ...}}`.
    func testBatchAnswersHoldTheLibraryTypes() throws {
        struct Answer: Decodable {
            var id: Int
            var departures: [Departure]?
            var stops: [Stop]?
            var shape: Shape?
            var route: RouteDetails?
            var error: Failure?
        }
        struct Failure: Decodable, Equatable {
            var code: String
            var message: String
        }
        let input = """
            {"id":1,"op":"departures","stop":"CENTRAL","at":"2026-03-30T08:00","window":60}
            {"id":2,"op":"stops","search":"bellevue"}
            {"id":3,"op":"shape","trip":"T4_WK_0800"}
            {"id":4,"op":"route","route":"T4"}
            {"id":5,"op":"route","route":"NOPE"}

            """
        let result = try run("transit-query", ["batch", "--bundle", TestSupport.sampleBundlePath], input: input)
        XCTAssertEqual(result.status, 0, result.stderr)
        let answers = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Answer.self, from: Data($0.utf8)) }
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        XCTAssertEqual(answers.map(\.id), [1, 2, 3, 4, 5])
        XCTAssertEqual(answers[0].departures, try bundle.departures(from: "CENTRAL", at: try QueryTime.parse("2026-03-30T08:00")))
        XCTAssertEqual(answers[1].stops, try bundle.stops(matching: "bellevue"))
        XCTAssertEqual(answers[2].shape, try bundle.shape(trip: "T4_WK_0800"))
        XCTAssertEqual(answers[3].route, try bundle.route("T4"))
        XCTAssertEqual(answers[4].error?.code, "unknown_route")
    }
}
