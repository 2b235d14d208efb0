import BundleFormat
import Foundation
import TestKit
import TransitRuntime
import TransitSQLite
import XCTest

/// Shapes on every real feed that has them, against shapes.txt and trips.txt read plainly
/// (`ReferenceTimetable.table`) and distances by the tests' own spherical formulas.
final class RealFeedShapeTests: XCTestCase {
    /// Each shape's usable points in shape_pt_sequence order (the first row of a sequence
    /// wins; rows with a missing, out-of-range or 0,0 coordinate are not points).
    static func referenceShapes(_ zip: String) throws -> [String: [(lat: Double, lon: Double)]] {
        var rows: [String: [(sequence: Int, row: Int, lat: Double, lon: Double)]] = [:]
        for (index, row) in try ReferenceTimetable.table("shapes.txt", in: zip).enumerated() {
            let field = { (key: String) in row[key] ?? "" }
            guard let lat = Double(field("shape_pt_lat")), let lon = Double(field("shape_pt_lon")),
                let sequence = Int(field("shape_pt_sequence")), sequence >= 0, abs(lat) <= 90, abs(lon) <= 180,
                !(lat == 0 && lon == 0)
            else { continue }
            rows[field("shape_id"), default: []].append((sequence, index, lat, lon))
        }
        return rows.mapValues { points in
            var seen = Set<Int>()
            return points.sorted { ($0.sequence, $0.row) < ($1.sequence, $1.row) }.filter { seen.insert($0.sequence).inserted }
                .map { ($0.lat, $0.lon) }
        }
    }

    /// Every trip the bundle kept names the shape trips.txt gives it (or, without one, is
    /// drawn through its stops), and every point of every shape lies within 1 m of the line
    /// the bundle returns.
    func testEveryShapePointLiesWithinAMetreOfItsLine() throws {
        try RealFeeds.requireShared()
        var feedsWithShapes = 0
        for name in RealFeeds.names {
            let zip = RealFeeds.folder.appendingPathComponent(name + ".zip").path
            let shapes = try Self.referenceShapes(zip)
            guard !shapes.isEmpty else { continue }
            feedsWithShapes += 1
            let bundle = try RealFeeds.bundle(name).bundle
            var checkedShapes = Set<String>()
            var worst = 0.0
            var points = 0
            for trip in try ReferenceTimetable.table("trips.txt", in: zip) {
                let tripID = trip["trip_id"] ?? ""
                let shapeID = trip["shape_id"] ?? ""
                let line: Shape
                do { line = try bundle.shape(trip: tripID) } catch TransitError.unknownTrip { continue }
                guard let reference = shapes[shapeID], reference.count >= 2 else {
                    XCTAssertNil(line.shapeID, "\(name) trip \(tripID)")
                    XCTAssertEqual(line.tripID, tripID, "\(name)")
                    continue
                }
                XCTAssertEqual(line.shapeID, shapeID, "\(name) trip \(tripID)")
                guard checkedShapes.insert(shapeID).inserted else { continue }
                let stored = line.points.map { (lat: $0.latitude, lon: $0.longitude) }
                var segment = 0
                for p in reference {
                    // Past 0.93 m (the 0.85 m of thinning and 8 cm of rounding) every segment is searched.
                    let found = PlainDistance.metres(p.lat, p.lon, toLine: stored, near: segment, within: 0.93)
                    XCTAssertLessThanOrEqual(found.metres, 1, "\(name) shape \(shapeID) point \(p)")
                    worst = max(worst, found.metres)
                    segment = found.segment
                    points += 1
                }
            }
            XCTAssertFalse(checkedShapes.isEmpty, name)
            print("\(name): \(checkedShapes.count) shapes, \(points) points, farthest \(String(format: "%.3f", worst)) m from the line")
        }
        XCTAssertGreaterThanOrEqual(feedsWithShapes, 15)
    }

    /// Shapes add at most a quarter to the bundles of bart, kaunas and wmata (38k, 111k and
    /// 173k shape points): the pages of the shape tables against all the others.
    func testShapesAddAtMostAQuarter() throws {
        try RealFeeds.requireShared()
        for name in ["bart", "kaunas", "wmata"] {
            let bundle = try RealFeeds.bundle(name).bundle
            let db = try SQLiteDatabase(path: bundle.path, writable: false)
            let shapes = try XCTUnwrap(try db.scalarInt("SELECT sum(pgsize) FROM dbstat WHERE name IN ('shapes', 'shape_edges')"))
            let all = try XCTUnwrap(try db.scalarInt("SELECT sum(pgsize) FROM dbstat"))
            let share = Double(shapes) / Double(all - shapes)
            print("\(name): shapes \(shapes) bytes, the rest \(all - shapes): +\(String(format: "%.1f", share * 100)) %")
            XCTAssertLessThanOrEqual(share, 0.25, name)
        }
    }
}
