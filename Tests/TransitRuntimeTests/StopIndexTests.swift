import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

@testable import GTFSCompiler

/// The stop tables of a bundle: the grid index behind `stopsNear`, the id groups behind
/// lookups by text, and what they cost per stop.
final class StopIndexTests: XCTestCase {
    /// A generated stop: its text id and coordinates as written in stops.txt (7 decimals).
    struct GeneratedStop {
        var id: String
        var lat: Double
        var lon: Double
    }

    /// Stops scattered around places on both sides of the equator and of the prime meridian
    /// (and across both), with ids alike the way feeds write them, plus S1-S3 of the
    /// minimal feed.
    static func generatedStops(count: Int, random: inout SplitMix64) -> [GeneratedStop] {
        let centres: [(Double, Double)] = [(48.58, 7.75), (-41.44, 147.13), (0.004, -0.003), (-33.45, -70.66), (64.14, -21.94)]
        var stops = [
            GeneratedStop(id: "S1", lat: 48.0, lon: 7.0), GeneratedStop(id: "S2", lat: 48.01, lon: 7.01),
            GeneratedStop(id: "S3", lat: 48.02, lon: 7.02),
        ]
        for i in 0..<count {
            let (lat, lon) = centres[i % centres.count]
            // Up to about 0.1 degree away; coordinates as a feed writes them, seven decimals.
            let dLat = Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 10_000_000
            let dLon = Double(Int.random(in: -1_500_000...1_500_000, using: &random)) / 10_000_000
            let id = i % 3 == 0 ? "OCE\(870_000 + i * 7)" : i % 3 == 1 ? "\(100_000 + i)" : "S\(i)_\(i % 2)"
            stops.append(GeneratedStop(id: id, lat: lat + dLat, lon: lon + dLon))
        }
        return stops
    }

    static func stopsFile(_ stops: [GeneratedStop], name: (Int) -> String) -> String {
        "stop_id,stop_name,stop_lat,stop_lon\n"
            + stops.enumerated().map {
                "\($0.element.id),\(name($0.offset)),\(String(format: "%.7f", $0.element.lat)),\(String(format: "%.7f", $0.element.lon))"
            }
            .joined(separator: "\n") + "\n"
    }

    /// Every stop within the radius, and no other, whatever the hemisphere, cell edge or
    /// radius: against a plain distance over every stop.
    func testStopsNearAgreesWithADistanceOverEveryStop() throws {
        let seed = SplitMix64.testSeed(4_117)
        var random = SplitMix64(state: seed)
        let stops = Self.generatedStops(count: 3_000, random: &random)
        let (log, path) = TestSupport.compile(["stops.txt": Self.stopsFile(stops) { "Stop \($0)" }])
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        var checked = 0
        for _ in 0..<300 {
            let base = stops[Int.random(in: 0..<stops.count, using: &random)]
            let lat = base.lat + Double.random(in: -0.02...0.02, using: &random)
            let lon = base.lon + Double.random(in: -0.02...0.02, using: &random)
            let radius = [30, 300, 1_000, 5_000, 20_000][Int.random(in: 0..<5, using: &random)]
            let found = try bundle.stops(near: Coordinate(latitude: lat, longitude: lon), within: Double(radius), limit: 10_000)
            var expected: [String: Double] = [:]
            var onTheEdge: Set<String> = []
            for stop in stops {
                let d = PlainDistance.metres(lat, lon, stop.lat, stop.lon)
                if abs(d - Double(radius)) < 0.001 { onTheEdge.insert(stop.id) } else if d < Double(radius) { expected[stop.id] = d }
            }
            let got = Set(found.map(\.stopID)).subtracting(onTheEdge)
            XCTAssertEqual(got, Set(expected.keys), "seed \(seed): \(lat),\(lon) within \(radius) m")
            for stop in found {
                if let d = expected[stop.stopID] { XCTAssertEqual(try XCTUnwrap(stop.distanceMetres), d, accuracy: 0.01, "seed \(seed)") }
            }
            XCTAssertEqual(found.map { $0.distanceMetres ?? -1 }, found.map { $0.distanceMetres ?? -1 }.sorted(), "nearest first")
            checked += expected.count
        }
        XCTAssertGreaterThan(checked, 10_000, "the queries found stops")
        // Coordinates come back as the feed wrote them.
        let sample = stops[stops.count / 2]
        let back = try XCTUnwrap(
            try bundle.stops(near: Coordinate(latitude: sample.lat, longitude: sample.lon), within: 1).first { $0.stopID == sample.id })
        XCTAssertEqual(back.latitude, Double(String(format: "%.7f", sample.lat)))
        XCTAssertEqual(back.longitude, Double(String(format: "%.7f", sample.lon)))
    }

