import Foundation
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// The rules where the GTFS-Realtime reference speaks and the first release read it
/// otherwise (docs/realtime-semantics.md): a duplicated trip's delays, NO_DATA then an
/// update, early predictions, the trip-level delay, a vehicle's own timestamp and headers
/// from the future, on `RealtimeRuleTests`'s feed; matching by route, direction and start
/// time and exact_times grids on a feed whose routes share a stop pattern. Each expected
/// board is written out from the reference's words, quoted beside it.
extension RealtimeRuleTests {
    /// Routes R and Q share the stops S1-S2-S3 (one pattern); R also runs S3-S2-S1.
    /// E1 (R, direction 0): exact_times=1 every 10 minutes 10:00-11:00; H1 (R, direction 1):
    /// headway-based every 15 minutes 10:00-12:00; Q1 (Q) and R31 (R, direction 1) leave at 10:31.
    private static let sharedPatternBundle: String = {
        let result = TestSupport.compile([
            "routes.txt": "route_id,route_short_name,route_type\nR,1,3\nQ,2,3\n",
            "trips.txt": "route_id,service_id,trip_id,direction_id\nR,D,T1,0\nQ,D,Q1,0\nR,D,R31,1\nR,D,E1,0\nR,D,H1,1\n",
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:10:00,08:10:00,S2,2
            T1,08:20:00,08:20:00,S3,3
            Q1,10:31:00,10:31:00,S1,1
            Q1,10:41:00,10:41:00,S2,2
            Q1,10:51:00,10:51:00,S3,3
            R31,10:31:00,10:31:00,S3,1
            R31,10:41:00,10:41:00,S2,2
            R31,10:51:00,10:51:00,S1,3
            E1,10:00:00,10:00:00,S1,1
            E1,10:05:00,10:05:00,S2,2
            E1,10:10:00,10:10:00,S3,3
            H1,10:00:00,10:00:00,S3,1
            H1,10:05:00,10:05:00,S2,2
            H1,10:10:00,10:10:00,S1,3

            """,
            "frequencies.txt": """
            trip_id,start_time,end_time,headway_secs,exact_times
            E1,10:00:00,11:00:00,600,1
            H1,10:00:00,12:00:00,900,0

            """,
        ])
        return result.bundle!
    }()

    private func liveSnapshot(_ header: String, _ updates: [TransitRealtime_TripUpdate], now: String? = nil) throws -> RealtimeSnapshot {
        try RealtimeSnapshot(
            messages: [try message(header, updates)], bundle: bundle, now: try instant(now ?? header))
    }

    private func call(_ trip: String, at stop: String, _ at: String, _ snapshot: RealtimeSnapshot, now: String) throws -> LiveDeparture? {
        try board(stop, at, snapshot, now: now).departures.first { $0.scheduled.tripID == trip }
    }

    /// A stop time update with a departure `delay` (and the same arrival delay), or NO_DATA.
    private func stop(_ sequence: Int, delay: Int? = nil, noData: Bool = false) -> TransitRealtime_TripUpdate.StopTimeUpdate {
        var update = TransitRealtime_TripUpdate.StopTimeUpdate()
        update.stopSequence = UInt32(sequence)
        if let delay {
            update.arrival.delay = Int32(delay)
            update.departure.delay = Int32(delay)
        }
        if noData { update.scheduleRelationship = .noData }
        return update
    }

    private func tripUpdate(_ trip: String, date: String = "20260310", _ stops: [TransitRealtime_TripUpdate.StopTimeUpdate])
        -> TransitRealtime_TripUpdate
    {
        var update = TransitRealtime_TripUpdate()
        update.trip.tripID = trip
        update.trip.startDate = date
        update.stopTimeUpdate = stops
        return update
    }

    // MARK: - 1. DUPLICATED with a stop time update

    /// "Real-time prediction delay values are applied to this calculated schedule time":
    /// T1 copied to 08:12 is scheduled at S2 at 08:22; +4 min there is 08:26, state updated,
    /// shown once (scheduled 08:22, delay +240 s). S1, with no delay, is `duplicated`.
    func testADuplicatedTripsDelayAppliesToItsCalculatedSchedule() throws {
        var copy = tripUpdate("T1", [stop(2, delay: 240)])
        copy.trip.scheduleRelationship = .duplicated
        copy.tripProperties.tripID = "T1-copy"
        copy.tripProperties.startDate = "20260310"
        copy.tripProperties.startTime = "08:12:00"
        let snapshot = try liveSnapshot("2026-03-10T08:05", [copy])
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 1, "\(snapshot.report.unmatched)")
        let atS2 = try XCTUnwrap(try call("T1-copy", at: "S2", "2026-03-10T08:15", snapshot, now: "2026-03-10T08:06"))
        XCTAssertEqual(atS2.scheduled.departure, try instant("2026-03-10T08:22"))
        XCTAssertEqual(atS2.predictedDeparture, try instant("2026-03-10T08:26"))
        XCTAssertEqual(atS2.delay, 240)
        XCTAssertEqual(atS2.state, .updated)
        let atS1 = try XCTUnwrap(try call("T1-copy", at: "S1", "2026-03-10T08:05", snapshot, now: "2026-03-10T08:06"))
        XCTAssertEqual(atS1.scheduled.departure, try instant("2026-03-10T08:12"))
        XCTAssertEqual(atS1.departure, try instant("2026-03-10T08:12"))
        XCTAssertEqual(atS1.state, .duplicated)
        XCTAssertNil(atS1.delay)
    }

    // MARK: - 2. NO_DATA, then an update

    /// The reference's example gives the stops of an update after NO_DATA their own delay:
    /// T1 +25 min at S1 (08:25), NO_DATA at S2, on time at S3 shows S3 at 08:20, not raised
    /// to 08:25. Without the NO_DATA, S2 carries +25 min (08:35) and S3 is raised to it.
    func testAnUpdateAfterNoDataHasItsOwnDelay() throws {
        let after = try liveSnapshot(
            "2026-03-10T07:55", [tripUpdate("T1", [stop(1, delay: 1500), stop(2, noData: true), stop(3, delay: 0)])])
        let s3 = try XCTUnwrap(
            try bundle.arrivals(
                to: ["S3"], at: try QueryTime.parse("2026-03-10T08:00"), within: 3600, realtime: after,
                now: try instant("2026-03-10T07:56")
            ).departures.first { $0.scheduled.tripID == "T1" })
        XCTAssertEqual(s3.predictedArrival, try instant("2026-03-10T08:20"))
        XCTAssertEqual(s3.delay, 0)
        XCTAssertEqual(after.report.clamps, 0)
        XCTAssertEqual(try call("T1", at: "S2", "2026-03-10T08:00", after, now: "2026-03-10T07:56")?.state, .noData)
        let without = try liveSnapshot("2026-03-10T07:55", [tripUpdate("T1", [stop(1, delay: 1500), stop(3, delay: 0)])])
        let raised = try XCTUnwrap(
            try bundle.arrivals(
                to: ["S3"], at: try QueryTime.parse("2026-03-10T08:00"), within: 3600, realtime: without,
                now: try instant("2026-03-10T07:56")
            ).departures.first { $0.scheduled.tripID == "T1" })
        XCTAssertEqual(raised.predictedArrival, try instant("2026-03-10T08:35"))
        XCTAssertEqual(without.report.clamps, 2, "its arrival, then its departure to that arrival")
    }

    // MARK: - 6. Early predictions

    /// "predicted at 10:18am (scheduled at 10:20am, 2 min early)": a prediction earlier than
    /// the previous stop's *scheduled* time (S1 08:00, no prediction) stays: S2 at 07:58.
    func testAnEarlyPredictionIsNotRaisedToTheScheduleOfStopsWithoutOne() throws {
        let snapshot = try liveSnapshot("2026-03-10T07:50", [tripUpdate("T1", [stop(2, delay: -720)])])
        let s2 = try XCTUnwrap(try call("T1", at: "S2", "2026-03-10T07:50", snapshot, now: "2026-03-10T07:51"))
        XCTAssertEqual(s2.predictedDeparture, try instant("2026-03-10T07:58"))
        XCTAssertEqual(s2.delay, -720)
        XCTAssertEqual(snapshot.report.clamps, 0)
        XCTAssertEqual(try call("T1", at: "S1", "2026-03-10T07:50", snapshot, now: "2026-03-10T07:51")?.state, .scheduled)
    }

    // MARK: - 7. TripUpdate.delay

    /// "trip-level delay is only propagated until the next stop along the trip with a
    /// StopTimeUpdate delay value specified": +2 min from S1, +5 min from S3's update on;
    /// L1 with a trip delay of -1 min and no stop time update: every call a minute early.
    /// The report says the trip delay was used.
    func testATripLevelDelayHoldsUntilTheFirstStopTimeUpdate() throws {
        var update = tripUpdate("T1", [stop(3, delay: 300)])
        update.delay = 120
        var alone = tripUpdate("L1", [])
        alone.delay = -60
        let snapshot = try liveSnapshot("2026-03-10T07:50", [update, alone])
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 2, "\(snapshot.report.unmatched)")
        XCTAssertEqual(try call("T1", at: "S1", "2026-03-10T07:50", snapshot, now: "2026-03-10T07:51")?.delay, 120)
        XCTAssertEqual(try call("T1", at: "S2", "2026-03-10T07:50", snapshot, now: "2026-03-10T07:51")?.delay, 120)
        let s3 = try bundle.arrivals(
            to: ["S3"], at: try QueryTime.parse("2026-03-10T08:00"), within: 3600, realtime: snapshot,
            now: try instant("2026-03-10T07:51")
        ).departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(s3?.delay, 300)
        let l1 = try XCTUnwrap(try call("L1", at: "S2", "2026-03-10T09:00", snapshot, now: "2026-03-10T07:51"))
        XCTAssertEqual(l1.predictedDeparture, try instant("2026-03-10T09:09"))
        XCTAssertEqual(snapshot.report.notes.map(\.reason), [.tripDelayUsed, .tripDelayUsed])
        XCTAssertEqual(snapshot.report.notes.map(\.tripID), ["T1", "L1"])
    }

    // MARK: - 4. A vehicle's own timestamp

    /// "Moment at which the vehicle's position was measured": a position measured 30
    /// minutes before `now` is not shown, though its message is a minute old; one measured
    /// a minute before is.
    func testAVehiclePositionMeasuredLongAgoIsNotShown() throws {
        func vehicleSnapshot(measured: String) throws -> RealtimeSnapshot {
            var entity = TransitRealtime_FeedEntity()
            entity.id = "v"
            entity.vehicle.trip.tripID = "T1"
            entity.vehicle.trip.startDate = "20260310"
            entity.vehicle.vehicle.id = "bus-7"
            entity.vehicle.timestamp = UInt64(try instant(measured).timeIntervalSince1970)
            let message = try RealtimeMessage(data: try feedMessage("2026-03-10T08:04", [entity]).serializedData())
            return try RealtimeSnapshot(messages: [message], bundle: bundle, now: try instant("2026-03-10T08:05"))
        }
        let old = try vehicleSnapshot(measured: "2026-03-10T07:35")
        XCTAssertEqual(old.report.vehiclesMatched, 1)
        XCTAssertNil(try call("T1", at: "S2", "2026-03-10T08:00", old, now: "2026-03-10T08:05")?.vehicle)
        let recent = try vehicleSnapshot(measured: "2026-03-10T08:04")
        XCTAssertEqual(try call("T1", at: "S2", "2026-03-10T08:00", recent, now: "2026-03-10T08:05")?.vehicle?.vehicleID, "bus-7")
    }

    // MARK: - 8. Headers from the future

    /// A header a year ahead of `now` is reported, its trips are matched at `now` (T1
    /// without start_date: today's run) and its data is as old as `now`, so it goes stale
    /// five minutes later like any other. A header 5 minutes ahead is within the allowance.
    func testAHeaderFromTheFutureIsMatchedAtNow() throws {
        var update = tripUpdate("T1", [stop(2, delay: 60)])
        update.trip.clearStartDate()
        let future = try liveSnapshot("2027-03-10T08:00", [update], now: "2026-03-10T07:58")
        XCTAssertEqual(future.report.notes.map(\.reason), [.headerFromTheFuture])
        XCTAssertEqual(future.tripUpdatesTime, try instant("2026-03-10T07:58"))
        XCTAssertEqual(try call("T1", at: "S2", "2026-03-10T08:00", future, now: "2026-03-10T07:59")?.delay, 60)
        XCTAssertEqual(
            try call("T1", at: "S2", "2026-03-10T08:00", future, now: "2026-03-10T08:04")?.state, .scheduled, "stale after 5 min")
        let skewed = try liveSnapshot("2026-03-10T08:03", [update], now: "2026-03-10T07:58")
        XCTAssertTrue(skewed.report.notes.isEmpty)
        XCTAssertEqual(skewed.tripUpdatesTime, try instant("2026-03-10T08:03"))
    }

    // MARK: - 3 and 5. By route, direction and start time; exact_times grids

    /// Only the route's own trips count (Q1 shares R's stops and leaves at 10:31: not R's);
    /// a trip scheduled to start at start_time is preferred to a headway-based window that
    /// holds it; an exact_times=1 instance is one on its grid.
    func testRouteDirectionAndStartTimeNameOneTripOfThatRoute() throws {
        let bundle = try TransitBundle(path: Self.sharedPatternBundle)
        func byRoute(_ route: String, direction: UInt32?, start: String) -> TransitRealtime_TripUpdate {
            var update = TransitRealtime_TripUpdate()
            update.trip.routeID = route
            if let direction { update.trip.directionID = direction }
            update.trip.startDate = "20260310"
            update.trip.startTime = start
            update.stopTimeUpdate = [stop(2, delay: 120)]
            return update
        }
        let updates = [
            byRoute("R", direction: 1, start: "10:31:00"),  // R31, not H1's window
            byRoute("R", direction: 0, start: "10:31:00"),  // none: Q1 is route Q, E1's grid is 10:30
            byRoute("R", direction: 0, start: "10:30:00"),  // E1's instance at 10:30
            byRoute("Q", direction: nil, start: "10:31:00"),  // Q1
        ]
        let message = try message("2026-03-10T10:20", updates)
        let snapshot = try RealtimeSnapshot(messages: [message], bundle: bundle, now: try instant("2026-03-10T10:21"))
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 3, "\(snapshot.report.unmatched)")
        XCTAssertEqual(snapshot.report.unmatched.map(\.entityID), ["e1"])
        XCTAssertEqual(snapshot.report.unmatched.first?.reason, .notRunning)
        let board = try bundle.departures(
            from: "S2", at: try QueryTime.parse("2026-03-10T10:30"), within: 1800, limit: 50, realtime: snapshot,
            now: try instant("2026-03-10T10:21"))
        let late = board.departures.filter { $0.delay == 120 }.map { "\($0.scheduled.tripID) \($0.scheduled.departureLocal.secondsOfDay)" }
        XCTAssertEqual(late.sorted(), ["E1 \(10 * 3600 + 35 * 60)", "Q1 \(10 * 3600 + 41 * 60)", "R31 \(10 * 3600 + 41 * 60)"])
    }

    /// "start_time must be some multiple of headway_secs later than frequencies.txt
    /// start_time": E1 at 10:35 is no instance (reported with its reason, never a silent
    /// loss); at 10:40 it is. Headway-based H1 takes any start in its window.
    func testAnExactTimesStartOffItsGridIsReported() throws {
        let bundle = try TransitBundle(path: Self.sharedPatternBundle)
        func instance(_ trip: String, _ start: String) -> TransitRealtime_TripUpdate {
            var update = tripUpdate(trip, [stop(2, delay: 60)])
            update.trip.startTime = start
            return update
        }
        let message = try message(
            "2026-03-10T10:20", [instance("E1", "10:35:00"), instance("E1", "10:40:00"), instance("H1", "10:37:00")])
        let snapshot = try RealtimeSnapshot(messages: [message], bundle: bundle, now: try instant("2026-03-10T10:21"))
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 2)
        let miss = try XCTUnwrap(snapshot.report.unmatched.first)
        XCTAssertEqual(miss.entityID, "e0")
        XCTAssertEqual(miss.reason, .startTimeOffGrid)
        XCTAssertEqual(miss.detail, "start_time 10:35:00 is not 10:00:00 + k x 600 s (exact_times=1, window 10:00:00-11:00:00)")
        let board = try bundle.departures(
            from: "S2", at: try QueryTime.parse("2026-03-10T10:40"), within: 900, limit: 50, realtime: snapshot,
            now: try instant("2026-03-10T10:21"))
        XCTAssertEqual(
            board.departures.filter { $0.scheduled.tripID == "E1" && $0.delay == 60 }.map(\.scheduled.departureLocal.secondsOfDay),
            [10 * 3600 + 45 * 60])
    }
}
