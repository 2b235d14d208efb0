import BundleFormat
import Foundation
import GTFSCompiler
import TestSupport
import XCTest

@testable import TransitRuntime

/// Each rule of departures-semantics.md on the sample feeds. Expected times were worked
/// out by hand from gtfs-samples/ (Zurich springs forward on 2026-03-29 at 02:00 CET;
/// New York falls back on 2026-11-01 at 02:00 EDT).
final class DepartureSemanticsTests: XCTestCase {
    let bundle = TestSupport.sampleBundle

    private func board(_ stop: String, feed: String? = nil, _ at: String, window: Int = 60, limit: Int = 50) throws -> [Departure] {
        try bundle.departures(from: stop, feed: feed, at: try QueryTime.parse(at), within: TimeInterval(window * 60), limit: limit)
    }

    private func summary(_ departures: [Departure]) -> [String] {
        departures.map { "\($0.tripID)@\($0.stopID) \($0.departureTime) \($0.serviceDate)" }
    }

    func testTimesCountFromNoonMinus12HoursOnTheSpringForwardDay() throws {
        // 01:00:00 of Sunday 2026-03-29 is 00:00 CET; 25:30:00 of Saturday is 01:30 CET.
        XCTAssertEqual(
            summary(try board("CENTRAL", "2026-03-28T23:50", window: 120)),
            [
                "N1_SUN_0100@CENTRAL_2 2026-03-29T00:00:00+01:00 2026-03-29",
                "N1_SAT_2530@CENTRAL_2 2026-03-29T01:30:00+01:00 2026-03-28",
            ])
        // 08:00:00 after the change matches the wall clock.
        XCTAssertEqual(summary(try board("CENTRAL_1", "2026-03-29T07:30")), ["T4_WE_0800@CENTRAL_1 2026-03-29T08:00:00+02:00 2026-03-29"])
    }

    func testTimesPast24HoursBelongToTheEarlierServiceDay() throws {
        let night = try board("CENTRAL_2", "2026-03-29T01:00")
        XCTAssertEqual(night.first?.tripID, "N1_SAT_2530")
        XCTAssertEqual(night.first?.departureSecs, 25 * 3600 + 30 * 60)
        XCTAssertEqual(night.first?.serviceDate.description, "2026-03-28")
        // Valley: 24:10:00 of 2026-10-31 leaves at 00:10 EDT on 2026-11-01.
        let mill = try board("MILL", feed: "valley", "2026-11-01T00:00", window: 30)
        XCTAssertEqual(summary(mill), ["V1_2330@MILL 2026-11-01T00:10:00-04:00 2026-10-31"])
        XCTAssertEqual(mill.first?.departureSecs, 87_000)
    }

    func testFallBackDayUsesNoonMinus12Hours() throws {
        // Service day 2026-11-01 starts at 01:00 EDT (05:00Z); 01:30:00 is 06:30Z = 01:30 EST.
        // The query's repeated local 01:30 is the first one (EDT, 05:30Z): 60 minutes later is excluded.
        XCTAssertEqual(try board("HUB", feed: "valley", "2026-11-01T01:30", window: 60).map(\.tripID), [])
        XCTAssertEqual(
            summary(try board("HUB", feed: "valley", "2026-11-01T01:30", window: 61)),
            ["V1_0130@HUB 2026-11-01T01:30:00-05:00 2026-11-01"])
        XCTAssertEqual(
            summary(try board("HUB", feed: "valley", "2026-11-01T06:30:00Z", window: 1)),
            ["V1_0130@HUB 2026-11-01T01:30:00-05:00 2026-11-01"])
    }

