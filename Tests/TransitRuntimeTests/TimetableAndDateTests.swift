import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Day timetables of a stop and a route, against the metro sample's CSV as written in
/// gtfs-samples/metro (the expected lists below are read off its files by hand), and the
/// civil-date and time-zone values an app formats them with.
final class TimetableAndDateTests: XCTestCase {
    private let zurich = TimeZone(identifier: "Europe/Zurich")!

    func testAStopsTimetableHoldsItsServiceDaysDepartures() throws {
        let bundle = TestSupport.sampleBundle
        // Monday: WEEK trips boarding at BELLEVUE (T4_WK_0830 has pickup_type 1 there).
        let monday = try bundle.timetable(at: "BELLEVUE", feed: "metro", on: ServiceDate("2026-03-30")!)
        XCTAssertEqual(monday.map(\.tripID), ["T4_WK_0800", "T4_WK_0815", "T4_WK_0845"])
        XCTAssertEqual(
            monday.map(\.departureTime), ["2026-03-30T08:06:00+02:00", "2026-03-30T08:21:00+02:00", "2026-03-30T08:51:00+02:00"])
        // Saturday: the WEEKEND trips, the night bus at 25:40 (Sunday 01:40) included, and
        // nothing of Friday's service day.
        let saturday = try bundle.timetable(at: "BELLEVUE", feed: "metro", on: ServiceDate("2026-04-04")!)
        XCTAssertEqual(saturday.map(\.tripID), ["T4_WE_0800", "N1_SAT_2530"])
        XCTAssertEqual(saturday.map(\.departureTime), ["2026-04-04T08:06:00+02:00", "2026-04-05T01:40:00+02:00"])
        XCTAssertEqual(Set(saturday.map(\.serviceDate)), [ServiceDate("2026-04-04")!])
        XCTAssertThrowsError(try bundle.timetable(at: "NOWHERE", feed: "metro", on: ServiceDate("2026-03-30")!))
    }

    func testARoutesTimetableListsItsTripsInOrder() throws {
        let bundle = TestSupport.sampleBundle
        let monday = try bundle.timetable(ofRoute: "T4", feed: "metro", on: ServiceDate("2026-03-30")!)
        XCTAssertEqual(monday.map(\.tripID), ["T4_WK_0800", "T4_WK_0815", "T4_WK_0830", "T4_WK_0845"])
        XCTAssertEqual(monday.first?.stopTimes.map(\.stopID), ["CENTRAL_1", "BELLEVUE", "OPERA", "TIEFENBRUNNEN"])
        // Sunday 2026-03-29: WEEKEND, and SPECIAL added by calendar_dates.txt.
        let sunday = try bundle.timetable(ofRoute: "T4", feed: "metro", on: ServiceDate("2026-03-29")!)
        XCTAssertEqual(sunday.map(\.tripID), ["T4_WE_0800", "T4_SPECIAL"])
        XCTAssertEqual(try bundle.timetable(ofRoute: "T4", feed: "metro", direction: 1, on: ServiceDate("2026-03-30")!), [])
        // A trip's stops carry their positions (stops.txt: BELLEVUE 47.36670, 8.54500).
        XCTAssertEqual(monday.first?.stopTimes[1].coordinate, Coordinate(latitude: 47.3667, longitude: 8.545))
    }

