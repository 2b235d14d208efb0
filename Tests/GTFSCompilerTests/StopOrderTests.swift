import Foundation
import TestKit
import TestSupport
import TransitSQLite
import XCTest

@testable import GTFSCompiler

/// Stops take their ids along a Hilbert curve over the map (`StopOrder`): checked against
/// the curve's recursive definition and its defining property (each cell next to the one
/// before it), and on compiled feeds against an order worked out here from the stops'
/// coordinates.
final class StopOrderTests: XCTestCase {
    /// The Hilbert curve over a square of `side` x `side` cells by its recursive
    /// definition: the quadrants lower left, upper left, upper right, lower right, each
    /// walked as a curve of half the side, the first transposed and the last
    /// anti-transposed so that each enters next to where the one before it left.
    static func hilbert(_ x: Int, _ y: Int, side: Int) -> Int {
        if side == 1 { return 0 }
        let half = side / 2
        let (lx, ly) = (x % half, y % half)
        switch (x >= half, y >= half) {
        case (false, false): return hilbert(ly, lx, side: half)
        case (false, true): return half * half + hilbert(lx, ly, side: half)
        case (true, true): return 2 * half * half + hilbert(lx, ly, side: half)
        case (true, false): return 3 * half * half + hilbert(half - 1 - ly, half - 1 - lx, side: half)
        }
    }

    /// The stop_ids of the bundle at `path` in the order they should take ids: by the
    /// curve's index of their cell on a grid of 2^24 x 2^24 over the Earth (own
    /// coordinates, else the parent's, else the grandparent's; none: last), then by
    /// stop_id's bytes.
    static func mapOrder(_ path: String) throws -> [String] {
        let db = try SQLiteDatabase(path: path, writable: false)
        let q = try db.prepare("SELECT sid, stop_id, lat_e7, lon_e7, parent_sid FROM stops")
        var rows: [Int: (id: String, lat: Int?, lon: Int?, parent: Int?)] = [:]
        while try q.step() { rows[q.int(0)] = (q.string(1), q.optionalInt(2), q.optionalInt(3), q.optionalInt(4)) }
        let side = 1 << 24
        func key(_ sid: Int) -> Int {
            var row = rows[sid]!
            for _ in 0..<2 where row.lat == nil {
                guard let parent = row.parent, let up = rows[parent] else { break }
                row = up
            }
            guard let lat = row.lat, let lon = row.lon else { return Int.max }
            let x = Int(((Double(lon) / 1e7 + 180) / 360 * Double(side)).rounded(.down))
            let y = Int(((Double(lat) / 1e7 + 90) / 180 * Double(side)).rounded(.down))
            return hilbert(min(x, side - 1), min(y, side - 1), side: side)
        }
        let keyed = rows.keys.map { (key: key($0), id: rows[$0]!.id) }
        return keyed.sorted { $0.key != $1.key ? $0.key < $1.key : Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }.map(
            \.id)
    }

    func testTheCurveVisitsEveryCellOnceEachNextToTheOneBefore() {
        for bits in 1...6 {
            let side = 1 << bits
            var cellAt = [(x: Int, y: Int)?](repeating: nil, count: side * side)
            for x in 0..<side {
                for y in 0..<side {
                    let index = Int(StopOrder.hilbertIndex(x: UInt64(x), y: UInt64(y), bits: bits))
                    XCTAssertEqual(index, Self.hilbert(x, y, side: side), "\(bits) bits: \(x), \(y)")
                    XCTAssertNil(cellAt[index], "\(bits) bits: index \(index) twice")
                    cellAt[index] = (x, y)
                }
            }
            for i in 1..<(side * side) {
                let (a, b) = (cellAt[i - 1]!, cellAt[i]!)
                XCTAssertEqual(abs(a.x - b.x) + abs(a.y - b.y), 1, "\(bits) bits: index \(i - 1) to \(i)")
            }
        }
        // The grid the compiler uses, at seeded random cells.
        let seed = SplitMix64.testSeed(2026_1129)
        var generator = SplitMix64(state: seed)
        for _ in 0..<2_000 {
            let (x, y) = (Int.random(in: 0..<(1 << 24), using: &generator), Int.random(in: 0..<(1 << 24), using: &generator))
            XCTAssertEqual(
                Int(StopOrder.hilbertIndex(x: UInt64(x), y: UInt64(y))), Self.hilbert(x, y, side: 1 << 24), "seed \(seed): \(x), \(y)")
        }
    }

    /// The grid's corners and edges (the poles, the antimeridian) fall in its outermost
    /// cells: the same index as the curve's definition gives them, no overflow.
    func testTheEdgesOfTheMapAreTheGridsOuterCells() {
        let last = (1 << 24) - 1
        let corners = [(-90.0, -180.0, 0, 0), (90, 180, last, last), (-90, 180, last, 0), (90, -180, 0, last), (0, 0, 1 << 23, 1 << 23)]
        for (latitude, longitude, x, y) in corners {
            XCTAssertEqual(
                Int(StopOrder.key(latitude: latitude, longitude: longitude)), Self.hilbert(x, y, side: 1 << 24), "\(latitude), \(longitude)"
            )
        }
    }

    func testStopsTakeIdsAlongTheMapThenByTextWithNodesBesideTheirStation() throws {
        // S1-S3 (the minimal feed's trips) far apart; a station, its platform at the same
        // place and a node without coordinates; two stops with no coordinates at all.
        let result = TestSupport.compile([
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            S1,One,48.58,7.75,0,
            S2,Two,-33.86,151.21,0,
            S3,Three,40.71,-74.00,0,
            B_STATION,Station,48.5801,7.7502,1,
            A_PLATFORM,Platform,48.5801,7.7502,0,B_STATION
            N_NODE,Node,,,3,B_STATION
            C_LOST,Lost,,,0,
            0_LOST,Lost too,,,0,
            S0,Near one,48.5805,7.7507,0,

            """
        ])
        let bundle = try XCTUnwrap(result.bundle, "\(result.log.diagnostics)")
        let order = try TestSupport.rows(bundle, "SELECT stop_id FROM stops ORDER BY sid")
        XCTAssertEqual(order, try Self.mapOrder(bundle))
        XCTAssertEqual(Array(order.suffix(2)), ["0_LOST", "C_LOST"], "no coordinates: last, by text")
        let station = try XCTUnwrap(order.firstIndex(of: "A_PLATFORM"))
        XCTAssertEqual(Array(order[station..<(station + 3)]), ["A_PLATFORM", "B_STATION", "N_NODE"], "one place: by text")
        // The five stops within 100 m of each other follow one another.
        let near = ["S1", "S0", "A_PLATFORM", "B_STATION", "N_NODE"].compactMap { order.firstIndex(of: $0) }
        XCTAssertEqual(near.max()! - near.min()!, 4, "\(order)")
    }
}
