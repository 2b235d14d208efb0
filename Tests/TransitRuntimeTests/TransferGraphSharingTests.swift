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
}
