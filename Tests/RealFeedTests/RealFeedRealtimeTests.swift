import Foundation
import TestKit
import TransitRealtime
import TransitRuntime
import XCTest

/// Generated GTFS-Realtime messages on real feeds, checked against an independent reading:
/// the feed files read by `ReferenceTimetable` and the propagation rules written out again
/// here (docs/realtime-semantics.md), sharing no code with TransitRealtime. Each sampled
/// call's live departure must be the one the rules give, a skipped call must be gone.
final class RealFeedRealtimeTests: XCTestCase {
    private enum Kind {
        case delay(Int)
        case skipped, noData
    }

    func testGeneratedUpdatesAgreeWithTheRulesOnRealFeeds() throws {
        try RealFeeds.requireShared()
        var checked = 0
        for name in ["bart", "ct", "kaunas", "mnr-metro-north", "cts-strasbourg"] where RealFeeds.names.contains(name) {
            checked += try check(name)
        }
        XCTAssertGreaterThan(checked, 1000, "calls compared")
    }

    private func check(_ name: String) throws -> Int {
        let reference = try ReferenceTimetable(zip: RealFeeds.folder.appendingPathComponent(name + ".zip").path)
        let bundle = try RealFeeds.bundle(name).bundle
        let seed = UInt64(name.utf8.reduce(11) { $0 &* 131 &+ Int($1) }.magnitude)
        var random = SplitMix64(state: seed)
        // The day of the feed's sample days on which most trips run.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = reference.timeZone
        // The conformance tests' days (a clock change among them) and every third day of the
        // first 90 of the timetable.
        var days = try RealFeedConformanceTests.days(try bundle.info().feeds[0], reference.timeZone)
        let first = try XCTUnwrap(days.first)
        let origin = try XCTUnwrap(calendar.date(from: DateComponents(year: first.0, month: first.1, day: first.2 - 9)))
        for offset in stride(from: 0, to: 90, by: 3) {
            let date = calendar.date(byAdding: .day, value: offset, to: origin)!
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            days.append((parts.year!, parts.month!, parts.day!))
        }
        func running(_ day: (Int, Int, Int)) -> [ReferenceTimetable.Trip] {
            let date = String(format: "%04d%02d%02d", day.0, day.1, day.2)
            let weekday =
                (calendar.component(.weekday, from: calendar.date(from: DateComponents(year: day.0, month: day.1, day: day.2))!) + 5) % 7
            return reference.trips.values.filter {
                reference.frequencies[$0.id] == nil && $0.stopTimes.count >= 3 && reference.runs($0.service, on: date, weekday: weekday)
            }.sorted { $0.id < $1.id }
        }
        let day = try XCTUnwrap(days.max { running($0).count < running($1).count })
        let trips = running(day)
        guard !trips.isEmpty else {
            XCTFail("\(name): no trip with its own times runs on any of \(days)")
            return 0
        }
        let startDate = String(format: "%04d%02d%02d", day.0, day.1, day.2)
        let dayStart = reference.dayStart(day.0, day.1, day.2)

        // A message: 150 trips, each with one to three updates at random stops.
        var plans: [(trip: ReferenceTimetable.Trip, updates: [Int: Kind])] = []
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = UInt64(dayStart + 12 * 3600)
        for _ in 0..<150 {
            let trip = trips[Int.random(in: 0..<trips.count, using: &random)]
            guard !plans.contains(where: { $0.trip.id == trip.id }) else { continue }
            var updates: [Int: Kind] = [:]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<trip.stopTimes.count, using: &random)
                let roll = Int.random(in: 0..<20, using: &random)
                updates[index] = roll < 14 ? .delay(Int.random(in: -120...900, using: &random)) : roll < 17 ? .skipped : .noData
            }
            var entity = TransitRealtime_FeedEntity()
            entity.id = trip.id
            entity.tripUpdate.trip.tripID = trip.id
            entity.tripUpdate.trip.startDate = startDate
            entity.tripUpdate.stopTimeUpdate = updates.keys.sorted().map { index in
                var update = TransitRealtime_TripUpdate.StopTimeUpdate()
                update.stopSequence = UInt32(trip.stopTimes[index].sequence)
                update.stopID = trip.stopTimes[index].stop
                switch updates[index]! {
                case .delay(let seconds):
                    update.arrival.delay = Int32(seconds)
                    update.departure.delay = Int32(seconds)
                case .skipped: update.scheduleRelationship = .skipped
                case .noData: update.scheduleRelationship = .noData
                }
                return update
            }
            feed.entity.append(entity)
            plans.append((trip, updates))
        }
        let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(data: try feed.serializedData())], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, plans.count, "\(name): \(snapshot.report.unmatched.prefix(3))")
        let now = Date(timeIntervalSince1970: TimeInterval(feed.header.timestamp))

        var compared = 0
        for (trip, updates) in plans {
            let expected = Self.expectedDepartures(trip, updates, dayStart: dayStart)
            for index in 0..<(trip.stopTimes.count - 1) where trip.stopTimes[index].pickup != 1 {
                let call = trip.stopTimes[index]
                let scheduled = dayStart + call.departure
                let shown = expected[index] ?? scheduled
                let board = try bundle.departures(
                    from: call.stop, at: .instant(Date(timeIntervalSince1970: TimeInterval(min(shown, scheduled) - 60))),
                    within: TimeInterval(abs(shown - scheduled) + 120), limit: 100_000, realtime: snapshot, now: now)
                let found = board.departures.filter { $0.scheduled.tripID == trip.id && $0.scheduled.stopSequence == call.sequence }
                if case .skipped = updates[index] {
                    XCTAssertTrue(found.isEmpty, "\(name) \(trip.id) #\(call.sequence): skipped, yet on the board")
                } else {
                    XCTAssertEqual(found.count, 1, "\(name) \(trip.id) #\(call.sequence)")
                    XCTAssertEqual(
                        found.first.map { Int($0.departure.timeIntervalSince1970) }, shown, "\(name) \(trip.id) #\(call.sequence)")
                    XCTAssertEqual(found.first?.isRealtime, expected[index] != nil, "\(name) \(trip.id) #\(call.sequence)")
                }
                compared += 1
            }
        }
        print("\(name): \(plans.count) trips, \(compared) calls compared on \(startDate), \(snapshot.report.clamps) clamps")
        return compared
    }

    /// The rules, read again: each stop's predicted departure (Unix time), nil without one.
    private static func expectedDepartures(_ trip: ReferenceTimetable.Trip, _ updates: [Int: Kind], dayStart: Int) -> [Int?] {
        var delay: Int?
        var silent = false
        var latest = Int.min
        var result: [Int?] = []
        for (index, call) in trip.stopTimes.enumerated() {
            let arrival = dayStart + call.arrival
            let departure = dayStart + call.departure
            switch updates[index] {
            case .noData?:
                silent = true
                delay = nil
            case .delay(let seconds)?:
                silent = false
                delay = seconds
            case .skipped?:
                result.append(nil)
                continue
            case nil: break
            }
            guard let delay, !silent else {
                result.append(nil)
                latest = max(latest, departure)
                continue
            }
            let predictedArrival = max(arrival + delay, latest)
            let predictedDeparture = max(departure + delay, predictedArrival)
            latest = predictedDeparture
            result.append(predictedDeparture)
        }
        return result
    }
}
