import Foundation
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// Each rule of docs/realtime-semantics.md on a hand-made feed (Europe/Paris) and hand-made
/// messages: trips past midnight with and without start_date, a frequency instance, a stop
/// visited twice, cancelled, deleted and skipped, stale data and a clock-change day.
final class RealtimeRuleTests: XCTestCase {
    private static let bundlePath: String = {
        let result = TestSupport.compile([
            "trips.txt": "route_id,service_id,trip_id\nR,D,T1\nR,D,N1\nR,D,F1\nR,D,L1\n",
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S2,2
            T1,08:20:00,08:20:00,S3,3
            N1,23:50:00,23:50:00,S1,1
            N1,24:10:00,24:10:00,S2,2
            N1,24:30:00,24:30:00,S3,3
            F1,07:00:00,07:00:00,S1,1
            F1,07:05:00,07:05:00,S2,2
            F1,07:10:00,07:10:00,S3,3
            L1,09:00:00,09:00:00,S1,1
            L1,09:10:00,09:10:00,S2,2
            L1,09:20:00,09:20:00,S1,3
            L1,09:30:00,09:30:00,S3,4

            """,
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nF1,07:00:00,08:00:00,600\n",
        ])
        return result.bundle!
    }()

    var bundle: TransitBundle { try! TransitBundle(path: Self.bundlePath) }

    /// A FULL_DATASET message at `header` (local Paris time) with the given trip updates.
    func message(_ header: String, _ updates: [TransitRealtime_TripUpdate]) throws -> RealtimeMessage {
        let feed = try feedMessage(header, updates.enumerated().map { entity("e\($0)", $1) })
        return try RealtimeMessage(data: try feed.serializedData())
    }

    /// A FULL_DATASET message at `header` (local Paris time) with `entities`.
    func feedMessage(_ header: String, _ entities: [TransitRealtime_FeedEntity]) throws -> TransitRealtime_FeedMessage {
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.incrementality = .fullDataset
        feed.header.timestamp = UInt64(try instant(header).timeIntervalSince1970)
        feed.entity = entities
        return feed
    }

    /// An entity with id `id` (none when nil) carrying `update`.
    func entity(_ id: String?, _ update: TransitRealtime_TripUpdate) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        if let id { entity.id = id }
        entity.tripUpdate = update
        return entity
    }

    /// A wall-clock time in the feed's zone (Europe/Paris) as an instant, read by Foundation's
    /// own calendar (not the runtime's clock): "2026-03-10T08:00" is 07:00 UTC.
    func instant(_ local: String) throws -> Date {
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "Europe/Paris")
        parser.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return try XCTUnwrap(parser.date(from: local), local)
    }

    func update(
        _ trip: String, date: String? = nil, start: String? = nil,
        relationship: TransitRealtime_TripDescriptor.ScheduleRelationship = .scheduled,
        _ stops: [(sequence: Int?, stop: String?, delay: Int?, skip: Bool)] = []
    ) -> TransitRealtime_TripUpdate {
        var u = TransitRealtime_TripUpdate()
        u.trip.tripID = trip
        if let date { u.trip.startDate = date }
        if let start { u.trip.startTime = start }
        u.trip.scheduleRelationship = relationship
        u.stopTimeUpdate = stops.map { s in
            var st = TransitRealtime_TripUpdate.StopTimeUpdate()
            if let sequence = s.sequence { st.stopSequence = UInt32(sequence) }
            if let stop = s.stop { st.stopID = stop }
            if let delay = s.delay { st.arrival.delay = Int32(delay) }
            if s.skip { st.scheduleRelationship = .skipped }
            return st
        }
        return u
    }

    func board(_ stop: String, _ at: String, _ snapshot: RealtimeSnapshot, now: String, minutes: Int = 60) throws -> LiveBoard {
        try bundle.departures(
            from: stop, at: try QueryTime.parse(at), within: TimeInterval(minutes * 60), limit: 50, realtime: snapshot,
            now: try instant(now))
    }

    func testATripPastMidnightWithStartDate() throws {
        let snapshot = try RealtimeSnapshot(
            messages: [try message("2026-03-10T23:55", [update("N1", date: "20260310", [(2, "S2", 120, false)])])], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 1)
        let calls = try board("S2", "2026-03-11T00:00", snapshot, now: "2026-03-10T23:56").departures.filter { $0.scheduled.tripID == "N1" }
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(calls.first?.scheduled.serviceDate, ServiceDate("2026-03-10"))
        XCTAssertEqual(calls.first?.delay, 120)
        XCTAssertEqual(calls.first?.predictedDeparture, try instant("2026-03-11T00:12"))
    }

    /// start_date is "in the YYYYMMDD format" (the reference): anything else is reported as
    /// a bad time naming it, never read as some other day.
    func testAStartDateOtherThanEightDigitsOfARealDayIsABadTime() throws {
        let malformed = [
            "2026-03-10", "+2026031", "-2026031", "2026031", "202603100", "2026031x", "20261310", "20260230", "", "\u{0662}0260310",
        ]
        let updates = (["20260310"] + malformed).map { update("N1", date: $0, [(2, "S2", 120, false)]) }
        let snapshot = try RealtimeSnapshot(messages: [try message("2026-03-10T23:55", updates)], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 1)
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), Array(repeating: .badTime, count: malformed.count))
        XCTAssertEqual(snapshot.report.unmatched.map(\.detail), malformed.map { "start_date \($0)" })
    }

    func testATripPastMidnightWithoutStartDateIsTheRunUnderWay() throws {
        // At 00:05 on the 11th the run of the 10th is under way (23:50 to 00:30): not the 11th's.
        let snapshot = try RealtimeSnapshot(
            messages: [try message("2026-03-11T00:05", [update("N1", [(3, "S3", 300, false)])])], bundle: bundle)
        let calls = try board("S2", "2026-03-11T00:00", snapshot, now: "2026-03-11T00:06").departures.filter { $0.scheduled.tripID == "N1" }
        XCTAssertEqual(calls.first?.scheduled.serviceDate, ServiceDate("2026-03-10"))
        XCTAssertEqual(calls.first?.state, .scheduled, "upstream of the update: no prediction")
        let last = try bundle.arrivals(
            to: ["S3"], at: try QueryTime.parse("2026-03-11T00:20"), within: 1800, realtime: snapshot, now: try instant("2026-03-11T00:06"))
        XCTAssertEqual(last.departures.first { $0.scheduled.tripID == "N1" }?.delay, 300)
    }

    func testAFrequencyInstanceIsNamedByItsStartTime() throws {
        let snapshot = try RealtimeSnapshot(
            messages: [
                try message(
                    "2026-03-10T07:15",
                    [update("F1", date: "20260310", start: "07:20:00", [(1, "S1", 180, false)]), update("F1", date: "20260310")])
            ], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 1)
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), [.frequencyWithoutStartTime])
        let calls = try board("S1", "2026-03-10T07:10", snapshot, now: "2026-03-10T07:16", minutes: 30).departures
        let updated = calls.filter { $0.state == .updated }
        XCTAssertEqual(updated.count, 1, "only the 07:20 instance")
        XCTAssertEqual(updated.first?.scheduled.departureLocal.secondsOfDay, 7 * 3600 + 20 * 60)
        XCTAssertEqual(updated.first?.predictedDeparture, try instant("2026-03-10T07:23"))
    }

    func testAStopVisitedTwiceNeedsItsSequence() throws {
        let snapshot = try RealtimeSnapshot(
            messages: [
                try message("2026-03-10T08:55", [update("L1", date: "20260310", [(nil, "S1", 60, false), (nil, "S3", 60, false)])])
            ],
            bundle: bundle)
        XCTAssertEqual(snapshot.report.stopTimeUpdatesMatched, 1)
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), [.stopVisitedTwice])
    }

    /// stop_ids are compared with the timetable's stops by sid: a sequence whose stop_id is
    /// another stop is refused naming the timetable's stop, a stop_id alone finds a stop the
    /// trip visits once, and one the feed lacks is an unknown stop.
    func testStopIDsAreComparedWithTheTimetablesStops() throws {
        let stops: [(sequence: Int?, stop: String?, delay: Int?, skip: Bool)] = [
            (2, "S2", 60, false), (3, "S3", 60, false), (nil, "S3", 120, false), (nil, "NOWHERE", 60, false),
        ]
        let snapshot = try RealtimeSnapshot(
            messages: [try message("2026-03-10T08:55", [update("L1", date: "20260310", stops)])], bundle: bundle)
        XCTAssertEqual(snapshot.report.stopTimeUpdatesMatched, 2)
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), [.sequenceMismatch, .unknownStop])
        XCTAssertEqual(snapshot.report.unmatched.first?.detail, "stop_sequence 3 is stop S1 in the timetable")
        // S3 (stop_sequence 4, the last stop: an arrival only) found by its stop_id alone.
        XCTAssertEqual(snapshot.trips.values.first?.call(4)?.arrivalDelay, 120)
    }

    func testCancelledStaysDeletedGoesSkippedStopIsNotADeparture() throws {
        let march10 = "2026-03-10T07:55"
        let cancelled = try RealtimeSnapshot(
            messages: [try message(march10, [update("T1", date: "20260310", relationship: .canceled)])], bundle: bundle)
        let deleted = try RealtimeSnapshot(
            messages: [try message(march10, [update("T1", date: "20260310", relationship: .deleted)])], bundle: bundle)
        let skipped = try RealtimeSnapshot(
            messages: [try message(march10, [update("T1", date: "20260310", [(1, "S1", 60, false), (2, "S2", nil, true)])])],
            bundle: bundle)
        let now = "2026-03-10T07:56"
        XCTAssertEqual(
            try board("S1", "2026-03-10T07:59", cancelled, now: now).departures.first { $0.scheduled.tripID == "T1" }?.state, .cancelled)
        XCTAssertNil(try board("S1", "2026-03-10T07:59", deleted, now: now).departures.first { $0.scheduled.tripID == "T1" })
        XCTAssertNil(try board("S2", "2026-03-10T08:00", skipped, now: now).departures.first { $0.scheduled.tripID == "T1" })
        let arriving = try bundle.arrivals(
            to: ["S3"], at: try QueryTime.parse("2026-03-10T08:15"), within: 1800, realtime: skipped, now: try instant(now))
        XCTAssertEqual(arriving.departures.first { $0.scheduled.tripID == "T1" }?.delay, 60, "propagated through the skipped stop")
    }

    func testStaleUpdatesAreNotAppliedAndTheBoardSaysWhy() throws {
        let snapshot = try RealtimeSnapshot(
            messages: [try message("2026-03-10T07:50", [update("T1", date: "20260310", [(1, "S1", 240, false)])])], bundle: bundle)
        let fresh = try board("S1", "2026-03-10T07:55", snapshot, now: "2026-03-10T07:54")
        XCTAssertTrue(fresh.realtimeApplied)
        XCTAssertEqual(fresh.departures.first { $0.scheduled.tripID == "T1" }?.delay, 240)
        let stale = try board("S1", "2026-03-10T07:55", snapshot, now: "2026-03-10T07:56")
        XCTAssertFalse(stale.realtimeApplied)
        XCTAssertTrue(stale.notApplied?.contains("360 s old") ?? false, stale.notApplied ?? "")
        XCTAssertEqual(stale.notAppliedReason, .stale(age: 360, allowed: 300, now: try instant("2026-03-10T07:56")))
        let offline = try bundle.departures(from: "S1", at: try QueryTime.parse("2026-03-10T07:55"), within: 3600, limit: 50)
        XCTAssertEqual(stale.departures.map(\.scheduled), offline, "without live data the board is the offline one")
        XCTAssertTrue(stale.departures.allSatisfy { $0.state == .scheduled && $0.predictedDeparture == nil })
    }

    func testAClockChangeDay() throws {
        // 29 March 2026: Paris moves from +01:00 to +02:00 at 02:00; 08:00 is +02:00.
        let snapshot = try RealtimeSnapshot(
            messages: [try message("2026-03-29T07:55", [update("T1", date: "20260329", [(1, "S1", 90, false)])])], bundle: bundle)
        let call = try board("S1", "2026-03-29T07:59", snapshot, now: "2026-03-29T07:56").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(call?.scheduled.departureTime, "2026-03-29T08:00:00+02:00")
        XCTAssertEqual(call?.predictedDeparture, ISO8601DateFormatter().date(from: "2026-03-29T06:01:30Z"))
    }

    func testAnAddedTripAppearsOnTheBoardsOfItsStops() throws {
        var added = update("X9", date: "20260310", relationship: .new)
        added.trip.routeID = "R"
        added.stopTimeUpdate = try [("S1", "2026-03-10T08:30"), ("S3", "2026-03-10T08:45"), ("NOWHERE", "2026-03-10T08:50")].map {
            var st = TransitRealtime_TripUpdate.StopTimeUpdate()
            st.stopID = $0.0
            st.departure.time = Int64(try instant($0.1).timeIntervalSince1970)
            return st
        }
        var withoutRoute = added
        withoutRoute.trip.tripID = "X10"
        withoutRoute.trip.clearRouteID()
        let snapshot = try RealtimeSnapshot(messages: [try message("2026-03-10T08:20", [added, withoutRoute])], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 2)
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), [.unknownStop, .unknownStop], "a stop the timetable lacks is counted")
        let other = try board("S1", "2026-03-10T08:25", snapshot, now: "2026-03-10T08:21").departures.first { $0.scheduled.tripID == "X10" }
        XCTAssertNil(other?.scheduled.routeShortName)
        XCTAssertEqual(other?.scheduled.agencyID, "A", "without a route: the feed's only agency")
        let call = try board("S1", "2026-03-10T08:25", snapshot, now: "2026-03-10T08:21").departures.first { $0.scheduled.tripID == "X9" }
        XCTAssertEqual(call?.state, .added)
        XCTAssertEqual(call?.departure, try instant("2026-03-10T08:30"))
        XCTAssertEqual(call?.scheduled.routeShortName, "1")
        XCTAssertEqual(call?.scheduled.headsign, "Three")
        XCTAssertEqual(call?.scheduled.agencyID, "A", "the route's agency, so alerts naming it reach the trip")
        XCTAssertNil(
            try board("S3", "2026-03-10T08:25", snapshot, now: "2026-03-10T08:21").departures.first { $0.scheduled.tripID == "X9" },
            "no departure from its last stop")
    }

    func testADuplicatedTripCopiesTheTimetableTripToItsNewStart() throws {
        var copy = update("T1", relationship: .duplicated, [(2, "S2", 120, false)])
        copy.tripProperties.tripID = "T1-extra"
        copy.tripProperties.startDate = "20260310"
        copy.tripProperties.startTime = "10:00:00"
        let snapshot = try RealtimeSnapshot(messages: [try message("2026-03-10T09:55", [copy])], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 1, "\(snapshot.report.unmatched)")
        let first = try board("S1", "2026-03-10T09:50", snapshot, now: "2026-03-10T09:56").departures.first {
            $0.scheduled.tripID == "T1-extra"
        }
        XCTAssertEqual(first?.state, .duplicated)
        XCTAssertEqual(first?.departure, try instant("2026-03-10T10:00"))
        let second = try board("S2", "2026-03-10T10:00", snapshot, now: "2026-03-10T09:56").departures.first {
            $0.scheduled.tripID == "T1-extra"
        }
        XCTAssertEqual(second?.delay, 120)
        XCTAssertEqual(second?.departure, try instant("2026-03-10T10:12"))
        // The original keeps its own run.
        XCTAssertNotNil(
            try board("S1", "2026-03-10T07:59", snapshot, now: "2026-03-10T09:56").departures.first { $0.scheduled.tripID == "T1" })
    }

    func testATripNamedByRouteAndStartTime() throws {
        var byRoute = TransitRealtime_TripUpdate()
        byRoute.trip.routeID = "R"
        byRoute.trip.startDate = "20260310"
        byRoute.trip.startTime = "09:00:00"
        var stop = TransitRealtime_TripUpdate.StopTimeUpdate()
        stop.stopSequence = 1
        stop.departure.delay = 45
        byRoute.stopTimeUpdate = [stop]
        var twoAtEight = byRoute
        twoAtEight.trip.startTime = "07:50:00"  // T1 does not, F1's 07:00-08:00 window does
        var none = byRoute
        none.trip.startTime = "12:34:00"
        let snapshot = try RealtimeSnapshot(messages: [try message("2026-03-10T08:55", [byRoute, twoAtEight, none])], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 2, "\(snapshot.report.unmatched)")
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), [.notRunning])
        let call = try board("S1", "2026-03-10T08:59", snapshot, now: "2026-03-10T08:56").departures.first { $0.scheduled.tripID == "L1" }
        XCTAssertEqual(call?.delay, 45)
        let frequency = try board("S1", "2026-03-10T07:45", snapshot, now: "2026-03-10T08:56", minutes: 10).departures
        XCTAssertEqual(frequency.filter { $0.state == .updated }.map(\.scheduled.departureLocal.secondsOfDay), [7 * 3600 + 50 * 60])
    }

    func testAnEntityWithATripUpdateAndAVehicleGivesBoth() throws {
        var both = entity("both", update("T1", date: "20260310", [(1, "S1", 60, false)]))
        both.vehicle.trip = both.tripUpdate.trip
        both.vehicle.vehicle.id = "bus-7"
        both.vehicle.position.latitude = 48.005
        both.vehicle.position.longitude = 7.005
        let feed = try feedMessage("2026-03-10T07:58", [both])
        let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(data: try feed.serializedData())], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 1)
        XCTAssertEqual(snapshot.report.vehiclesMatched, 1)
        let call = try board("S1", "2026-03-10T07:59", snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(call?.delay, 60)
        XCTAssertEqual(call?.vehicle?.vehicleID, "bus-7")
    }

    /// An entity whose bytes do not decode (a cut varint; an entity without its required
    /// id) is reported with its place in the message; the entities around it still apply.
    func testAMalformedEntityIsReportedAndTheOthersApply() throws {
        let good = try message("2026-03-10T07:58", [update("T1", date: "20260310", [(1, "S1", 60, false)])])
        var feed = try feedMessage("2026-03-10T07:58", [entity("first", update("T1", date: "20260310", [(1, "S1", 60, false)]))])
        let last = entity("last", update("N1", date: "20260310", [(2, "S2", 120, false)]))
        let noID = entity(nil, update("L1", date: "20260310"))
        var bytes = try feed.serializedData()
        // Field 2 (an entity), 2 bytes long, holding a varint key cut short.
        bytes.append(contentsOf: [0x12, 0x02, 0xFF, 0xFF])
        let withoutID = try noID.serializedData(partial: true)
        bytes.append(contentsOf: [0x12, UInt8(withoutID.count)] + withoutID)
        feed.entity = [last]
        bytes.append(contentsOf: try feed.serializedData().dropFirst(try feed.header.serializedData().count + 2))
        let message = try RealtimeMessage(data: bytes)
        XCTAssertEqual(message.entityCount, 4)
        let snapshot = try RealtimeSnapshot(messages: [message], bundle: bundle)
        XCTAssertEqual(snapshot.report.entities, 4)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 2)
        XCTAssertEqual(snapshot.report.unmatched.map(\.entityID), ["#2", "#3"])
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), [.malformedEntity, .malformedEntity])
        // swift-protobuf's word for the cut key; the missing id is named.
        XCTAssertEqual(snapshot.report.unmatched.map(\.detail), ["the bytes are not protobuf", "a required field is missing"])
        // The good entities give what they give alone.
        let alone = try RealtimeSnapshot(messages: [good], bundle: bundle)
        let call = try board("S1", "2026-03-10T07:59", snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "T1" }
        let callAlone = try board("S1", "2026-03-10T07:59", alone, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(call?.delay, 60)
        XCTAssertEqual(call?.predictedDeparture, callAlone?.predictedDeparture)
    }

    /// A stop time update that assigns another stop (a platform change) shows it on the
    /// board; a stop updated twice takes its first update, platform included.
    func testAnAssignedStopIsShownFromTheStopsFirstUpdate() throws {
        var platform = update("T1", date: "20260310", [(1, "S1", 60, false), (2, "S2", 60, false), (2, "S2", 90, false)])
        platform.stopTimeUpdate[0].stopTimeProperties.assignedStopID = "S1-quay-B"
        platform.stopTimeUpdate[2].stopTimeProperties.assignedStopID = "S2-quay-C"
        let snapshot = try RealtimeSnapshot(messages: [try message("2026-03-10T07:58", [platform])], bundle: bundle)
        let atS1 = try board("S1", "2026-03-10T07:59", snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(atS1?.assignedStopID, "S1-quay-B")
        XCTAssertEqual(atS1?.delay, 60)
        let atS2 = try board("S2", "2026-03-10T08:09", snapshot, now: "2026-03-10T07:59").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(atS2?.delay, 60)
        XCTAssertNil(atS2?.assignedStopID)
    }

    /// Fields the proto marks required, on each kind of entity: a trip update without its
    /// trip and a vehicle position without its latitude are left out and named; a trip
    /// update with its trip applies.
    func testAnEntityWithoutARequiredFieldIsLeftOut() throws {
        var withoutTrip = TransitRealtime_FeedEntity()
        withoutTrip.id = "no-trip"
        withoutTrip.tripUpdate.stopTimeUpdate = update("T1", [(1, "S1", 60, false)]).stopTimeUpdate
        var withoutLatitude = TransitRealtime_FeedEntity()
        withoutLatitude.id = "no-latitude"
        withoutLatitude.vehicle.trip.tripID = "T1"
        withoutLatitude.vehicle.position.longitude = 7.005
        let feed = try feedMessage(
            "2026-03-10T07:58", [withoutTrip, withoutLatitude, entity("good", update("T1", date: "20260310", [(1, "S1", 60, false)]))])
        let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(data: try feed.serializedData(partial: true))], bundle: bundle)
        XCTAssertEqual(snapshot.report.entities, 3)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 1)
        XCTAssertEqual(snapshot.report.unmatched.map(\.entityID), ["#1", "#2"])
        XCTAssertEqual(snapshot.report.unmatched.map(\.detail), ["a required field is missing", "a required field is missing"])
    }

    /// The top level is read by hand: a message cut anywhere, or with a group or an unknown
    /// wire type, is not a message; unknown fields of known wire types are skipped.
    func testTheMessageFramingRefusesCutsAndSkipsUnknownFields() throws {
        var feed = try feedMessage("2026-03-10T07:58", [entity("e", update("T1", date: "20260310")), entity("f", update("N1"))])
        feed.header.timestamp = 1_700_000_000
        let whole = try feed.serializedData()
        XCTAssertEqual(try RealtimeMessage(data: whole).entityCount, 2)
        // Cut inside the last entity: refused, never a crash.
        XCTAssertThrowsError(try RealtimeMessage(data: whole.prefix(whole.count - 1))) { error in
            XCTAssertEqual(error as? RealtimeError, .notAMessage("the bytes end inside a field"))
        }
        // Field 9 as a varint, a fixed64, a fixed32 and bytes (an extension or a newer field): skipped.
        var extended = whole
        extended.append(contentsOf: [0x48, 0x96, 0x01, 0x49] + [UInt8](repeating: 7, count: 8) + [0x4D, 1, 2, 3, 4, 0x4A, 0x01, 0x00])
        let read = try RealtimeMessage(data: extended)
        XCTAssertEqual(read.entityCount, 2)
        XCTAssertEqual(read.timestamp, Date(timeIntervalSince1970: 1_700_000_000))
        // A group (wire type 3) at the top level is not GTFS-Realtime.
        XCTAssertThrowsError(try RealtimeMessage(data: whole + [0x4B])) { error in
            XCTAssertEqual(error as? RealtimeError, .notAMessage("the bytes are not protobuf"))
        }
        // A slice of a larger buffer (its indices do not start at 0) reads the same.
        let padded = Data([0, 0, 0]) + whole
        XCTAssertEqual(try RealtimeMessage(data: padded.dropFirst(3)).entityCount, 2)
    }
}
