import Foundation
import TestKit
import TestSupport
import XCTest

@testable import TransitRuntime

/// A ride's part of its trip's line: cut at the places of its boarding and alighting stops,
/// the stops placed in order (a line passing a stop twice is cut at the right pass).
final class ShapeCutTests: XCTestCase {
    private func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }

    func testAStraightLineIsCutAtTheStopsFeet() {
        let line = [c(0, 0), c(0, 1), c(0, 2), c(0, 3)]
        // Stops beside the line (north and south of it): cut where they are nearest it.
        let part = ShapeCut.part(of: line, stops: [c(0.001, 0.5), c(-0.001, 2.5)], from: 0)
        XCTAssertEqual(part.count, 4)
        let expected = [c(0, 0.5), c(0, 1), c(0, 2), c(0, 2.5)]
        for (got, want) in zip(part, expected) {
            XCTAssertEqual(got.latitude, want.latitude, accuracy: 1e-9)
            XCTAssertEqual(got.longitude, want.longitude, accuracy: 1e-9)
        }
    }

    func testALineThatComesBackIsCutOnThePassTheTripIsOn() {
        // Out along latitude 0, back along latitude 0.01: the stop at 0.01, 0.5 is close to
        // both passes' start, but the trip reaches it only after the turn at longitude 2.
        let line = [c(0, 0), c(0, 2), c(0.01, 2), c(0.01, 0)]
        let stops = [c(0, 0.5), c(0.005, 2), c(0.01, 0.5)]
        let part = ShapeCut.part(of: line, stops: stops, from: 0)
        XCTAssertEqual(part.first, c(0, 0.5))
        XCTAssertEqual(part.count, 4, "\(part)")
        XCTAssertEqual(part[1], c(0, 2))
        XCTAssertEqual(part[2], c(0.01, 2))
        XCTAssertEqual(part[3].latitude, 0.01, accuracy: 1e-12)
        XCTAssertEqual(part[3].longitude, 0.5, accuracy: 1e-9)
        // From the middle stop only: the way back.
        let back = ShapeCut.part(of: line, stops: stops, from: 1)
        XCTAssertEqual(back.first?.longitude ?? 0, 2, accuracy: 1e-9)
        XCTAssertEqual(back.last?.longitude ?? 0, 0.5, accuracy: 1e-9)
    }

    func testABundlesTripsAndRideLegs() throws {
        let (log, path) = TestSupport.compile(TestFeeds.shapes)
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        // T1 follows SH1 from S1 (its first point) to S3 (its last): the whole line.
        XCTAssertEqual(try bundle.shape(trip: "T1", fromStopSequence: 1, toStopSequence: 3).points, try bundle.shape(trip: "T1").points)
        // S1 to S2: S2 (48.01, 7.01) lies between SH1's second and third points.
        let firstPart = try bundle.shape(trip: "T1", fromStopSequence: 1, toStopSequence: 2).points
        XCTAssertEqual(Array(firstPart.prefix(2)), [c(48.0, 7.0), c(48.005, 7.002)])
        XCTAssertEqual(firstPart.count, 3)
        let end = try XCTUnwrap(firstPart.last)
        XCTAssertTrue(end.latitude > 48.005 && end.latitude < 48.011 && end.longitude > 7.002 && end.longitude < 7.013, "\(end)")
        // A trip without a shape: its stops.
        XCTAssertEqual(try bundle.shape(trip: "T2", fromStopSequence: 1, toStopSequence: 2).points, [c(48.0, 7.0), c(48.01, 7.01)])
        XCTAssertThrowsError(try bundle.shape(trip: "T1", fromStopSequence: 3, toStopSequence: 1))
        XCTAssertThrowsError(try bundle.shape(trip: "T1", fromStopSequence: 1, toStopSequence: 9))
        // A ride leg of a journey gives its part; a walk has none.
        let journeys = try bundle.journeys(from: .stop("S1"), to: .stop("S2"), departingAt: try QueryTime.parse("2026-03-10T07:55"))
        let ride = try XCTUnwrap(journeys.first?.legs.first { $0.kind == .ride })
        let drawn = try bundle.shape(of: ride)
        XCTAssertEqual(drawn.points.first, c(48.0, 7.0))
        XCTAssertEqual(drawn.points.count, ride.boarding?.tripID == "T2" || ride.boarding?.tripID == "T4" ? 2 : 3)
    }
}
