import Foundation
import SwiftProtobuf
import TestKit
import TestSupport
import XCTest

@testable import TransitRealtime

/// An entity holding only an id and a trip update is read by hand down to its trip update,
/// which swift-protobuf then decodes alone (`RealtimeMessage.tripUpdateEntity(_:)`); every
/// other entity, and any whose bytes do not read so, goes through swift-protobuf whole.
/// The two must agree: whenever the short way gives an entity, swift-protobuf decodes the
/// same bytes to an entity with the same id and trip update, and nothing else. A trip
/// update holding only its trip and stop time updates is itself read by hand down to them
/// (`TripUpdateParts`), and the update they make must be the one swift-protobuf decodes.
final class RealtimeEntityFramingTests: XCTestCase {
    /// A message with `entities`, each given as its serialized bytes.
    private func message(_ entities: [[UInt8]]) throws -> RealtimeMessage {
        var header = TransitRealtime_FeedHeader()
        header.gtfsRealtimeVersion = "2.0"
        header.timestamp = 1_773_126_000
        var bytes = field(1, Array(try header.serializedBytes() as [UInt8]))
        for entity in entities { bytes += field(2, entity) }
        return try RealtimeMessage(data: Data(bytes))
    }

    /// Field `number` with wire type 2 (length-delimited) holding `payload`.
    private func field(_ number: UInt64, _ payload: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(payload.count)) + payload
    }

    private func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    private func tripUpdate(_ trip: String, delay: Int32 = 60) -> TransitRealtime_TripUpdate {
        var update = TransitRealtime_TripUpdate()
        update.trip.tripID = trip
        update.trip.startDate = "20260310"
        var stop = TransitRealtime_TripUpdate.StopTimeUpdate()
        stop.stopSequence = 2
        stop.departure.delay = delay
        update.stopTimeUpdate = [stop]
        return update
    }

    private func bytes(_ update: TransitRealtime_TripUpdate) throws -> [UInt8] {
        try update.serializedBytes(partial: true)
    }

    /// Checks entity `index` of `message` both ways; returns whether the short way took it
    /// and whether it read the trip update part by part.
    @discardableResult
    private func agree(_ message: RealtimeMessage, _ index: Int, _ label: String) -> (short: Bool, byParts: Bool) {
        let full = try? message.entity(index)
        guard let short = message.tripUpdateEntity(index) else { return (false, false) }
        guard let full else {
            XCTFail("\(label): the short way read an entity swift-protobuf refuses")
            return (true, short.tripUpdate.isReadByParts)
        }
        XCTAssertEqual(short.id, full.id, label)
        XCTAssertEqual(short.tripUpdate.whole, full.tripUpdate, label)
        XCTAssertEqual(short.tripUpdate.trip, full.tripUpdate.trip, label)
        XCTAssertEqual(short.tripUpdate.stopTimeUpdates, full.tripUpdate.stopTimeUpdate.map(StopUpdate.init), label)
        // With the trip id read ahead, as a snapshot reads the entity: the same trip.
        let known = message.tripUpdateEntity(index, knownTripID: message.tripIDs()[index])
        XCTAssertEqual(known?.tripUpdate.trip, full.tripUpdate.trip, label)
        XCTAssertFalse(full.hasVehicle || full.hasAlert || full.hasIsDeleted || full.hasShape || full.hasStop, label)
        return (true, short.tripUpdate.isReadByParts)
    }

    func testOnlyAnEntityWithAnIdAndOneTripUpdateTakesTheShortWay() throws {
        let update = try bytes(tripUpdate("T1"))
        var withoutTrip = tripUpdate("T1")
        withoutTrip.clearTrip()
        var vehicle = TransitRealtime_VehiclePosition()
        vehicle.trip.tripID = "T1"
        let cases: [(String, [UInt8], Bool)] = [
            ("id and trip update", field(1, Array("e1".utf8)) + field(3, update), true),
            ("trip update before id", field(3, update) + field(1, Array("e2".utf8)), true),
            ("empty id", field(1, []) + field(3, update), true),
            ("multi-byte id", field(1, Array("gare-é-駅".utf8)) + field(3, update), true),
            ("no id", field(3, update), false),
            ("trip update without trip", field(1, Array("e3".utf8)) + field(3, try bytes(withoutTrip)), false),
            ("and a vehicle", field(1, Array("e4".utf8)) + field(3, update) + field(4, try vehicle.serializedBytes()), false),
            ("is_deleted", field(1, Array("e5".utf8)) + field(3, update) + [0x10, 0x01], false),
            // Two trip updates merge in protobuf; two ids keep the last: left to swift-protobuf.
            ("two trip updates", field(1, Array("e6".utf8)) + field(3, update) + field(3, try bytes(tripUpdate("T2", delay: 90))), false),
            ("two ids", field(1, Array("e7".utf8)) + field(1, Array("e8".utf8)) + field(3, update), false),
            ("id not UTF-8", field(1, [0x65, 0xFF]) + field(3, update), false),
            ("an extension", field(1, Array("e9".utf8)) + field(3, update) + field(1000, [1, 2]), false),
            ("trip update cut", field(1, Array("e10".utf8)) + field(3, Array(update.dropLast(2))), false),
        ]
        let read = try message(cases.map(\.1))
        for (index, (label, _, short)) in cases.enumerated() {
            XCTAssertEqual(agree(read, index, label).short, short, label)
        }
        // Inside the trip update: only its trip (once) and its stop time updates are read part
        // by part; anything else, and a second trip (protobuf merges the two), whole.
        var twoStops = tripUpdate("T3")
        twoStops.stopTimeUpdate.append(twoStops.stopTimeUpdate[0])
        twoStops.stopTimeUpdate[1].stopSequence = 5
        twoStops.stopTimeUpdate[1].stopID = "S5"
        var timed = tripUpdate("T4")
        timed.timestamp = 1_773_126_000
        var delayed = tripUpdate("T5")
        delayed.delay = 120
        var properties = tripUpdate("T6")
        properties.tripProperties.tripID = "T6b"
        var noStops = tripUpdate("T7")
        noStops.stopTimeUpdate = []
        var secondTrip = TransitRealtime_TripDescriptor()
        secondTrip.routeID = "R1"
        let parts: [(String, [UInt8], Bool)] = [
            ("two stop time updates", try bytes(twoStops), true),
            ("no stop time update", try bytes(noStops), true),
            ("a timestamp", try bytes(timed), false),
            ("a trip delay", try bytes(delayed), false),
            ("trip properties", try bytes(properties), false),
            ("a second trip", try bytes(tripUpdate("T8")) + field(1, try secondTrip.serializedBytes()), false),
            ("an unknown field", try bytes(tripUpdate("T9")) + field(99, [7]), false),
        ]
        let partsRead = try message(parts.map { field(1, Array("p\($0.0)".utf8)) + field(3, $0.1) })
        for (index, (label, _, expected)) in parts.enumerated() {
            let (short, byParts) = agree(partsRead, index, label)
            XCTAssertTrue(short, label)
            XCTAssertEqual(byParts, expected, label)
        }
        XCTAssertEqual(try partsRead.entity(5).tripUpdate.trip.routeID, "R1", "the two trips merged")
        XCTAssertEqual(try partsRead.entity(5).tripUpdate.trip.tripID, "T8")
        // Two trip updates: swift-protobuf merges them (the second's stop update follows the first's).
        let merged = try read.entity(8)
        XCTAssertEqual(merged.tripUpdate.trip.tripID, "T2")
        XCTAssertEqual(merged.tripUpdate.stopTimeUpdate.map(\.departure.delay), [60, 90])
    }

    /// Random entities (seeded; `TEST_SEED` replays), some with a byte changed, cut or
    /// added: wherever the short way reads one, swift-protobuf reads the same, and every
    /// undamaged entity without a vehicle takes the short way.
    func testDamagedEntitiesReadTheSameBothWays() throws {
        let seed = SplitMix64.testSeed(20_261_126)
        var random = SplitMix64(state: seed)
        var entities: [[UInt8]] = []
        var plain: [Bool] = []
        // Trip updates holding only their trip and stop time updates.
        var onlyParts: [Bool] = []
        for n in 0..<3000 {
            var entity = TransitRealtime_FeedEntity()
            entity.id = "e\(n)"
            entity.tripUpdate = tripUpdate("T\(n % 50)", delay: Int32.random(in: -300...900, using: &random))
            if Int.random(in: 0..<4, using: &random) == 0 { entity.tripUpdate.trip.startTime = "08:1\(n % 10):00" }
            if Int.random(in: 0..<6, using: &random) == 0 { entity.tripUpdate.vehicle.id = "bus \(n)" }
            if Int.random(in: 0..<10, using: &random) == 0 { entity.vehicle.trip.tripID = "T\(n)" }
            var bytes: [UInt8] = try entity.serializedBytes()
            let damage = Int.random(in: 0..<4, using: &random)
            switch damage {
            case 0: bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes.removeLast(Int.random(in: 1...min(4, bytes.count), using: &random))
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random))
            default: break
            }
            entities.append(bytes)
            plain.append(damage == 3 && !entity.hasVehicle)
            onlyParts.append(!entity.tripUpdate.hasVehicle)
        }
        let read = try message(entities)
        for index in entities.indices {
            let (short, byParts) = agree(read, index, "entity \(index), seed \(seed)")
            if plain[index] { XCTAssertTrue(short, "entity \(index), seed \(seed)") }
            if plain[index] && !onlyParts[index] { XCTAssertFalse(byParts, "entity \(index), seed \(seed)") }
            if plain[index] && onlyParts[index] { XCTAssertTrue(byParts, "entity \(index), seed \(seed)") }
        }
        XCTAssertGreaterThan(plain.count { $0 }, 500, "seed \(seed)")
    }
}
