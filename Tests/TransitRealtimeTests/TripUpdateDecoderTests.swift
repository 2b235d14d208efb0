import Foundation
import SwiftProtobuf
import TestKit
import XCTest

@testable import TransitRealtime

/// The hand decoder of trip descriptors and stop time updates against swift-protobuf, the
/// independent reading: whatever it decodes equals swift-protobuf's value for the same
/// bytes (a stop time update read as the plain `StopUpdate`, which reads back as that
/// value), on seeded messages with every field present or not, on seeded damage to them,
/// on shapes it leaves to swift-protobuf, and on every trip update of the real captures.
final class TripUpdateDecoderTests: XCTestCase {
    typealias Update = TransitRealtime_TripUpdate.StopTimeUpdate

    private static func text(_ random: inout SplitMix64) -> String {
        ["", "70012", "Gare Centrale", "1090942WKDY", "trajet-é", "東京", String(repeating: "x", count: 200)].randomElement(
            using: &random)!
    }

    static func trip(_ random: inout SplitMix64) -> TransitRealtime_TripDescriptor {
        var trip = TransitRealtime_TripDescriptor()
        if Bool.random(using: &random) { trip.tripID = text(&random) }
        if Bool.random(using: &random) { trip.routeID = text(&random) }
        if Bool.random(using: &random) { trip.directionID = UInt32.random(in: 0...1, using: &random) }
        if Bool.random(using: &random) { trip.startTime = ["08:30:00", "25:01:02", "x"].randomElement(using: &random)! }
        if Bool.random(using: &random) { trip.startDate = ["20260328", "2026"].randomElement(using: &random)! }
        if Bool.random(using: &random) {
            trip.scheduleRelationship = TransitRealtime_TripDescriptor.ScheduleRelationship.allCases.randomElement(using: &random)!
        }
        return trip
    }

    static func event(_ random: inout SplitMix64) -> TransitRealtime_TripUpdate.StopTimeEvent {
        var event = TransitRealtime_TripUpdate.StopTimeEvent()
        if Bool.random(using: &random) { event.delay = Int32.random(in: -3600...3600, using: &random) }
        if Bool.random(using: &random) { event.time = [0, 1_780_000_000, -1, .max, .min].randomElement(using: &random)! }
        if Bool.random(using: &random) { event.uncertainty = [0, 30, -5, .max, .min].randomElement(using: &random)! }
        if Bool.random(using: &random) { event.scheduledTime = Int64.random(in: 0...2_000_000_000, using: &random) }
        return event
    }

    static func update(_ random: inout SplitMix64) -> Update {
        var update = Update()
        if Bool.random(using: &random) { update.stopSequence = [0, 1, 18, .max].randomElement(using: &random)! }
        if Bool.random(using: &random) { update.stopID = text(&random) }
        if Bool.random(using: &random) { update.arrival = event(&random) }
        if Bool.random(using: &random) { update.departure = event(&random) }
        if Bool.random(using: &random) { update.scheduleRelationship = Update.ScheduleRelationship.allCases.randomElement(using: &random)! }
        if Bool.random(using: &random) {
            update.departureOccupancyStatus = TransitRealtime_VehiclePosition.OccupancyStatus.allCases.randomElement(using: &random)!
        }
        if Bool.random(using: &random) {
            var properties = Update.StopTimeProperties()
            if Bool.random(using: &random) { properties.assignedStopID = text(&random) }
            if Bool.random(using: &random) { properties.stopHeadsign = text(&random) }
            if Bool.random(using: &random) { properties.pickupType = .allCases.randomElement(using: &random)! }
            if Bool.random(using: &random) { properties.dropOffType = .allCases.randomElement(using: &random)! }
            update.stopTimeProperties = properties
        }
        return update
    }

    private func handTrip(_ bytes: [UInt8]) -> TransitRealtime_TripDescriptor? {
        bytes.withUnsafeBytes { TripUpdateDecoder.tripDescriptor($0) }
    }

    private func handUpdate(_ bytes: [UInt8]) -> StopUpdate? {
        bytes.withUnsafeBytes { TripUpdateDecoder.stopTimeUpdate($0) }
    }