    /// The grid cell SQLite indexes is the cell a query asks for, everywhere on the globe.
    func testTheIndexedCellIsTheCellAQueryComputes() throws {
        let seed = SplitMix64.testSeed(31)
        var random = SplitMix64(state: seed)
        let db = try SQLiteDatabase(path: ":memory:", writable: true)
        let q = try db.prepare("SELECT \(StopGrid.cellSQL) FROM (SELECT ?1 AS lat_e7, ?2 AS lon_e7)")
        for i in 0..<20_000 {
            let edges = [-900_000_000, -80_001, -80_000, -20_000, -1, 0, 1, 19_999, 80_000, 900_000_000]
            let lat = i < 100 ? edges[i % 10] : Int.random(in: -900_000_000...900_000_000, using: &random)
            let lon = i < 100 ? edges[i / 10] * 2 : Int.random(in: -1_800_000_000...1_800_000_000, using: &random)
            q.bind([lat, lon])
            XCTAssertTrue(try q.step())
            XCTAssertEqual(q.int(0), StopGrid.cell(latE7: lat, lonE7: lon), "seed \(seed): \(lat), \(lon)")
            XCTAssertLessThan(abs(q.int(0)), 1 << 31, "four bytes")
            let cell = q.int(0)
            // The box around a point holds the point's cell.
            let box = StopGrid.cellRanges(
                minLat: StopGrid.degrees(lat) - 0.001, maxLat: StopGrid.degrees(lat) + 0.001, minLon: StopGrid.degrees(lon) - 0.001,
                maxLon: StopGrid.degrees(lon) + 0.001)
            XCTAssertTrue(box.contains { $0.contains(cell) }, "seed \(seed): \(lat), \(lon)")
        }
    }

    /// Every stop is found by its text id and nothing else is, with ids in text order and
    /// with ids kept by --base (no longer in text order).
    func testEveryStopIsFoundByItsIdAndNoOtherTextIs() throws {
        var random = SplitMix64(state: SplitMix64.testSeed(90))
        let stops = Self.generatedStops(count: 2_000, random: &random)
        let feed = Self.stopsFile(stops) { "Stop \($0)" }
        let (log, path) = TestSupport.compile(["stops.txt": feed])
        let first = try XCTUnwrap(path, log.summaryText())
        // A second version with stops added between the others, compiled on the first.
        let added = stops + (0..<300).map { GeneratedStop(id: "\(100_000 + $0)a", lat: 10, lon: 10) }
        let directory = TemporaryFolders.make()
        var files = TestSupport.minimalFeed
        files["stops.txt"] = Self.stopsFile(added) { "Stop \($0)" }
        let next = TestSupport.writeFeed(files, in: directory)
        let based = directory.appendingPathComponent("based.db").path
        var request = CompileRequest(feeds: [.init(name: "f", path: next)], outputPath: based)
        request.basePath = first
        _ = try Compiler.compile(request, log: DiagnosticLog())
        for (path, all) in [(first, stops), (based, added)] {
            let bundle = try TransitBundle(path: path)
            let at = try QueryTime.parse("2026-03-30T08:00")
            // Looked up, then kept (found and missing ids alike), then looked up again after a purge.
            for pass in ["first", "kept", "after purge"] {
                if pass == "after purge" { bundle.purge() }
                for stop in all {
                    XCTAssertNoThrow(try bundle.departures(from: stop.id, at: at, within: 60 * 60, limit: 1), stop.id)
                    XCTAssertEqual(try bundle.stop(stop.id).stopID, stop.id, pass)
                }
                for missing in ["OCE", "0", "100000b", "S2_", "zzz", "", "S4", "OCE870000x", "S10_1"] {
                    XCTAssertThrowsError(try bundle.departures(from: missing, at: at, within: 60 * 60, limit: 1), "\(missing), \(pass)") {
                        XCTAssertEqual($0 as? TransitError, .unknownStop(missing))
                    }
                }
            }
        }
    }

