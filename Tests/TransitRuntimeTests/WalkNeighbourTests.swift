import BundleFormat
import Foundation
import TestKit
import TestSupport
import XCTest

@testable import TransitRuntime

/// The planner's stops within walking distance of a point (its grid of 0.01-degree cells,
/// read only where the circle's box lies) against every served stop measured one by one.
final class WalkNeighbourTests: XCTestCase {
    func testStopsNearAPointAreEveryServedStopWithinTheRadius() throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        // A journey builds the planner's network.
        _ = try bundle.journeys(from: .stop("CENTRAL"), to: .stop("AIRPORT"), departingAt: try QueryTime.parse("2026-03-30T08:00"))
        let network = try XCTUnwrap(bundle.journeyCaches.routing.withLock { $0 })
        let served = (0..<network.stopCount).filter { network.serves($0) && !network.stopLatitude[$0].isNaN }
        XCTAssertGreaterThan(served.count, 5)
        let seed = SplitMix64.testSeed(0x5EED_0073)
        var rng = SplitMix64(state: seed)
        func uniform() -> Double { Double(rng.next() % 1_000_000) / 1_000_000 }
        for _ in 0..<500 {
            // A point up to about 3 km from a served stop, a radius from 1 m to 3 km.
            let around = served[Int(rng.next() % UInt64(served.count))]
            let latitude = network.stopLatitude[around] + (uniform() - 0.5) * 0.06
            let longitude = network.stopLongitude[around] + (uniform() - 0.5) * 0.06
            let radius = 1 + uniform() * 3_000
            let expected = served.compactMap { s -> Int? in
                GeoDistance.metres(latitude, longitude, network.stopLatitude[s], network.stopLongitude[s]) <= radius ? s : nil
            }
            let found = network.stops(near: latitude, longitude, within: radius)
            XCTAssertEqual(found.map(\.sid), expected, "at \(latitude),\(longitude) within \(radius) m, TEST_SEED=\(seed)")
        }
    }
}