    func testSeededMessagesAndTheirDamageDecodeAsSwiftProtobufDecodesThem() throws {
        let seed = SplitMix64.testSeed(4141)
        var random = SplitMix64(state: seed)
        var (decoded, leftToSwiftProtobuf) = (0, 0)
        for n in 0..<600 {
            let trip = Self.trip(&random)
            let update = Self.update(&random)
            let tripBytes: [UInt8] = try trip.serializedBytes()
            let updateBytes: [UInt8] = try update.serializedBytes()
            // The plain shape, as a producer writes it: always decoded, always the same value.
            XCTAssertEqual(handTrip(tripBytes), trip, "seed \(seed), case \(n)")
            XCTAssertEqual(handUpdate(updateBytes), StopUpdate(update), "seed \(seed), case \(n)")
            // And read back as swift-protobuf's value, field for field.
            XCTAssertEqual(StopUpdate(update).message, update, "seed \(seed), case \(n)")
            // Damaged: a byte changed, the end cut, a byte inserted.
            for _ in 0..<20 {
                for original in [tripBytes, updateBytes] where !original.isEmpty {
                    var bytes = original
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
                    case 1: bytes.removeSubrange(at...)
                    default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
                    }
                    let isTrip = original == tripBytes
                    let hand: (any Equatable)? = isTrip ? handTrip(bytes) : handUpdate(bytes)
                    guard let hand else {
                        leftToSwiftProtobuf += 1
                        continue
                    }
                    decoded += 1
                    let options = BinaryDecodingOptions()
                    if isTrip {
                        let reference = try? TransitRealtime_TripDescriptor(serializedBytes: bytes, partial: true, options: options)
                        XCTAssertEqual(hand as? TransitRealtime_TripDescriptor, reference, "seed \(seed), case \(n): \(bytes)")
                    } else {
                        let reference = try? Update(serializedBytes: bytes, partial: true, options: options)
                        XCTAssertEqual(hand as? StopUpdate, reference.map(StopUpdate.init), "seed \(seed), case \(n): \(bytes)")
                    }
                }
            }
        }
        // Both ways were taken, many times each.
        XCTAssertGreaterThan(decoded, 1_000, "seed \(seed)")
        XCTAssertGreaterThan(leftToSwiftProtobuf, 1_000, "seed \(seed)")
    }

    func testShapesOutsideThePlainOneAreLeftToSwiftProtobuf() throws {
        var arrival = TransitRealtime_TripUpdate.StopTimeEvent()
        arrival.delay = 60
        var later = TransitRealtime_TripUpdate.StopTimeEvent()
        later.time = 1_780_000_000
        var one = Update()
        one.arrival = arrival
        var two = Update()
        two.arrival = later
        // An arrival given twice: protobuf merges the two (delay and time both kept).
        let twice: [UInt8] = try one.serializedBytes() + two.serializedBytes()
        XCTAssertNil(handUpdate(twice))
        let merged = try Update(serializedBytes: twice)
        XCTAssertEqual([merged.arrival.delay, Int32(merged.arrival.time - 1_780_000_000)], [60, 0])
        let cases: [(String, [UInt8])] = [
            ("an unknown field", [0x98, 0x06, 0x01]),  // field 99, varint
            ("an extension", [0xC0, 0x3E, 0x01]),  // field 1000, varint
            ("a schedule_relationship the reference does not name", [0x20, 0x04]),
            ("a trip_id that is not UTF-8", [0x0A, 0x02, 0xC3, 0x28]),
            ("field number 0", [0x00, 0x01]),
            ("a varint field sent as fixed32", [0x35, 0x01, 0x00, 0x00, 0x00]),
            ("an eleven-byte varint", [0x30] + [UInt8](repeating: 0xFF, count: 10) + [0x01]),
            ("a field cut short", [0x0A, 0x05, 0x41]),
        ]
        for (what, bytes) in cases {
            XCTAssertNil(handTrip(bytes), what)
        }
        XCTAssertNil(handUpdate([0x28, 0x07]), "a stop schedule_relationship the reference does not name")
    }

    func testEveryTripUpdateOfTheCapturesDecodesAsSwiftProtobufDecodesIt() throws {
        let folder = try TestPaths.requireShared("realtime")
        var parts = 0
        for name in ["bart-trip-updates.pb", "ct-trip-updates.pb"] {
            let feed = try TransitRealtime_FeedMessage(serializedBytes: Data(contentsOf: folder.appendingPathComponent(name)))
            for entity in feed.entity where entity.hasTripUpdate {
                let tripBytes: [UInt8] = try entity.tripUpdate.trip.serializedBytes()
                XCTAssertEqual(handTrip(tripBytes), entity.tripUpdate.trip, "\(name) \(entity.id)")
                for update in entity.tripUpdate.stopTimeUpdate {
                    XCTAssertEqual(handUpdate(try update.serializedBytes()), StopUpdate(update), "\(name) \(entity.id)")
                    XCTAssertEqual(StopUpdate(update).message, update, "\(name) \(entity.id)")
                    parts += 1
                }
            }
        }
        XCTAssertGreaterThan(parts, 1_000)
    }
}
