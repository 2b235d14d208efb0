import Foundation
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// Alert causes and effects and vehicle statuses are typed values that keep the producer's
/// spelling: the specification's values compare with their constants, an unknown one stays
/// as it came, and the JSON keeps the `.proto` spelling.
extension RealtimeRuleTests {
    func testAlertAndVehicleValuesAreTyped() throws {
        var alert = TransitRealtime_FeedEntity()
        alert.id = "strike"
        alert.alert.cause = .strike
        alert.alert.effect = .noService
        alert.alert.informedEntity = [
            {
                var selector = TransitRealtime_EntitySelector()
                selector.routeID = "R"
                return selector
            }()
        ]
        var vehicle = TransitRealtime_FeedEntity()
        vehicle.id = "v"
        vehicle.vehicle.trip.tripID = "T1"
        vehicle.vehicle.trip.startDate = "20260310"
        vehicle.vehicle.currentStatus = .stoppedAt
        vehicle.vehicle.occupancyStatus = .manySeatsAvailable
        let message = try RealtimeMessage(data: try feedMessage("2026-03-10T07:55", [alert, vehicle]).serializedData())
        let snapshot = try RealtimeSnapshot(messages: [message], bundle: bundle, now: try instant("2026-03-10T07:56"))
        let call = try XCTUnwrap(
            try board("S1", "2026-03-10T07:55", snapshot, now: "2026-03-10T07:56").departures.first { $0.scheduled.tripID == "T1" })
        let live = try XCTUnwrap(call.alerts.first)
        XCTAssertEqual(live.cause, .strike)
        XCTAssertEqual(live.effect, .noService)
        XCTAssertEqual(call.vehicle?.currentStatus, .stoppedAt)
        XCTAssertEqual(call.vehicle?.occupancy, .manySeatsAvailable)
        // The JSON keeps the specification's spelling.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(live)) as? [String: Any])
        XCTAssertEqual(json["cause"] as? String, "STRIKE")
        XCTAssertEqual(json["effect"] as? String, "NO_SERVICE")
        // A spelling of a later specification is kept as it came.
        let later = try JSONDecoder().decode(OccupancyStatus.self, from: Data("\"SOME_FUTURE_VALUE\"".utf8))
        XCTAssertEqual(later.rawValue, "SOME_FUTURE_VALUE")
        // Built by hand, an alert concerns what its selectors name.
        let handMade = LiveAlert(id: "a", cause: .strike, effect: .noService, informedEntities: [.init(routeID: "R")])
        XCTAssertTrue(handMade.concerns(call.scheduled, at: try instant("2026-03-10T07:56")))
        XCTAssertFalse(
            LiveAlert(id: "b", informedEntities: [.init(routeID: "Q")]).concerns(call.scheduled, at: try instant("2026-03-10T07:56")))
    }
}