    func testDatesFromInstantsAndZones() throws {
        // 2026-03-29 00:30 UTC: 01:30 in Zurich (the clock goes forward at 02:00 local), still
        // the 28th in New York.
        let instant = Date(timeIntervalSince1970: 1_774_744_200)
        XCTAssertEqual(ServiceDate(instant, in: zurich), ServiceDate("2026-03-29"))
        XCTAssertEqual(ServiceDate(instant, in: TimeZone(identifier: "America/New_York")!), ServiceDate("2026-03-28"))
        XCTAssertEqual(LocalDateTime(instant, in: zurich).description, "2026-03-29T01:30:00+01:00")
        // An hour later the clock has moved on: 03:30 summer time.
        let later = instant.addingTimeInterval(3600)
        XCTAssertEqual(LocalDateTime(later, in: zurich).description, "2026-03-29T03:30:00+02:00")
        XCTAssertLessThan(LocalDateTime(instant, in: zurich), LocalDateTime(later, in: zurich))
        // The same instant named in two zones: neither before the other in time.
        let utc = LocalDateTime(instant, in: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(utc.instant, LocalDateTime(instant, in: zurich).instant)
        XCTAssertEqual(ServiceDate("2026-03-29")!.start(in: zurich), Date(timeIntervalSince1970: 1_774_738_800))
        // LocalDate is ServiceDate: one civil-date type.
        let day: LocalDate = ServiceDate("2026-03-30")!
        XCTAssertEqual(day, LocalDate("2026-03-30"))
    }

    func testDeparturesCarryTheirFeedsTimeZone() throws {
        let board = try TestSupport.sampleBundle.departures(from: "CENTRAL", feed: "metro", at: try QueryTime.parse("2026-03-30T08:00"))
        let first = try XCTUnwrap(board.first)
        XCTAssertEqual(first.timeZone.identifier, "Europe/Zurich")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = first.timeZone
        XCTAssertEqual(calendar.dateComponents([.hour, .minute], from: first.departure), DateComponents(hour: 8, minute: 0))
        let decoded = try JSONDecoder().decode(Departure.self, from: try JSONEncoder().encode(first))
        XCTAssertEqual(decoded.timeZone.identifier, "Europe/Zurich")
        // A journey shows its times in its first ride's feed's zone.
        let journey = try XCTUnwrap(
            try TestSupport.sampleBundle.journeys(
                from: .stop("CENTRAL", feed: "metro"), to: .stop("TIEFENBRUNNEN", feed: "metro"),
                departingAt: try QueryTime.parse("2026-03-30T08:00")
            ).first)
        XCTAssertEqual(journey.timeZone.identifier, "Europe/Zurich")
    }
}

/// `StopRef`: a stop with its feed as a value, accepted by the queries, carried by journey legs.
final class StopRefTests: XCTestCase {
    func testAReferenceParsesPrintsAndNamesOneStop() throws {
        let ref = try XCTUnwrap(StopRef("metro/CENTRAL"))
        XCTAssertEqual(ref, StopRef(feedID: "metro", stopID: "CENTRAL"))
        XCTAssertEqual(ref.description, "metro/CENTRAL")
        XCTAssertEqual(StopRef("f/a/b")?.stopID, "a/b", "the feed ends at the first slash")
        XCTAssertNil(StopRef("CENTRAL"))
        XCTAssertNil(StopRef("/CENTRAL"))
        XCTAssertNil(StopRef("metro/"))
        XCTAssertEqual(try JSONDecoder().decode(StopRef.self, from: try JSONEncoder().encode(ref)), ref)
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(ref), as: UTF8.self), "\"metro\\/CENTRAL\"")
        let bundle = TestSupport.sampleBundle
        let stop = try bundle.stop(ref)
        XCTAssertEqual(stop.ref, ref)
        XCTAssertEqual(stop.id, ref.description)
        let at = try QueryTime.parse("2026-03-30T08:00")
        XCTAssertEqual(try bundle.departures(from: ref, at: at), try bundle.departures(from: "CENTRAL", feed: "metro", at: at))
        XCTAssertEqual(try bundle.arrivals(to: ref, at: at), try bundle.arrivals(to: "CENTRAL", feed: "metro", at: at))
        XCTAssertEqual(
            try bundle.departures(from: [ref, StopRef(feedID: "metro", stopID: "BELLEVUE")], at: at),
            try bundle.departures(from: ["CENTRAL", "BELLEVUE"], feed: "metro", at: at))
    }

    func testJourneyLegsCarryTheirStopsFeeds() throws {
        let bundle = TestSupport.sampleBundle
        // From a point near Bellevue: a walk to a stop, then rides.
        let journeys = try bundle.journeys(
            from: .coordinate(Coordinate(latitude: 47.3668, longitude: 8.5451)),
            to: .stop(StopRef(feedID: "metro", stopID: "TIEFENBRUNNEN")),
            departingAt: try QueryTime.parse("2026-03-30T08:00"))
        let legs = try XCTUnwrap(journeys.first?.legs)
        let walk = try XCTUnwrap(legs.first { $0.kind == .walk })
        XCTAssertNil(walk.fromStop, "a walk from a point starts at no stop")
        XCTAssertEqual(walk.toStop?.feedID, "metro")
        let ride = try XCTUnwrap(legs.first { $0.kind == .ride })
        XCTAssertEqual(ride.fromStop, StopRef(feedID: "metro", stopID: try XCTUnwrap(ride.boarding?.stopID)))
        XCTAssertEqual(ride.toStop?.stopID, "TIEFENBRUNNEN")
        let decoded = try JSONDecoder().decode(JourneyLeg.self, from: try JSONEncoder().encode(walk))
        XCTAssertEqual(decoded.toStop, walk.toStop)
    }
}
