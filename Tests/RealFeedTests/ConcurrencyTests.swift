import Foundation
import TestKit
import TransitRuntime
import XCTest

/// 8 threads x 10,000 mixed queries against one open bundle give exactly the answers
/// of one thread.
final class ConcurrencyTests: XCTestCase {
    func testEightThreadsAgreeWithOneThread() throws {
        try RealFeeds.requireShared()
        let bundle = try RealFeeds.bundle("cts-strasbourg").bundle
        let stops = try bundle.stops(matching: "a", limit: 200).map(\.stopID) + ["HOFER_04", "GACEN_11"]
        var random = SplitMix64(state: 7)
        let queries: [Int] = (0..<10_000).map { _ in Int.random(in: 0..<1_000_000, using: &random) }
        @Sendable func answer(_ q: Int) -> String {
            let stop = stops[q % stops.count]
            let at = QueryTime.instant(Date(timeIntervalSince1970: 1_772_000_000 + Double(q % 5_000_000)))
            do {
                switch q % 4 {
                case 0, 1: return try bundle.departures(from: stop, at: at, limit: 10).map { "\($0.tripID)\($0.departureTime)" }.joined()
                case 2: return try bundle.stops(matching: ["gare", "homme", "place", "rue", "pont"][q % 5]).map(\.stopID).joined()
                default:
                    return try bundle.stops(near: Coordinate(latitude: 48.58 + Double(q % 100) / 5000, longitude: 7.75), within: 400).map(
                        \.stopID
                    ).joined()
                }
            } catch {
                return "error \(error)"
            }
        }
        let expected = queries.map(answer)
        let mismatches = LockedList<Int>()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<queries.count {
                let index = (i + thread * 1_250) % queries.count
                if answer(queries[index]) != expected[index] { mismatches.append(index) }
            }
        }
        XCTAssertEqual(mismatches.values, [])
        XCTAssertFalse(expected.allSatisfy { $0.isEmpty || $0.hasPrefix("error") }, "queries returned real answers")
    }
}
