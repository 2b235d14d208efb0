import Foundation
import TestKit
import TestSupport
import XCTest

@testable import TransitRuntime

/// The walk lists are kept once when nothing makes them one-way: a bundle without
/// transfers.txt rules plans both directions (depart-at and its latest-departure pass, and
/// arrive-by) on one transfer graph; with rules the mirror has its own (a rule A -> B is
/// listed at B there), and the answers are those of the hand-made cases either way.
final class TransferGraphSharingTests: XCTestCase {
    private func bundle(transfers: String?) throws -> TransitBundle {
        var files = TestFeeds.journeys
        files["transfers.txt"] = transfers
        return try TransitBundle(path: try XCTUnwrap(TestSupport.compile(files).bundle))
    }

    private func key(mirrored: Bool) -> TransferGraphKey {
        let options = JourneyOptions()
        return TransferGraphKey(
            mirrored: mirrored, changeTime: Int(options.changeTime), walkingSpeed: options.walkingSpeed,
            transferDistance: options.transferDistance)
    }

    private func plan(_ b: TransitBundle) throws -> [[String]] {
        let depart = try b.journeys(from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T07:55"))
        let arrive = try b.journeys(from: .stop("A"), to: .stop("D"), arrivingBy: try QueryTime.parse("2026-03-10T08:30"))
        return (depart + arrive).map { $0.legs.map { $0.boarding?.tripID ?? "walk" } }
    }

    func testWithoutRulesBothDirectionsShareOneGraph() throws {
        let b = try bundle(transfers: nil)
        // JourneyTests: R1a, a 22 m walk to B2, R4a; or R3a alone; arriving by 08:30 the same change.
        XCTAssertEqual(try plan(b), [["R1a", "walk", "R4a"], ["R3a"], ["R1a", "walk", "R4a"]])
        XCTAssertTrue(b.journeyCaches.transferGraphs.contains(key(mirrored: false)))
        XCTAssertFalse(b.journeyCaches.transferGraphs.contains(key(mirrored: true)), "the mirror reuses the forward graph")
    }

    func testWithRulesTheMirrorHasItsOwnGraph() throws {
        // B -> B2 forbidden: the change is made at B itself, to R2a (both directions).
        let b = try bundle(transfers: "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nB,B2,3,\n")
        XCTAssertEqual(try plan(b), [["R1a", "R2a"], ["R3a"], ["R1a", "R2a"]])
        XCTAssertTrue(b.journeyCaches.transferGraphs.contains(key(mirrored: false)))
        XCTAssertTrue(b.journeyCaches.transferGraphs.contains(key(mirrored: true)))
    }

    /// τ is kept in 16 bits an edge; a longer one (a transfers.txt time of over 18 hours)
    /// keeps its seconds, after the stop's shorter ones.
    func testATransferOfOverEighteenHoursKeepsItsSeconds() throws {
        let b = try bundle(transfers: "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nB,B2,2,70000\nB2,B,2,65535\n")
        let network = try b.pool.with { db in try RoutingNetwork(db: db) }
        let graph = try TransferGraph(
            TransferTimes(network: network, footpaths: TransferTimes.footpaths(network, within: 400), changeTime: 120, walkingSpeed: 1.2))
        var long: [Int] = []
        for sid in 0..<network.stopCount {
            let edges = Int(graph.first[sid])..<Int(graph.first[sid + 1])
            let seconds = edges.map { graph.seconds($0) }
            XCTAssertEqual(seconds, seconds.sorted(), "stop \(sid): shortest first")
            long += seconds.filter { $0 >= 65_535 }
        }
        XCTAssertEqual(long.sorted(), [65_535, 70_000])
    }

    /// A stop without transfers.txt rows in a network without pathways changes at itself in
    /// the change time and walks to every served stop within the transfer distance in
    /// walk + change time (journey-semantics.md), measured here from the coordinates; a
    /// stop with rows has the edges `TransferTimes.transfers(from:into:)` works out.
    func testEveryStopsEdgesAreItsTransfers() throws {
        for rules in [nil, "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nB,B2,3,\nA,C,2,300\n"] {
            let b = try bundle(transfers: rules)
            let network = try b.pool.with { db in try RoutingNetwork(db: db) }
            XCTAssertTrue(network.pathways.isEmpty)
            let times = TransferTimes(
                network: network, footpaths: TransferTimes.footpaths(network, within: 400), changeTime: 120, walkingSpeed: 1.2)
            let graph = try TransferGraph(times)
            let served = (0..<network.stopCount).filter { network.serves($0) }
            var reached: [(sid: Int, seconds: Int)] = []
            var budget = StationPathways.graphBudget
            var edges = 0
            var withRules = 0
            for sid in served {
                var expected: [[Int]]
                if network.transferRules[Int32(sid)] == nil {
                    // Walk lengths are kept as 32-bit floats.
                    expected = [[120, sid]]
                    for to in served where to != sid && network.metres(between: sid, to) <= 400 {
                        expected.append([Int((Double(Float(network.metres(between: sid, to))) / 1.2).rounded(.up)) + 120, to])
                    }
                } else {
                    try times.transfers(from: sid, into: &reached, budget: &budget)
                    expected = reached.map { [$0.seconds, $0.sid] }
                    withRules += 1
                }
                expected.sort { $0.lexicographicallyPrecedes($1) }
                let got = (Int(graph.first[sid])..<Int(graph.first[sid + 1])).map { [graph.seconds($0), Int(graph.targets[$0])] }
                XCTAssertEqual(got, expected, "stop \(sid), rules: \(rules ?? "none")")
                edges += got.count
            }
            XCTAssertGreaterThan(edges, network.stopCount)
            XCTAssertEqual(withRules > 0, rules != nil)
        }
    }

    /// Stops with many walks (a dense square of 81 stops, 35 m apart: up to 80 walks each
    /// within 400 m) have their edges by τ then sid as well, at a speed where τ spans few
    /// seconds and at one where it spans many (`TransferGraph` orders such lists by
    /// counting them per τ, or by sorting them), with the walks as the compiler stored them
    /// and as the grid finds them: against the same plain reading as above.
    func testStopsWithManyWalksHaveTheirEdgesInOrder() throws {
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 0..<81 {
            // 35 m steps: 0.000315 degrees of latitude, 0.00047 of longitude at 48 N.
            stops += "S\(i),Square \(i),\(48.0 + Double(i / 9) * 0.000315),\(7.0 + Double(i % 9) * 0.00047)\n"
            let minute = 10 + i / 2
            times += "T1,08:\(minute):00,08:\(minute):00,S\(i),\(i + 1)\n"
        }
        let files: [String: String?] = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Paris\n",
            "stops.txt": stops, "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
            "calendar_dates.txt": "service_id,date,exception_type\nD,20260310,1\n",
            "trips.txt": "route_id,service_id,trip_id\nR,D,T1\n", "stop_times.txt": times,
        ]
        let b = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(files).bundle))
        let network = try b.pool.with { db in try RoutingNetwork(db: db) }
        XCTAssertEqual(network.storedWalks?.metres, 400)
        // Within 400 m the stored walks are measured; beyond, the grid finds them.
        for distance in [400.0, 401] {
            for speed in [1.2, 0.2] {
                let graph = try TransferGraph(
                    TransferTimes(
                        network: network, footpaths: TransferTimes.footpaths(network, within: distance), changeTime: 120,
                        walkingSpeed: speed))
                var most = 0
                for sid in 0..<network.stopCount where network.serves(sid) {
                    var expected = [[120, sid]]
                    for to in 0..<network.stopCount where to != sid && network.serves(to) && network.metres(between: sid, to) <= distance {
                        expected.append([Int((Double(Float(network.metres(between: sid, to))) / speed).rounded(.up)) + 120, to])
                    }
                    expected.sort { $0.lexicographicallyPrecedes($1) }
                    let got = (Int(graph.first[sid])..<Int(graph.first[sid + 1])).map { [graph.seconds($0), Int(graph.targets[$0])] }
                    XCTAssertEqual(got, expected, "stop \(sid) at \(speed) m/s within \(distance) m")
                    most = max(most, got.count)
                }
                XCTAssertGreaterThan(most, 64, "some stops have more edges than are put in order by insertion")
            }
        }
    }
}
