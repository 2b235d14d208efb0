import Foundation
import TestKit
import XCTest

@testable import TransitRuntime

/// WMATA's stations, walked along their pathways.txt: every change a journey makes between
/// two platforms of one station takes the time of an independent shortest path over the
/// file (read apart from the compiler; the edge times of journey-semantics.md, "Inside
/// stations"), and every change the planner offers between two platforms of a station,
/// for everyone and step-free, is that path's time plus the change time (WMATA marks no
/// trip wheelchair accessible, so its wheelchair journeys ride nothing: the step-free
/// changes are checked on the planner's transfers themselves).
final class RealFeedPathwayTests: XCTestCase {
    func testEveryChangeInsideAStationIsTheShortestPathOverPathwaysTxt() throws {
        try RealFeeds.requireShared()
        let zip = RealFeeds.folder.appendingPathComponent("wmata.zip").path
        let paths = try ReferencePathways(zip: zip)
        let bundle = try RealFeeds.bundle("wmata").bundle
        let network = try bundle.pool.with { db in try RoutingNetwork(db: db) }
        var sids: [String: Int] = [:]
        for stop in paths.station.keys {
            if let sid = bundle.sid(ofStop: stop, feed: "wmata") { sids[stop] = sid.int }
        }
        let served = sids.filter { network.serves($0.value) }
        var checked = (pairs: 0, stepFree: 0, refused: 0)
        for stepFree in [false, true] {
            let footpaths = TransferTimes.footpaths(network, within: 400)
            let times = TransferTimes(network: network, footpaths: footpaths, changeTime: 120, walkingSpeed: 1.2, stepFree: stepFree)
            var reached: [(sid: Int, seconds: Int)] = []
            var budget = StationPathways.graphBudget
            for (a, sa) in served.sorted(by: { $0.key < $1.key }) {
                try times.transfers(from: sa, into: &reached, budget: &budget)
                let offered = Dictionary(reached.map { ($0.sid, $0.seconds) }, uniquingKeysWith: min)
                for (b, sb) in served where b != a && paths.station[b] == paths.station[a] {
                    let expected = paths.seconds(from: a, to: b, stepFree: stepFree).map { $0 + 120 }
                    XCTAssertEqual(offered[sb], expected, "\(a) -> \(b), step-free \(stepFree)")
                    checked.pairs += 1
                    if stepFree { checked.stepFree += 1 }
                    if stepFree && expected == nil { checked.refused += 1 }
                }
            }
        }
        print(
            "wmata: \(checked.pairs) platform pairs in stations checked, \(checked.stepFree) step-free, \(checked.refused) refused step-free"
        )
        XCTAssertGreaterThan(checked.stepFree, 20)
    }

    func testChangesInsideStationsTakeThePathwaysTime() throws {
        try RealFeeds.requireShared()
        let zip = RealFeeds.folder.appendingPathComponent("wmata.zip").path
        let timetable = try ReferenceTimetable(zip: zip)
        let paths = try ReferencePathways(zip: zip)
        let bundle = try RealFeeds.bundle("wmata").bundle
        let feed = try bundle.info().feeds[0]
        let dayStart = try RealFeedFareTests.busiestDayStart(
            timetable, from: try XCTUnwrap(feed.firstServiceDate), to: try XCTUnwrap(feed.lastServiceDate))
        let platforms = timetable.byStop.keys.filter { paths.station[$0] != nil }.sorted()
        let seed = SplitMix64.testSeed(0x57_4D_41_54)
        var random = SplitMix64(state: seed)
        var changes = 0
        for q in 0..<60 {
            let from = platforms[Int(random.next() % UInt64(platforms.count))]
            let to = platforms[Int(random.next() % UInt64(platforms.count))]
            guard paths.station[from] != paths.station[to] else { continue }
            let start = dayStart + 7 * 3600 + Int(random.next() % UInt64(12 * 3600))
            let journeys = try bundle.journeys(
                from: .stop(from), to: .stop(to), departingAt: .instant(Date(timeIntervalSince1970: TimeInterval(start))))
            for journey in journeys {
                let context = "query \(q) (seed \(seed)) \(from) -> \(to) at \(start): \(journey.id)"
                for (i, leg) in journey.legs.enumerated() where leg.kind == .walk {
                    guard let a = leg.fromStopID, let b = leg.toStopID, a != b, let station = paths.station[a],
                        paths.station[b] == station
                    else { continue }
                    let expected = paths.seconds(from: a, to: b, stepFree: false)
                    XCTAssertNotNil(expected, "a change the pathways do not allow: " + context)
                    XCTAssertEqual(Int(leg.arrival.timeIntervalSince(leg.departure)), expected, context)
                    // The next ride leaves at least the walk and the change time (120 s) later.
                    if let next = journey.legs[(i + 1)...].first(where: { $0.kind == .ride }), let walked = expected {
                        XCTAssertGreaterThanOrEqual(next.departure.timeIntervalSince(leg.departure), TimeInterval(walked + 120), context)
                    }
                    changes += 1
                }
            }
        }
        print("wmata: \(changes) changes inside stations in journeys")
        XCTAssertGreaterThan(changes, 10, "the check is not vacuous")
    }
}

