import Foundation
import TestKit
import TestSupport
import TransitRealtime
import TransitRuntime
import XCTest

/// What an app keeps between launches (recent searches, a widget's cached board) survives a
/// round trip through `Codable`, with the documented keys.
final class CodableScreenValueTests: XCTestCase {
    private func roundTrip<T: Codable & Equatable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(T.self, from: data), value, file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], file: file, line: line)
    }

    func testPlannerOptionsAndPlaces() throws {
        let options = JourneyOptions(
            maxTransfers: 2, changeTime: 300, walkingSpeed: 0.9, transferDistance: 250, accessDistance: 500, wheelchair: true, horizon: 7200
        )
        let keys = try roundTrip(options)
        XCTAssertEqual(keys["max_transfers"] as? Int, 2)
        XCTAssertEqual(keys["wheelchair"] as? Bool, true)
        XCTAssertEqual(try roundTrip(JourneyPlace.stop("GARE", feed: "cts"))["stop_id"] as? String, "GARE")
        XCTAssertNil(try roundTrip(JourneyPlace.stop("GARE"))["feed"])
        XCTAssertEqual(try roundTrip(JourneyPlace.coordinate(Coordinate(latitude: 48.57, longitude: 7.75)))["lon"] as? Double, 7.75)
        XCTAssertThrowsError(try JSONDecoder().decode(JourneyPlace.self, from: Data(#"{"lat": 48.5}"#.utf8)))
    }

    func testALiveBoardWithEachReason() throws {
        let at = LocalDateTime(iso: "2026-03-10T08:00:00+01:00")!
        let call = Departure(
            feedID: "f", stopID: "S2", stopName: "Two", tripID: "T1", routeID: "R", headsign: "End",
            serviceDate: ServiceDate("2026-03-10")!, departureSecs: 8 * 3600, departureLocal: at)
        let live = LiveDeparture(
            scheduled: call, state: .updated, predictedDeparture: at.instant.addingTimeInterval(150), delay: 150,
            vehicle: VehicleStatus(vehicleID: "V7", timestamp: Date(timeIntervalSince1970: 1_773_126_000), occupancy: .fewSeatsAvailable))
        let applied = try roundTrip(LiveBoard(departures: [live], realtimeApplied: true))
        XCTAssertEqual(applied["realtime_applied"] as? Bool, true)
        XCTAssertNil(applied["not_applied"])
        let vehicle = try XCTUnwrap(((applied["departures"] as? [[String: Any]])?.first?["vehicle"]) as? [String: Any])
        XCTAssertEqual(vehicle["timestamp"] as? String, "2026-03-10T07:00:00Z", "an instant, whatever the encoder's date strategy")
        let stale = LiveBoard.NotApplied.stale(age: 412, allowed: 300, now: Date(timeIntervalSince1970: 1_773_126_412))
        let staleKeys = try roundTrip(LiveBoard(departures: [], realtimeApplied: false, notAppliedReason: stale))
        XCTAssertEqual((staleKeys["not_applied"] as? [String: Any])?["reason"] as? String, "stale")
        XCTAssertEqual(stale.errorDescription, "Live times are 6 min old: showing the timetable.")
        XCTAssertNotNil(stale.recoverySuggestion)
        let none = try roundTrip(LiveBoard(departures: [], realtimeApplied: false, notAppliedReason: .noTripUpdates))
        XCTAssertEqual((none["not_applied"] as? [String: Any])?["reason"] as? String, "no_trip_updates")
    }

    func testAlertPeriodsAreInstantsWithOpenEnds() throws {
        let from = Date(timeIntervalSince1970: 1_773_126_000)
        let until = from.addingTimeInterval(3600)
        let closed = LiveAlert.ActivePeriod(start: from, end: until)
        let open = LiveAlert.ActivePeriod(start: from)
        XCTAssertEqual(closed.dateInterval, DateInterval(start: from, end: until))
        XCTAssertNil(open.dateInterval, "no DateInterval without an end")
        XCTAssertTrue(open.contains(from.addingTimeInterval(1e9)))
        XCTAssertFalse(closed.contains(until.addingTimeInterval(1)))
        XCTAssertTrue(closed.contains(until), "ends included")
        let alert = LiveAlert(id: "a", effect: .detour, activePeriods: [closed, open], informedEntities: [.init(routeID: "R")])
        let data = try JSONEncoder().encode(alert)
        XCTAssertEqual(try JSONDecoder().decode(LiveAlert.self, from: data), alert)
        let keys = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let periods = try XCTUnwrap(keys["active_periods"] as? [[String: Any]])
        XCTAssertEqual(periods[0]["start"] as? String, "2026-03-10T07:00:00Z")
        XCTAssertEqual(periods[0]["end"] as? String, "2026-03-10T08:00:00Z")
        XCTAssertNil(periods[1]["end"])
    }
}
