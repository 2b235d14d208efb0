import Foundation
import TestSupport
import TransitRuntime
import XCTest

/// The GTFS code enums keep every raw value a feed may give, and colours parse RRGGBB only.
final class GTFSCodeTests: XCTestCase {
    func testEveryRawValueComesBack() {
        for code in -5...2_000 {
            XCTAssertEqual(RouteType(rawValue: code).rawValue, code)
            XCTAssertEqual(PickupDropOffType(rawValue: code).rawValue, code)
            XCTAssertEqual(Accessibility(rawValue: code).rawValue, code)
            XCTAssertEqual(LocationType(rawValue: code).rawValue, code)
            XCTAssertEqual(TransferType(rawValue: code).rawValue, code)
        }
        XCTAssertEqual(RouteType(rawValue: 0), .tram)
        XCTAssertEqual(RouteType(rawValue: 3), .bus)
        XCTAssertEqual(RouteType(rawValue: 11), .trolleybus)
        XCTAssertEqual(RouteType(rawValue: 8), .other(8))
        XCTAssertEqual(RouteType(rawValue: 109), .extended(109))
        XCTAssertEqual(RouteType(rawValue: 1700), .extended(1700))
        XCTAssertEqual(PickupDropOffType(rawValue: 1), PickupDropOffType.notAvailable)
        XCTAssertEqual(LocationType(rawValue: 1), .station)
        XCTAssertEqual(Accessibility(rawValue: 2), .no)
    }

    func testColoursParseSixHexDigits() {
        XCTAssertEqual(HexColor("E10D19"), HexColor(red: 225, green: 13, blue: 25))
        XCTAssertEqual(HexColor("#e10d19")?.hex, "E10D19")
        XCTAssertEqual(HexColor("00000a")?.hex, "00000A")
        for bad in ["", "12345", "1234567", "GGGGGG", "+12345", "-12345", " 12345", "#12345"] { XCTAssertNil(HexColor(bad), bad) }
        XCTAssertEqual(HexColor("FF8000")!.components.green, 128.0 / 255)
    }

    func testCodesEncodeAsTheirNumbersAndColoursAsText() throws {
        let route = Route(feedID: "f", routeID: "R", routeType: .extended(700), color: HexColor("0099CC"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(route)) as? [String: Any])
        XCTAssertEqual(json["route_type"] as? Int, 700)
        XCTAssertEqual(json["route_color"] as? String, "0099CC")
        XCTAssertEqual(try JSONDecoder().decode(Route.self, from: JSONEncoder().encode(route)), route)
        XCTAssertThrowsError(try JSONDecoder().decode(HexColor.self, from: Data("\"blue\"".utf8)))
    }
}