/// pathways.txt read apart from the compiler: a graph per station, boarding areas merged
/// into their platforms, edge times as journey-semantics.md states (traversal_time, else
/// the length at 1.2 m/s, else by mode), shortest paths by Dijkstra.
struct ReferencePathways {
    /// The station of each platform, node and entrance.
    var station: [String: String] = [:]
    private var edges: [String: [(to: String, seconds: Int, mode: Int)]] = [:]

    init(zip: String) throws {
        var parent: [String: String] = [:]
        var type: [String: Int] = [:]
        for row in try ReferenceTimetable.table("stops.txt", in: zip) {
            guard let id = row["stop_id"] else { continue }
            type[id] = Int(row["location_type"] ?? "") ?? 0
            if let p = row["parent_station"], !p.isEmpty { parent[id] = p }
        }
        func node(_ id: String) -> String { type[id] == 4 ? parent[id] ?? id : id }
        func stationOf(_ id: String) -> String? {
            guard let p = parent[id] else { return nil }
            return type[p] == 1 ? p : parent[p]
        }
        for row in try ReferenceTimetable.table("pathways.txt", in: zip) {
            guard let a = row["from_stop_id"], let b = row["to_stop_id"], let mode = Int(row["pathway_mode"] ?? "") else { continue }
            let seconds: Int
            if let time = Int(row["traversal_time"] ?? ""), time > 0 {
                seconds = time
            } else if let length = Double(row["length"] ?? "") {
                seconds = Int((length / 1.2).rounded(.up))
            } else {
                seconds = [2: 30, 4: 30, 5: 60][mode] ?? 10
            }
            let (x, y) = (node(a), node(b))
            edges[x, default: []].append((y, seconds, mode))
            if row["is_bidirectional"] == "1" && mode != 7 { edges[y, default: []].append((x, seconds, mode)) }
            for id in [a, b] { if let s = stationOf(id) { station[node(id)] = s } }
        }
    }

    /// The shortest time from `a` to `b`; step-free: no stairs (2) or escalators (4).
    func seconds(from a: String, to b: String, stepFree: Bool) -> Int? {
        var best: [String: Int] = [a: 0]
        var done = Set<String>()
        while let (node, time) = best.filter({ !done.contains($0.key) }).min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            if node == b { return time }
            done.insert(node)
            for edge in edges[node] ?? [] where !(stepFree && (edge.mode == 2 || edge.mode == 4)) {
                if time + edge.seconds < best[edge.to] ?? .max { best[edge.to] = time + edge.seconds }
            }
        }
        return nil
    }
}

extension RealFeedPathwayTests {
    /// Every wmata stop with a level_id answers with levels.txt's index and name, read apart.
    func testEveryStopAnswersWithItsLevel() throws {
        try RealFeeds.requireShared()
        let zip = RealFeeds.folder.appendingPathComponent("wmata.zip").path
        var levels: [String: (index: Double, name: String?)] = [:]
        for row in try ReferenceTimetable.table("levels.txt", in: zip) {
            guard let id = row["level_id"], let index = Double(row["level_index"] ?? "") else { continue }
            levels[id] = (index, (row["level_name"] ?? "").isEmpty ? nil : row["level_name"])
        }
        let bundle = try RealFeeds.bundle("wmata").bundle
        var checked = 0
        for row in try ReferenceTimetable.table("stops.txt", in: zip) {
            guard let id = row["stop_id"], let levelID = row["level_id"], !levelID.isEmpty, let level = levels[levelID] else { continue }
            XCTAssertEqual(try bundle.stop(id).level, StopLevel(levelID: levelID, index: level.index, name: level.name), id)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 1_000)
    }
}