    func testLocalTimesSkippedOrRepeatedUseTheOffsetBeforeTheChange() {
        let clock = FeedClock(timeZone: TimeZone(identifier: "Europe/Zurich")!)
        let iso = ISO8601DateFormatter()
        func epoch(_ text: String) -> Int { Int(iso.date(from: text)!.timeIntervalSince1970) }
        XCTAssertEqual(
            clock.instant(localDay: CivilDate(iso: "2026-03-29")!, secondsOfDay: 2 * 3600 + 1800), epoch("2026-03-29T01:30:00Z"),
            "skipped 02:30 is 03:30 CEST")
        XCTAssertEqual(
            clock.instant(localDay: CivilDate(iso: "2026-10-25")!, secondsOfDay: 2 * 3600 + 1800), epoch("2026-10-25T00:30:00Z"),
            "repeated 02:30 is the first (CEST) one")
        XCTAssertEqual(clock.instant(localDay: CivilDate(iso: "2026-03-29")!, secondsOfDay: 8 * 3600), epoch("2026-03-29T06:00:00Z"))
        XCTAssertEqual(clock.serviceDayStart(CivilDate(iso: "2026-03-29")!), epoch("2026-03-28T22:00:00Z"))
        XCTAssertEqual(clock.serviceDayStart(CivilDate(iso: "2026-03-28")!), epoch("2026-03-27T23:00:00Z"))
    }

    func testCalendarDatesRemoveAndAddDays() throws {
        // Easter Monday 2026-04-06: WEEK removed, WEEKEND added.
        XCTAssertEqual(try board("CENTRAL", "2026-04-06T07:55").map(\.tripID), ["T4_WE_0800"])
        // An ordinary Monday has the weekday service and the S2.
        XCTAssertEqual(try board("CENTRAL_1", "2026-03-30T07:55", window: 10).map(\.tripID), ["T4_WK_0800"])
    }

    func testServiceDefinedOnlyInCalendarDates() throws {
        XCTAssertEqual(summary(try board("CENTRAL_1", "2026-03-29T11:30")), ["T4_SPECIAL@CENTRAL_1 2026-03-29T12:00:00+02:00 2026-03-29"])
        XCTAssertEqual(summary(try board("CENTRAL_1", "2026-08-01T11:30")), ["T4_SPECIAL@CENTRAL_1 2026-08-01T12:00:00+02:00 2026-08-01"])
        XCTAssertEqual(try board("CENTRAL_1", "2026-03-28T11:30").map(\.tripID), [])
    }

    func testServiceDefinedNowhereNeverRuns() {
        XCTAssertThrowsError(try bundle.trip("S2_GHOST", on: ServiceDate("2026-03-30")!)) { error in
            XCTAssertEqual(error as? TransitError, .unknownTrip("S2_GHOST"))
        }
    }

    /// Windows built as a timetable-derived feed writes them: each ends at its last start +
    /// headway, and the next begins a few minutes before that end. Every start of every row
    /// is a departure; a start two rows both produce (07:30 below) counts once.
    func testOverlappingFrequencyWindowsKeepEveryStart() throws {
        let (log, path) = TestSupport.compile([
            "trips.txt": "route_id,service_id,trip_id\nR,D,T1\n",
            "stop_times.txt":
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,06:00:00,06:00:00,S1,1\nT1,06:10:00,06:10:00,S2,2\n",
            "frequencies.txt":
                "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,07:00:00,600\nT1,06:55:00,07:35:00,900\nT1,07:30:00,08:00:00,600\n",
        ])
        let bundle = try TransitBundle(path: try XCTUnwrap(path, log.summaryText()))
        let board = try bundle.departures(from: "S1", at: try QueryTime.parse("2026-03-30T05:00"), within: 240 * 60, limit: 100)
        let times = board.map { String($0.departureTime.dropFirst(11).prefix(5)) }
        // 06:00-06:50 every 10 min; 06:55, 07:10, 07:25 every 15; 07:30-07:50 every 10.
        XCTAssertEqual(
            times,
            [
                "06:00", "06:10", "06:20", "06:30", "06:40", "06:50", "06:55", "07:10", "07:25", "07:30", "07:40", "07:50",
            ])
        let notes = log.diagnostics.filter { $0.code == .frequencyOverlap }
        XCTAssertEqual(notes.count, 2)
        XCTAssertTrue(notes.allSatisfy { $0.message.contains("0 start instant(s)") }, "\(notes.map(\.message))")
        XCTAssertFalse(log.diagnostics.contains { $0.code == .badFrequency })
        // A start both rows produce: 06:50 from the first (06:00 + 5 x 600) and the second.
        let (shared, sharedPath) = TestSupport.compile([
            "trips.txt": "route_id,service_id,trip_id\nR,D,T1\n",
            "stop_times.txt":
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,06:00:00,06:00:00,S1,1\nT1,06:10:00,06:10:00,S2,2\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,07:00:00,600\nT1,06:50:00,07:30:00,600\n",
        ])
        let twice = try TransitBundle(path: try XCTUnwrap(sharedPath))
        let times2 = try twice.departures(from: "S1", at: try QueryTime.parse("2026-03-30T05:00"), within: 240 * 60, limit: 100)
            .map { String($0.departureTime.dropFirst(11).prefix(5)) }
        XCTAssertEqual(times2, ["06:00", "06:10", "06:20", "06:30", "06:40", "06:50", "07:00", "07:10", "07:20"])
        XCTAssertTrue(
            shared.diagnostics.contains {
                $0.code == .frequencyOverlap && $0.message.contains("1 start instant(s) both produce count once")
            })
    }