    /// The shape of a feed whose bundle took 2.0 MB in schema 4 (bench/stops_feed.py): 8,587
    /// stops, the two directions of a street stop sharing its name, 24,705 stop times.
    /// Stops, their ids, the spatial and the full-text index take at most 100 bytes a stop.
    func testStopsCostAtMostOneHundredBytesEach() throws {
        var random = SplitMix64(state: SplitMix64.testSeed(8_587))
        let stops = Self.generatedStops(count: 8_584, random: &random)
        let words = ["Gare", "Place", "Rue", "Avenue", "Centre", "Hôpital", "Église", "Mairie", "Pont", "Collège", "Parc", "Marché"]
        let streets = [
            "Victor Hugo", "de la République", "Jean Jaurès", "des Lilas", "du Moulin", "Pasteur", "de l'Europe", "Saint-Pierre",
        ]
        let name = { (i: Int) in
            "\(words[i / 2 % words.count]) \(streets[(i / 24) % streets.count])" + (i / 2 >= 96 ? " \(i / 192)" : "")
        }
        var times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
        var trips = ["route_id,service_id,trip_id"]
        for t in 0..<(24_705 / 15) {
            trips.append("R,D,T\(t)")
            for s in 0..<15 {
                let clock = String(format: "%02d:%02d:00", 6 + t % 16, s * 2)
                times.append("T\(t),\(clock),\(clock),\(stops[(t * 7 + s * 131) % stops.count].id),\(s + 1)")
            }
        }
        let (log, path) = TestSupport.compile([
            "stops.txt": Self.stopsFile(stops, name: name), "trips.txt": trips.joined(separator: "\n") + "\n",
            "stop_times.txt": times.joined(separator: "\n") + "\n",
        ])
        let db = try SQLiteDatabase(path: try XCTUnwrap(path, log.summaryText()), writable: false)
        let bytes = try XCTUnwrap(
            try db.scalarInt(
                """
                SELECT sum(pgsize) FROM dbstat
                WHERE name IN ('stops', 'stops_by_parent', 'stops_by_cell', 'stop_ids') OR name LIKE 'stops_fts%'
                """))
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM stops"), stops.count)
        XCTAssertLessThanOrEqual(Double(bytes) / Double(stops.count), 100, "\(bytes) bytes for \(stops.count) stops")
    }

    /// Long service ids cost a few bytes each, not a dictionary row and its index.
    func testLongServiceIdsAreKeptCompactly() throws {
        let count = 14_141
        var calendar = ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date"]
        var trips = ["route_id,service_id,trip_id"]
        for s in 0..<count {
            let id = "SERVICE_\(String(format: "%05d", s))_WEEKDAY_PATTERN_\(String(format: "%08d", (s * 7_919) % 100_000_000))"
            calendar.append("\(id),1,1,1,1,1,0,0,20260101,20261231")
            if s % 100 == 0 { trips.append("R,\(id),T\(s)") }
        }
        trips.append("R,\(calendar[1].prefix { $0 != "," }),T1")
        trips.append("R,\(calendar[2].prefix { $0 != "," }),T2")
        let (log, path) = TestSupport.compile([
            "calendar.txt": calendar.joined(separator: "\n") + "\n", "trips.txt": trips.joined(separator: "\n") + "\n",
        ])
        let db = try SQLiteDatabase(path: try XCTUnwrap(path, log.summaryText()), writable: false)
        let bytes = try XCTUnwrap(try db.scalarInt("SELECT sum(pgsize) FROM dbstat WHERE name = 'service_blocks'"))
        XCTAssertLessThanOrEqual(Double(bytes) / Double(count), 12, "\(bytes) bytes for \(count) service ids of 38 bytes")
    }
}
