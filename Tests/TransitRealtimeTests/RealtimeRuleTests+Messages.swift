import Foundation
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// Messages longer than one run (read by several threads) and snapshots of several
/// messages: what each entity says applies in the messages' order, whichever thread read it.
extension RealtimeRuleTests {
    /// An entity with the vehicle position of trip `trip` on 2026-03-10 (vehicle `bus-TRIP`).
    private func vehicle(_ id: String, _ trip: String) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        entity.vehicle.trip.tripID = trip
        entity.vehicle.trip.startDate = "20260310"
        entity.vehicle.vehicle.id = "bus-\(trip)"
        return entity
    }

    /// A message longer than one run is read by several threads, each run into its own
    /// builder: appended in order, the runs give what reading the entities one by one
    /// gives. A vehicle seen in the first run stays on a trip updated in a later one (and
    /// the other way round), and entities left out are reported in the message's order.
    func testAMessageReadInRunsGivesWhatOneByOneGives() throws {
        let count = 3 * SnapshotBuilder.runLength
        var entities = (0..<count).map { entity("e\($0)", update("X\($0)", date: "20260310")) }
        entities[10] = vehicle("e10", "T1")
        entities[SnapshotBuilder.runLength + 5] = entity("e-T1", update("T1", date: "20260310", [(1, "S1", 60, false)]))
        entities[20] = entity("e-L1", update("L1", date: "20260310", [(1, "S1", 120, false)]))
        entities[2 * SnapshotBuilder.runLength + 7] = vehicle("e-L1-vehicle", "L1")
        let snapshot = try RealtimeSnapshot(
            messages: [try RealtimeMessage(data: try feedMessage("2026-03-10T07:58", entities).serializedData())], bundle: bundle)
        XCTAssertEqual(snapshot.report.entities, count)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 2)
        XCTAssertEqual(snapshot.report.vehiclesMatched, 2)
        // The unknown trips, in the message's order.
        let unknown = entities.filter { $0.hasTripUpdate && $0.tripUpdate.trip.tripID.hasPrefix("X") }.map(\.id)
        XCTAssertEqual(unknown.count, count - 4)
        XCTAssertEqual(snapshot.report.unmatched.map(\.entityID), unknown)
        let t1 = try board("S1", "2026-03-10T07:59", snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(t1?.delay, 60)
        XCTAssertEqual(t1?.vehicle?.vehicleID, "bus-T1")
        let l1 = try board("S1", "2026-03-10T08:58", snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "L1" }
        XCTAssertEqual(l1?.delay, 120)
        XCTAssertEqual(l1?.vehicle?.vehicleID, "bus-L1")
    }

    /// Trip updates and vehicle positions in separate messages (as Caltrain publishes
    /// them), each longer than a run: a vehicle message keeps the trip updates read before
    /// it and the other way round, and a later trip update replaces an earlier one's
    /// delays but keeps the vehicle.
    func testAVehicleMessageKeepsTheTripUpdatesOfAnotherAndTheOtherWayRound() throws {
        let count = 2 * SnapshotBuilder.runLength
        var updates = (0..<count).map { entity("u\($0)", update("X\($0)", date: "20260310")) }
        updates[5] = entity("u-L1", update("L1", date: "20260310", [(1, "S1", 120, false)]))
        updates[SnapshotBuilder.runLength + 5] = entity("u-T1", update("T1", date: "20260310", [(1, "S1", 60, false)]))
        var vehicles = (0..<count).map { vehicle("v\($0)", "X\($0)") }
        vehicles[3] = vehicle("v-T1", "T1")
        vehicles[SnapshotBuilder.runLength + 9] = vehicle("v-L1", "L1")
        let header = "2026-03-10T07:58"
        let tripUpdates = try RealtimeMessage(data: try feedMessage(header, updates).serializedData())
        let positions = try RealtimeMessage(data: try feedMessage(header, vehicles).serializedData())
        let later = try message(header, [update("T1", date: "20260310", [(1, "S1", 30, false)])])
        func live(_ trip: String, _ at: String, _ snapshot: RealtimeSnapshot) throws -> LiveDeparture? {
            try board("S1", at, snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == trip }
        }
        for messages in [[tripUpdates, positions], [positions, tripUpdates]] {
            let snapshot = try RealtimeSnapshot(messages: messages, bundle: bundle)
            XCTAssertEqual(snapshot.report.entities, 2 * count)
            XCTAssertEqual(snapshot.report.tripUpdatesMatched, 2)
            XCTAssertEqual(snapshot.report.vehiclesMatched, 2)
            for (trip, at, delay) in [("T1", "2026-03-10T07:59", 60.0), ("L1", "2026-03-10T08:58", 120)] {
                let departure = try live(trip, at, snapshot)
                XCTAssertEqual(departure?.delay, delay, trip)
                XCTAssertEqual(departure?.vehicle?.vehicleID, "bus-\(trip)", trip)
            }
        }
        let replaced = try RealtimeSnapshot(messages: [tripUpdates, positions, later], bundle: bundle)
        XCTAssertEqual(try live("T1", "2026-03-10T07:59", replaced)?.delay, 30)
        XCTAssertEqual(try live("T1", "2026-03-10T07:59", replaced)?.vehicle?.vehicleID, "bus-T1")
    }

    /// The message's trips are looked up together by the trip id each entity seems to name
    /// (read from its bytes without decoding it); an entity is matched by what it decodes
    /// to. Two trip updates in one entity merge (protobuf): the last one's trip names no
    /// trip_id, so no id is read ahead for it, and the merged update is still matched to
    /// the first one's trip, with the entities after it matched in their places.
    func testAnEntityIsMatchedByWhatItDecodesToNotByTheIdReadAhead() throws {
        func field(_ number: UInt8, _ payload: [UInt8]) -> [UInt8] {
            // Payloads here are under 128 bytes: a one-byte length.
            [number << 3 | 2, UInt8(payload.count)] + payload
        }
        var dateOnly = TransitRealtime_TripUpdate()
        dateOnly.trip.startDate = "20260310"
        let merged =
            field(1, Array("e-merged".utf8)) + field(3, try update("T1", date: "20260310", [(1, "S1", 60, false)]).serializedBytes())
            + field(3, try dateOnly.serializedBytes(partial: true))
        let plain = try feedMessage(
            "2026-03-10T07:58",
            [entity("e-L1", update("L1", date: "20260310", [(1, "S1", 120, false)])), entity("e-X", update("X0", date: "20260310"))])
        let later: [UInt8] = try entity("e-T1", update("T1", date: "20260310", [(1, "S1", 30, false)])).serializedBytes()
        let bytes = Array(try plain.serializedData()) + field(2, merged) + field(2, later)
        let message = try RealtimeMessage(data: Data(bytes))
        XCTAssertEqual(message.tripIDs(), ["L1", "X0", nil, "T1"])
        XCTAssertEqual(try message.entity(2).tripUpdate.trip.tripID, "T1", "the two trip updates merged")
        let snapshot = try RealtimeSnapshot(messages: [message], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 3)
        XCTAssertEqual(snapshot.report.unmatched.map(\.entityID), ["e-X"])
        let l1 = try board("S1", "2026-03-10T08:58", snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "L1" }
        XCTAssertEqual(l1?.delay, 120)
        // The last entity naming T1 replaces the merged one's delay.
        let t1 = try board("S1", "2026-03-10T07:59", snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(t1?.delay, 30)
        let alone = try RealtimeSnapshot(
            messages: [try RealtimeMessage(data: Data(Array(try plain.serializedData()) + field(2, merged)))], bundle: bundle)
        let mergedT1 = try board("S1", "2026-03-10T07:59", alone, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(mergedT1?.delay, 60)
    }
}