    func testFrequenciesStartEveryHeadwayWithExclusiveEnd() throws {
        let morning = try board("CENTRAL_2", "2026-03-30T06:00", window: 180)
        XCTAssertEqual(morning.count, 18)
        XCTAssertEqual(morning.first?.departureTime, "2026-03-30T06:00:00+02:00")
        XCTAssertEqual(morning.last?.departureTime, "2026-03-30T08:50:00+02:00", "09:00 is the end_time, excluded")
        XCTAssertTrue(morning.allSatisfy { $0.tripID == "S2_FREQ" && $0.frequencyBased }, "exact_times 0 is frequency-based")
        let evening = try board("CENTRAL_2", "2026-03-30T16:00", window: 240)
        XCTAssertEqual(evening.count, 12)
        XCTAssertEqual(evening.last?.departureTime, "2026-03-30T18:45:00+02:00")
        XCTAssertTrue(evening.allSatisfy { !$0.frequencyBased }, "exact_times 1 is a schedule")
        // At the second stop each instance leaves 8 minutes after its start (06:08 departure offset).
        XCTAssertEqual(
            try board("OERLIKON", "2026-03-30T06:00", window: 20).map(\.departureTime),
            ["2026-03-30T06:08:00+02:00", "2026-03-30T06:18:00+02:00"])
        XCTAssertEqual(try board("CENTRAL_2", "2026-03-28T06:00", window: 180).count, 0, "S2 runs on weekdays only")
    }

    func testNoDeparturesFromLastStopOrWithoutPickup() throws {
        XCTAssertEqual(try board("TIEFENBRUNNEN", "2026-03-30T00:00", window: 1440, limit: 100).count, 0)
        XCTAssertEqual(try board("AIRPORT", "2026-03-30T00:00", window: 1440, limit: 100).count, 0)
        // 08:36 has pickup_type 1 (not a departure); 08:51 has pickup_type 3 (arrange with driver).
        let bellevue = try board("BELLEVUE", "2026-03-30T08:30", window: 30)
        XCTAssertEqual(bellevue.map(\.tripID), ["T4_WK_0845"])
        XCTAssertEqual(bellevue.first?.pickupType, .coordinateWithDriver)
    }

    func testStationAnswersWithItsPlatformsInOrder() throws {
        let board = try board("CENTRAL", "2026-03-30T08:00", window: 1)
        // Same instant: ordered by stop_id, then trip_id.
        XCTAssertEqual(board.map(\.stopID), ["CENTRAL_1", "CENTRAL_2"])
        XCTAssertEqual(board.map(\.platformCode), ["1", "2"])
        XCTAssertEqual(try self.board("CENTRAL", "2026-03-30T08:00", window: 1, limit: 1).map(\.tripID), ["T4_WK_0800"])
    }

    func testWindowIsHalfOpen() throws {
        XCTAssertEqual(try board("CENTRAL_1", "2026-03-30T08:00", window: 15).map(\.tripID), ["T4_WK_0800"])
        XCTAssertEqual(try board("CENTRAL_1", "2026-03-30T08:00", window: 16).map(\.tripID), ["T4_WK_0800", "T4_WK_0815"])
    }

