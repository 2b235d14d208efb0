import Foundation
import GTFSCompiler
import TransitRuntime
import XCTest

/// The trust cases of real feeds: duplicates that riders would see twice, and declared
/// coverage longer than the last trip. Expected values were checked by hand against the
/// feeds' CSV files (grep and diff of the trips' stop_times).
final class RealFeedTrustTests: XCTestCase {
    func testDuplicateTripsOfRealFeedsAreReported() throws {
        try RealFeeds.requireShared()
        // sncf-intercites: train 3631's three 7-stop trips (service 0) are identical; its 20-stop
        // trips differ by a minute here and there, so they are not duplicates.
        let sncf = try RealFeeds.bundle("sncf-intercites").log.diagnostics.filter { $0.code == .duplicateTrip }
        XCTAssertEqual(sncf.count, 6)
        XCTAssertEqual(
            Set(sncf.filter { $0.message.contains("OCESN003631F04027-12142-00") }.compactMap(\.entityID)),
            ["OCESN003631F04027-12155-00", "OCESN003631F04027-12169-00"])
        // kuopio-finland: Saturday and Christmas Eve services both run on 2016-12-24.
        let kuopio = try RealFeeds.bundle("kuopio-finland").log.diagnostics.filter { $0.code == .duplicateTrip }
        XCTAssertEqual(kuopio.count, 45)
        XCTAssertTrue(kuopio.allSatisfy { $0.message.contains("2016-12-24") })
    }

    func testDeclaredCoverageMakesADayWithoutTripsAnEmptyBoard() throws {
        try RealFeeds.requireShared()
        // trimet-2routes declares service until 2022-05-14 (calendar ranges and feed_info) and has
        // no trip after 2022-01-08.
        let bundle = try RealFeeds.bundle("trimet-2routes").bundle
        let feed = try bundle.info().feeds[0]
        XCTAssertEqual(feed.lastServiceDate?.description, "2022-05-14")
        let stop = try XCTUnwrap(
            try bundle.stops(near: Coordinate(latitude: 45.52, longitude: -122.68), within: 50_000, limit: 1).first?.stopID)
        XCTAssertFalse(
            try bundle.departures(from: stop, at: try QueryTime.parse("2021-11-16T00:00"), within: 1440 * 60, limit: 1).isEmpty)
        XCTAssertEqual(try bundle.departures(from: stop, at: try QueryTime.parse("2022-03-13T08:00"), within: 600 * 60), [])
        XCTAssertThrowsError(try bundle.departures(from: stop, at: try QueryTime.parse("2022-06-20T08:00"))) { error in
            guard case .dateOutOfRange(_, _, "2021-10-17", "2022-05-14")? = error as? TransitError else { return XCTFail("\(error)") }
        }
    }
}
