import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

@testable import GTFSCompiler

/// Shapes: the packed columns, the thinning, and what a compiled feed answers for a trip's
/// and a route's lines.
final class ShapeTests: XCTestCase {
    func testShapeBlobRoundTripsAnyPointsAndRefusesDamage() throws {
        let seed = SplitMix64.testSeed(9_301)
        var random = SplitMix64(state: seed)
        for round in 0..<200 {
            var points: [ShapeBlob.Point] = []
            var lat = Int.random(in: -90_000_000...90_000_000, using: &random)
            var lon = Int.random(in: -180_000_000...180_000_000, using: &random)
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                points.append(.init(latE6: lat, lonE6: lon))
                // Mostly steps of metres, now and then a jump across the globe.
                let jump = Int.random(in: 0..<50, using: &random) == 0
                let step = jump ? 100_000_000 : Int([10, 1_000, 100_000][Int.random(in: 0..<3, using: &random)])
                lat = min(90_000_000, max(-90_000_000, lat + Int.random(in: -step...step, using: &random)))
                lon = min(180_000_000, max(-180_000_000, lon + Int.random(in: -(2 * step)...(2 * step), using: &random)))
            }
            let bytes = ShapeBlob.encode(points)
            XCTAssertEqual(try ShapeBlob.decode(bytes), points, "seed \(seed) round \(round)")
            if bytes.count > 1 {
                // A cut value is damage, never a crash (a cut in the last byte's padding may still decode).
                let cut = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
                if let decoded = try? ShapeBlob.decode(cut) { XCTAssertEqual(decoded, points, "seed \(seed) round \(round)") }
            }
        }
        XCTAssertThrowsError(try ShapeBlob.decode([0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0]))
    }

    func testShapeEdgesBlobRoundTrips() throws {
        let steps: [ShapeEdgesBlob.Step] = [.init(eid: 5, reversed: false), .init(eid: 2, reversed: true), .init(eid: 900, reversed: true)]
        XCTAssertEqual(try ShapeEdgesBlob.decode(ShapeEdgesBlob.encode(steps)), steps)
        // An eid below 1 is damage.
        XCTAssertThrowsError(try ShapeEdgesBlob.decode(ShapeEdgesBlob.encode([.init(eid: 0, reversed: false)])))
    }

    /// Every input point within the tolerance of the thinned line (measured by the tests' own
    /// spherical formulas), points on a meridian dropped, a wiggle larger than the tolerance kept.
    func testThinningKeepsEveryPointWithinTheTolerance() throws {
        let seed = SplitMix64.testSeed(77)
        var random = SplitMix64(state: seed)
        for round in 0..<100 {
            var points: [ShapeBlob.Point] = []
            var lat = Double.random(in: -60...60, using: &random)
            var lon = Double.random(in: -179...179, using: &random)
            var heading = Double.random(in: 0..<(2 * .pi), using: &random)
            for _ in 0..<400 {
                points.append(.init(latE6: ShapeBlob.e6(lat), lonE6: ShapeBlob.e6(lon)))
                heading += Double.random(in: -0.2...0.2, using: &random)
                let metres = Double.random(in: 1...60, using: &random)
                lat += metres * cos(heading) / 111_195
                lon += metres * sin(heading) / (111_195 * cos(lat * .pi / 180))
            }
            let kept = ShapeSimplifier.simplify(points)
            XCTAssertEqual(kept.first, points.first)
            XCTAssertEqual(kept.last, points.last)
            XCTAssertLessThan(kept.count, points.count, "seed \(seed) round \(round)")
            let line = kept.map { (lat: Double($0.latE6) / 1e6, lon: Double($0.lonE6) / 1e6) }
            var segment = 0
            for p in points {
                let found = PlainDistance.metres(
                    Double(p.latE6) / 1e6, Double(p.lonE6) / 1e6, toLine: line, near: segment, within: ShapeSimplifier.tolerance)
                XCTAssertLessThanOrEqual(found.metres, ShapeSimplifier.tolerance + 0.001, "seed \(seed) round \(round)")
                segment = found.segment
            }
        }
        let meridian = (0...50).map { ShapeBlob.Point(latE6: 48_000_000 + $0 * 1_000, lonE6: 7_000_000) }
        XCTAssertEqual(ShapeSimplifier.simplify(meridian), [meridian[0], meridian[50]])
        // 2.2 m off the meridian (30 units of 1e-6 degree of longitude at 48°N): kept, with
        // its neighbours (2.1 m off the lines from the ends to it).
        var wiggle = meridian
        wiggle[25].lonE6 += 30
        XCTAssertEqual(ShapeSimplifier.simplify(wiggle), [meridian[0], meridian[24], wiggle[25], meridian[26], meridian[50]])
    }

    static let shapeFeed = TestFeeds.shapes

    func testTripsAndRoutesAnswerTheirLines() throws {
        let (log, path) = TestSupport.compile(Self.shapeFeed)
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        let sh1 = [(48.0, 7.0), (48.005, 7.002), (48.011, 7.013), (48.02, 7.02)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
        let sh2 = Array(sh1.reversed()) + [Coordinate(latitude: 47.99, longitude: 6.995)]
        XCTAssertEqual(try bundle.shape(trip: "T1"), Shape(feedID: "f", shapeID: "SH1", tripID: nil, points: sh1))
        XCTAssertEqual(try bundle.shape(trip: "T5").points, sh1)
        XCTAssertEqual(try bundle.shape(trip: "T3"), Shape(feedID: "f", shapeID: "SH2", tripID: nil, points: sh2))
        let stops12 = [Coordinate(latitude: 48.0, longitude: 7.0), Coordinate(latitude: 48.01, longitude: 7.01)]
        XCTAssertEqual(try bundle.shape(trip: "T2"), Shape(feedID: "f", shapeID: nil, tripID: "T2", points: stops12))
        XCTAssertEqual(try bundle.shape(trip: "T4"), Shape(feedID: "f", shapeID: nil, tripID: "T4", points: stops12))
        // T2 and T4 share a stop pattern: one line through its stops, named by the first trip.
        XCTAssertEqual(try bundle.shapes(route: "R").map(\.id), ["f/shape:SH1", "f/shape:SH2", "f/trip:T2"])
        XCTAssertThrowsError(try bundle.shapes(route: "NOPE")) { XCTAssertEqual($0 as? TransitError, .unknownRoute("NOPE")) }

        let problems = log.record.diagnostics.map { "\($0.code.rawValue) \($0.file ?? "") \($0.line ?? 0) \($0.value ?? "")" }
        XCTAssertTrue(problems.contains("W_UNKNOWN_REF trips.txt 5 MISSING"), "\(problems)")
        XCTAssertTrue(problems.contains("W_SHAPE_POINT shapes.txt 6 3"), "\(problems)")
        XCTAssertTrue(problems.contains("W_SHAPE_POINT shapes.txt 7 95"), "\(problems)")
    }

    /// SH1 and SH2 share their stretch (SH2 backwards): it is stored once.
    func testSharedStretchesAreStoredOnce() throws {
        let (log, path) = TestSupport.compile(Self.shapeFeed)
        let db = try SQLiteDatabase(path: try XCTUnwrap(path, log.summaryText()), writable: false)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM shapes"), 2)
        // SH1's stretch, and SH2's tail past SH1's start, in one row.
        let row = try db.prepare("SELECT points FROM shape_edges")
        XCTAssertTrue(try row.step())
        let edges = try ShapeBlob.decodeRow(row.blob(0))
        XCTAssertEqual((0..<edges.count).map { edges.range(ofEdge: $0).count }, [4, 2])
        XCTAssertFalse(try row.step())
    }
}
