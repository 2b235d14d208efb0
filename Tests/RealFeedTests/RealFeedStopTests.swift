import Foundation
import TestKit
import TransitRuntime
import XCTest

/// The stop tables of schema 5 on every real feed, against stops.txt read plainly
/// (`ReferenceTimetable.table`): nearby stops against a haversine over every stop, and
/// every stop id found by its text.
final class RealFeedStopTests: XCTestCase {
    /// stops.txt's stops with usable coordinates (in range, not the 0,0 placeholder), first
    /// row of an id wins, as departures-semantics.md and the diagnostics say.
    static func referenceStops(_ name: String) throws -> (ids: [String], located: [(id: String, lat: Double, lon: Double)]) {
        let rows = try ReferenceTimetable.table("stops.txt", in: RealFeeds.folder.appendingPathComponent(name + ".zip").path)
        var seen: Set<String> = []
        var ids: [String] = []
        var located: [(String, Double, Double)] = []
        for row in rows {
            guard let id = row["stop_id"], !id.isEmpty, seen.insert(id).inserted else { continue }
            ids.append(id)
            let lat = Double(row["stop_lat"] ?? "")
            let lon = Double(row["stop_lon"] ?? "")
            if let lat, let lon, abs(lat) <= 90, abs(lon) <= 180, !(lat == 0 && lon == 0) { located.append((id, lat, lon)) }
        }
        return (ids, located)
    }

    func testNearbyStopsAgreeWithADistanceOverEveryStopOfEveryFeed() throws {
        try RealFeeds.requireShared()
        let seed = SplitMix64.testSeed(2_026)
        var random = SplitMix64(state: seed)
        for name in RealFeeds.names {
            let bundle = try RealFeeds.bundle(name).bundle
            let stops = try Self.referenceStops(name).located
            XCTAssertFalse(stops.isEmpty, name)
            for _ in 0..<40 {
                let base = stops[Int.random(in: 0..<stops.count, using: &random)]
                let lat = min(90, max(-90, base.lat + Double.random(in: -0.005...0.005, using: &random)))
                let lon = min(180, max(-180, base.lon + Double.random(in: -0.005...0.005, using: &random)))
                let radius = [50.0, 400, 2_000, 10_000][Int.random(in: 0..<4, using: &random)]
                var expected: Set<String> = []
                var onTheEdge: Set<String> = []
                for stop in stops {
                    let d = PlainDistance.metres(lat, lon, stop.lat, stop.lon)
                    if abs(d - radius) < 0.05 { onTheEdge.insert(stop.id) } else if d < radius { expected.insert(stop.id) }
                }
                let found = try bundle.stops(near: Coordinate(latitude: lat, longitude: lon), within: radius, limit: 100_000)
                XCTAssertEqual(
                    Set(found.map(\.stopID)).subtracting(onTheEdge), expected, "seed \(seed): \(name) \(lat),\(lon) within \(radius) m")
            }
        }
    }

    func testEveryStopIdOfEveryFeedIsFound() throws {
        try RealFeeds.requireShared()
        for name in RealFeeds.names {
            let bundle = try RealFeeds.bundle(name).bundle
            let feed = try XCTUnwrap(try bundle.info().feeds.first, name)
            let day = try XCTUnwrap(feed.firstServiceDate, name).description
            let at = try QueryTime.parse(day + "T12:00")
            for id in try Self.referenceStops(name).ids {
                do {
                    _ = try bundle.departures(from: id, at: at, within: 1 * 60, limit: 1)
                } catch TransitError.unknownStop(let unknown) {
                    XCTFail("\(name): stop \(unknown) is in stops.txt but not found")
                } catch {
                    // One feed, a day inside its coverage: any stop (an entrance, a node, a
                    // station) answers, with no departures where it has none.
                    XCTFail("\(name): stop \(id) answered \(error)")
                }
            }
            XCTAssertThrowsError(try bundle.departures(from: "no such stop \u{1F68F}", at: at, within: 1 * 60, limit: 1), name) {
                XCTAssertEqual($0 as? TransitError, .unknownStop("no such stop \u{1F68F}"))
            }
        }
    }
}
