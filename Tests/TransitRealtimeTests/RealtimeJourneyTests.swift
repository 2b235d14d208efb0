import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// Journeys on live times (JourneyTests' feed): a cancelled trip is not ridden, a delay
/// moves the connections it makes, a skipped stop is not a boarding point, and a stale
/// snapshot leaves the timetable's answer.
final class RealtimeJourneyTests: XCTestCase {
    /// 2026-03-10T08:00:00+01:00, the messages' header time.
    static let messageTime: UInt64 = 1_773_126_000

    /// A trip-updates message at `messageTime`: one entity per trip of 2026-03-10, changed by
    /// its closure.
    static func message(_ updates: [(trip: String, change: (inout TransitRealtime_TripUpdate) -> Void)]) throws -> Data {
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = messageTime
        feed.entity = updates.map { update in
            var entity = TransitRealtime_FeedEntity()
            entity.id = update.trip
            entity.tripUpdate.trip.tripID = update.trip
            entity.tripUpdate.trip.startDate = "20260310"
            update.change(&entity.tripUpdate)
            return entity
        }
        return try feed.serializedData()
    }

    private func snapshot(_ bundle: TransitBundle, _ updates: [(trip: String, change: (inout TransitRealtime_TripUpdate) -> Void)]) throws
        -> RealtimeSnapshot
    {
        try RealtimeSnapshot(messages: [try RealtimeMessage(data: try Self.message(updates))], bundle: bundle)
    }

    private let now = Date(timeIntervalSince1970: TimeInterval(messageTime + 60))

    private func plan(_ bundle: TransitBundle, _ live: RealtimeSnapshot, now: Date? = nil) throws -> [String] {
        journeySummary(
            try bundle.journeys(
                from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T07:55"), realtime: live, now: now ?? self.now
            ))
    }

    private func bundle() throws -> TransitBundle { try TransitBundle(path: try XCTUnwrap(TestSupport.compile(TestFeeds.journeys).bundle)) }

    func testACancelledTripIsNotRidden() throws {
        let b = try bundle()
        let live = try snapshot(b, [("R4a", { $0.trip.scheduleRelationship = .canceled })])
        XCTAssertEqual(try plan(b, live), ["2: R1a R2a 08:00-08:30", "1: R3a 08:05-09:10"])
        // Arriving by 08:30, the two-ride journey through B is the one left.
        let arriving = try b.journeys(
            from: .stop("A"), to: .stop("D"), arrivingBy: try QueryTime.parse("2026-03-10T08:30"), realtime: live, now: now)
        XCTAssertEqual(journeySummary(arriving), ["2: R1a R2a 08:00-08:30"])
    }

    /// A trip update 5 minutes late from stop_sequence 2 on.
    private static func fiveMinutesLateFromB(_ update: inout TransitRealtime_TripUpdate) {
        var late = TransitRealtime_TripUpdate.StopTimeUpdate()
        late.stopSequence = 2
        late.arrival.delay = 300
        late.departure.delay = 300
        update.stopTimeUpdate = [late]
    }

