import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Arrival boards, several stops at once, and the fields a board shows for each call.
final class BoardTests: XCTestCase {
    /// T1 runs S1-S2-S3 (no alighting at S2), T2 S3-S2-S1 with a train number and bikes,
    /// F a frequency trip S1-S3 every 30 min from 10:00; S2 is in station ST (wheelchair 1).
    /// T1's times at S2 are approximate (timepoint 0), T2's exact (1), the rest left empty (exact).
    static let feed: [String: String?] = [
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
        S1,One,48.0,7.0,0,,
        S2,Two,48.01,7.01,0,ST,
        S3,Three,48.02,7.02,0,,2
        ST,Station,48.01,7.01,1,,1

        """,
        "trips.txt": """
        route_id,service_id,trip_id,direction_id,trip_short_name,bikes_allowed
        R,D,T1,0,,
        R,D,T2,1,4711,1
        R,D,F,0,,

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,timepoint
        T1,08:00:00,08:00:00,S1,1,,,
        T1,08:09:00,08:10:00,S2,2,,1,0
        T1,08:20:00,08:20:00,S3,3,,,
        T2,09:00:00,09:00:00,S3,5,,,
        T2,09:10:00,09:11:00,S2,6,,,1
        T2,09:20:00,09:20:00,S1,7,,,
        F,10:00:00,10:00:00,S1,1,,,
        F,10:15:00,10:15:00,S3,2,,,

        """,
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF,10:00:00,11:00:00,1800\n",
    ]

    func day(_ time: String) throws -> QueryTime { try QueryTime.parse("2026-03-04T" + time) }

    func testArrivalsListTerminiButNotFirstStopsOrNoAlighting() throws {
        let (log, path) = TestSupport.compile(Self.feed)
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        // S2: T1 does not let riders off there; T2 does.
        XCTAssertEqual(try bundle.arrivals(to: ["S2"], at: try day("08:00"), within: 120 * 60).map(\.tripID), ["T2"])
        // S1 is T2's terminus (an arrival) and T1's first stop (not one).
        let atS1 = try bundle.arrivals(to: ["S1"], at: try day("07:00"), within: 300 * 60)
        XCTAssertEqual(atS1.map(\.tripID), ["T2"])
        XCTAssertEqual(atS1.first?.stopsRemaining, 0)
        // S3 is T1's and F's terminus: F arrives at 10:15 and 10:45.
        let atS3 = try bundle.arrivals(to: ["S3"], at: try day("08:00"), within: 240 * 60)
        XCTAssertEqual(atS3.map(\.tripID), ["T1", "F", "F"])
        XCTAssertEqual(
            atS3.map(\.arrivalLocal.description), ["2026-03-04T08:20:00+01:00", "2026-03-04T10:15:00+01:00", "2026-03-04T10:45:00+01:00"])
        XCTAssertEqual(atS3[2].tripStartLocal?.description, "2026-03-04T10:30:00+01:00", "a frequency instance names its start")
        XCTAssertNil(atS3[0].tripStartLocal)
    }

    func testSeveralStopsMergeInTimeOrder() throws {
        let (log, path) = TestSupport.compile(Self.feed)
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        let board = try bundle.departures(from: ["S3", "S1"], at: try day("07:00"), within: 240 * 60)
        XCTAssertEqual(board.map { "\($0.stopID) \($0.tripID)" }, ["S1 T1", "S3 T2", "S1 F", "S1 F"])
        XCTAssertEqual(
            try bundle.departures(from: ["S1", "S1"], at: try day("07:00"), within: 240 * 60).count, 3, "a stop given twice counts once")
        XCTAssertThrowsError(try bundle.departures(from: [], at: try day("07:00")))
    }

    func testEachCallCarriesItsTripAndStopFields() throws {
        let (log, path) = TestSupport.compile(Self.feed)
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        let t2 = try XCTUnwrap(try bundle.departures(from: "S2", at: try day("09:00"), within: 30 * 60).first)
        XCTAssertEqual(t2.tripID, "T2")
        XCTAssertEqual(t2.stopSequence, 6)
        XCTAssertEqual(t2.arrivalLocal.description, "2026-03-04T09:10:00+01:00")
        XCTAssertEqual(t2.departureLocal.description, "2026-03-04T09:11:00+01:00")
        XCTAssertEqual(t2.directionID, 1)
        XCTAssertEqual(t2.tripShortName, "4711")
        XCTAssertEqual(t2.bikesAllowed, .yes)
        XCTAssertEqual(t2.agencyID, "A")
        XCTAssertEqual(t2.agencyName, "Agency")
        XCTAssertEqual(t2.stopsRemaining, 1)
        XCTAssertTrue(t2.timepoint)
        let t1 = try XCTUnwrap(try bundle.departures(from: "S2", at: try day("08:00"), within: 30 * 60).first)
        XCTAssertEqual(t1.dropOffType, PickupDropOffType.notAvailable)
        XCTAssertFalse(t1.timepoint, "timepoint 0 in the feed")
        let trip = try bundle.trip("T1", on: ServiceDate("2026-03-04")!)
        XCTAssertEqual(trip.stopTimes.map(\.timepoint), [true, false, true])
        XCTAssertNil(t1.tripShortName)
        XCTAssertEqual(t1.bikesAllowed, .unknown)
        // S2 leaves wheelchair_boarding empty: its station's 1; S3 says 2 itself.
        let stops = try bundle.nearestStops(to: Coordinate(latitude: 48.01, longitude: 7.01), count: 4)
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: stops.map { ($0.stopID, $0.wheelchairBoarding) }),
            ["S1": .unknown, "S2": .yes, "S3": .no, "ST": .yes])
    }
}