    func testUntimedStopsAreInterpolatedByDistance() throws {
        // Haversine distances Bellevue -> Opernhaus -> Tiefenbrunnen, worked out here independently.
        func metres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let r = 6_371_008.8
            let p1 = a.0 * .pi / 180
            let p2 = b.0 * .pi / 180
            let h = pow(sin((p2 - p1) / 2), 2) + cos(p1) * cos(p2) * pow(sin((b.1 - a.1) * .pi / 180 / 2), 2)
            return 2 * r * asin(sqrt(h))
        }
        let d1 = metres((47.36670, 8.54500), (47.36500, 8.54680))
        let d2 = metres((47.36500, 8.54680), (47.35020, 8.56170))
        let expected = 8 * 3600 + 6 * 60 + Int((600 * d1 / (d1 + d2)).rounded(.down))
        let opera = try board("OPERA", "2026-03-30T08:00", window: 10)
        XCTAssertEqual(opera.map(\.tripID), ["T4_WK_0800"])
        XCTAssertEqual(opera.first?.departureSecs, expected)
        // Valley has shape_dist_traveled on every row: 1.5 of 2.0 between 01:30 and 01:45.
        let trip = try bundle.trip("V1_0130", on: ServiceDate("2026-11-01")!)
        let cafe = try XCTUnwrap(trip.stopTimes.first { $0.stopID == "CAFE" })
        XCTAssertEqual(cafe.departureSecs, 3600 + 41 * 60 + 15)
        XCTAssertTrue(cafe.interpolated)
        XCTAssertEqual(cafe.departureTime, "2026-11-01T01:41:15-05:00")
    }

    func testHeadsignFallsBackFromStopToTripToLastStop() throws {
        let central = try board("CENTRAL_1", "2026-03-30T08:00", window: 60)
        XCTAssertEqual(central.first { $0.tripID == "T4_WK_0845" }?.headsign, "Tiefenbrunnen via Bellevue")
        XCTAssertEqual(central.first { $0.tripID == "T4_WK_0800" }?.headsign, "Tiefenbrunnen")
        XCTAssertEqual(try board("CENTRAL_2", "2026-03-30T06:00", window: 5).first?.headsign, "Flughafen Zürich")
    }

    func testDepartureCarriesRouteAndStopFields() throws {
        let d = try XCTUnwrap(try board("CENTRAL_1", "2026-03-30T08:00", window: 1).first)
        XCTAssertEqual(d.feedID, "metro")
        XCTAssertEqual(d.stopName, "Zürich Hauptbahnhof")
        XCTAssertEqual(d.routeID, "T4")
        XCTAssertEqual(d.routeShortName, "4")
        XCTAssertEqual(d.routeLongName, "Zürich HB – Tiefenbrunnen")
        XCTAssertEqual(d.routeType, .tram)
        XCTAssertEqual(d.routeColor, HexColor(red: 0, green: 0, blue: 255))
        XCTAssertEqual(d.routeTextColor?.hex, "FFFFFF")
        XCTAssertEqual(d.wheelchairAccessible, .yes)
        XCTAssertEqual(d.pickupType, .regular)
        XCTAssertFalse(d.frequencyBased)
    }

    func testErrors() {
        XCTAssertThrowsError(try board("HUB", "2026-03-30T08:00")) { error in
            XCTAssertEqual(error as? TransitError, .ambiguousStop("HUB", feeds: ["metro", "valley"]))
        }
        XCTAssertThrowsError(try board("NOWHERE", "2026-03-30T08:00")) { error in
            XCTAssertEqual(error as? TransitError, .unknownStop("NOWHERE"))
        }
        XCTAssertThrowsError(try board("CENTRAL", "2027-06-01T08:00")) { error in
            guard case .dateOutOfRange? = error as? TransitError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try board("CENTRAL", feed: "nope", "2026-03-30T08:00")) {
            XCTAssertEqual($0 as? TransitError, .unknownFeed("nope"))
        }
        XCTAssertEqual(try QueryTime.parse("2026-03-30"), .local(LocalDate("2026-03-30")!, secondsOfDay: 0), "a date alone: its midnight")
        for bad in ["2026-3-30", "2026-3-30T08:00", "2026-03-30T25:00", "2026-03-30T08:00+5", "tomorrow", "2026-02-30T08:00"] {
            XCTAssertThrowsError(try QueryTime.parse(bad), bad) { XCTAssertEqual($0 as? TransitError, .badTime(bad)) }
        }
    }
}