    func testADelayMovesTheConnectionsItMakes() throws {
        let b = try bundle()
        // R1a 5 minutes late from B (sequence 2) on: 08:15 at B misses R2a and R4a.
        let live = try snapshot(b, [("R1a", Self.fiveMinutesLateFromB)])
        let journeys = try b.journeys(
            from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T07:55"), realtime: live, now: now)
        XCTAssertEqual(journeySummary(journeys), ["2: R1a R2b 08:00-08:57", "1: R3a 08:05-09:10"])
        let ride = try XCTUnwrap(journeys.first?.legs.first)
        XCTAssertEqual(ride.arrivalLocal.description, "2026-03-10T08:15:00+01:00", "the predicted arrival")
        XCTAssertEqual(ride.alighting?.arrivalLocal.description, "2026-03-10T08:10:00+01:00", "the board's scheduled call")
    }

    /// A snapshot matched against one version of the bundle and asked for journeys on
    /// another (an app that opened a newer bundle before the next message): the trips are
    /// found again by their ids there, and ride the same live times.
    func testASnapshotHoldsOnAnotherVersionOfTheBundle() throws {
        let old = try bundle()
        var feed = TestFeeds.journeys
        // A trip first in the file and first by id: the later trips' numbers move on.
        feed["trips.txt"] = feed["trips.txt"]!!.replacingOccurrences(of: "trip_id\n", with: "trip_id\nR3,D,R0a\n")
        feed["stop_times.txt"] = feed["stop_times.txt"]!!.replacingOccurrences(
            of: "stop_sequence\n", with: "stop_sequence\nR0a,06:00:00,06:00:00,C,1\nR0a,06:10:00,06:10:00,A,2\n")
        let new = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(feed).bundle))
        XCTAssertNotEqual(try old.tripSchedule("R1a").tid, try new.tripSchedule("R1a").tid, "the trip is numbered otherwise")
        // R1a 5 minutes late from B on, as in testADelayMovesTheConnectionsItMakes.
        let live = try snapshot(old, [("R1a", Self.fiveMinutesLateFromB)])
        for bundle in [old, new, old] {
            XCTAssertEqual(try plan(bundle, live), ["2: R1a R2b 08:00-08:57", "1: R3a 08:05-09:10"], bundle.path)
        }
    }

    /// Delays at the ends of what a message can say (int32's least and greatest, a time
    /// far away): journeys both ways are planned without a trap (`Int32.min` once could
    /// not be negated for the arrive-by search), each leg after the one before it.
    func testExtremeDelaysArePlannedWithoutATrap() throws {
        let b = try bundle()
        for (delay, time) in [(Int32.min, Int64?.none), (Int32.max, nil), (-1, Int64(Int32.max) * 4), (0, 0)] {
            let live = try snapshot(
                b,
                ["R1a", "R2a", "R3a"].map { trip in
                    (
                        trip,
                        {
                            var update = TransitRealtime_TripUpdate.StopTimeUpdate()
                            update.stopSequence = 2
                            if let time { update.arrival.time = time } else { update.arrival.delay = delay }
                            update.departure.delay = delay
                            $0.stopTimeUpdate = [update]
                        }
                    )
                })
            let at = try QueryTime.parse("2026-03-10T07:55")
            let departing = try b.journeys(from: .stop("A"), to: .stop("D"), departingAt: at, realtime: live, now: now)
            let arriving = try b.journeys(
                from: .stop("A"), to: .stop("D"), arrivingBy: try QueryTime.parse("2026-03-10T10:00"), realtime: live, now: now)
            for journey in departing + arriving {
                for (leg, next) in zip(journey.legs, journey.legs.dropFirst()) {
                    XCTAssertLessThanOrEqual(leg.arrival, next.departure, "delay \(delay), time \(String(describing: time))")
                }
            }
        }
    }

    func testASkippedStopIsNoBoardingPoint() throws {
        let b = try bundle()
        let live = try snapshot(
            b,
            [
                (
                    "R4a",
                    {
                        var skip = TransitRealtime_TripUpdate.StopTimeUpdate()
                        skip.stopSequence = 1
                        skip.scheduleRelationship = .skipped
                        $0.stopTimeUpdate = [skip]
                    }
                )
            ])
        XCTAssertEqual(try plan(b, live), ["2: R1a R2a 08:00-08:30", "1: R3a 08:05-09:10"])
    }

    /// Stop time updates at `calls` (stop, local time of 2026-03-10, +01:00) with absolute times.
    private static func calls(_ calls: [(stop: String, time: String)]) throws -> [TransitRealtime_TripUpdate.StopTimeUpdate] {
        try calls.map { call in
            var update = TransitRealtime_TripUpdate.StopTimeUpdate()
            update.stopID = call.stop
            let date = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-03-10T\(call.time):00+01:00"))
            let instant = Int64(date.timeIntervalSince1970)
            update.arrival.time = instant
            update.departure.time = instant
            return update
        }
    }

    func testAnAddedTripIsRiddenBothWays() throws {
        let b = try bundle()
        let calls = try Self.calls([("A", "08:02"), ("B", "08:09"), ("D", "08:20")])
        let live = try snapshot(
            b,
            [
                (
                    "X1",
                    {
                        $0.trip.scheduleRelationship = .new
                        $0.trip.routeID = "R3"
                        $0.stopTimeUpdate = calls
                    }
                )
            ])
        let journeys = try b.journeys(
            from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T07:55"), realtime: live, now: now)
        XCTAssertEqual(journeySummary(journeys), ["1: X1 08:02-08:20"], "it beats every timetable journey")
        let ride = try XCTUnwrap(journeys.first?.legs.first)
        XCTAssertEqual(ride.boarding?.routeShortName, "3")
        XCTAssertEqual(ride.boarding?.stopSequence, 1)
        XCTAssertEqual(ride.alighting?.stopID, "D")
        XCTAssertEqual(ride.alighting?.departureLocal.description, "2026-03-10T08:20:00+01:00", "alighting at its arrival")
        XCTAssertEqual(
            journeySummary(
                try b.journeys(
                    from: .stop("A"), to: .stop("D"), arrivingBy: try QueryTime.parse("2026-03-10T08:30"), realtime: live, now: now)),
            ["1: X1 08:02-08:20"], "arriving by: the latest departure")
        // From B, between its calls: boarded at its second call.
        XCTAssertEqual(
            journeySummary(
                try b.journeys(
                    from: .stop("B"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T08:05"), realtime: live, now: now)),
            ["1: X1 08:09-08:20"])
        // Without the snapshot (or with a wheelchair search) the timetable's answer.
        XCTAssertEqual(
            journeySummary(try b.journeys(from: .stop("A"), to: .stop("D"), departingAt: try QueryTime.parse("2026-03-10T07:55"))),
            ["2: R1a walk R4a 08:00-08:25", "1: R3a 08:05-09:10"])
    }

    func testADuplicatedTripAndAReplacementAreRidden() throws {
        let b = try bundle()
        let replaced = try Self.calls([("B2", "08:14"), ("D", "08:22")])
        let live = try snapshot(
            b,
            [
                (
                    "R3a",
                    {
                        $0.trip.scheduleRelationship = .duplicated
                        $0.tripProperties.tripID = "R3a-early"
                        $0.tripProperties.startDate = "20260310"
                        $0.tripProperties.startTime = "07:58:00"
                    }
                ),
                (
                    "R4a",
                    {
                        $0.trip.scheduleRelationship = .replacement
                        $0.stopTimeUpdate = replaced
                    }
                ),
            ])
        XCTAssertEqual(live.report.tripUpdatesMatched, 2, "\(live.report.unmatched)")
        XCTAssertEqual(try plan(b, live), ["2: R1a walk R4a 08:00-08:22", "1: R3a-early 07:58-09:03"])
    }

    /// Ties on live times (TestFeeds.tieJourneys): a trip the snapshot cancels, or a stop it
    /// skips, is in no tied journey. With `a` and `a1` cancelled the ties go to `b` and to
    /// (b1, a2); with S1 skipped on `t2` the change is at S2.
    func testTiesAreBrokenAmongTheTripsThatRunLive() throws {
        let b = try TransitBundle(path: try XCTUnwrap(TestSupport.compile(TestFeeds.tieJourneys).bundle))
        var skipS1 = TransitRealtime_TripUpdate.StopTimeUpdate()
        skipS1.stopSequence = 2
        skipS1.scheduleRelationship = .skipped
        let live = try snapshot(
            b,
            [
                ("a", { $0.trip.scheduleRelationship = .canceled }), ("a1", { $0.trip.scheduleRelationship = .canceled }),
                ("t2", { $0.stopTimeUpdate = [skipS1] }),
            ])
        let at = try QueryTime.parse("2026-03-10T07:55")
        for (from, to, expected, legs) in [
            ("P", "Q", "1: b 08:00-08:30", "P>Q"), ("O", "D", "2: b1 a2 08:00-08:40", "O>X X>D"),
            ("K", "E", "2: t1 t2 08:00-08:40", "K>S2 S2>E"),
        ] {
            let journeys = try b.journeys(from: .stop(from), to: .stop(to), departingAt: at, realtime: live, now: now)
            XCTAssertEqual(journeySummary(journeys), [expected], "\(from) -> \(to)")
            XCTAssertEqual(
                journeys.map { $0.legs.map { "\($0.fromStopID ?? "-")>\($0.toStopID ?? "-")" }.joined(separator: " ") }, [legs],
                "\(from) -> \(to)")
            let arriving = try b.journeys(
                from: .stop(from), to: .stop(to), arrivingBy: try QueryTime.parse("2026-03-10T08:45"), realtime: live, now: now)
            XCTAssertEqual(journeySummary(arriving), [expected], "\(from) -> \(to) arriving")
        }
    }

    func testAStaleSnapshotLeavesTheTimetablesAnswer() throws {
        let b = try bundle()
        let live = try snapshot(b, [("R4a", { $0.trip.scheduleRelationship = .canceled })])
        let later = now.addingTimeInterval(3600)
        XCTAssertEqual(try plan(b, live, now: later), ["2: R1a walk R4a 08:00-08:25", "1: R3a 08:05-09:10"])
    }
}
