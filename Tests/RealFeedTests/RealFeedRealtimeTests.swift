import Foundation
import TestKit
import TransitRealtime
import TransitRuntime
import XCTest

/// Generated GTFS-Realtime messages on real feeds, checked against an independent reading:
/// the feed files read by `ReferenceTimetable` and docs/realtime-semantics.md
/// ("Matching a stop", "Propagation") coded again here in its own shape (the updates'
/// own times, then propagation, then the no-going-back rule, each a separate step), sharing
/// no code with TransitRealtime. The generated updates cover what the document names:
/// arrival and departure delays that differ, one of the two alone, absolute times, updates
/// matched by stop_sequence alone, stop_id alone or both, SKIPPED and NO_DATA. Every call
/// of every updated trip is checked: its state, live departure and arrival; a skipped call
/// must be on no board within two hours either side of its schedule.
final class RealFeedRealtimeTests: XCTestCase {
    /// One generated stop time update.
    private struct Update {
        enum Relationship { case scheduled, skipped, noData }
        /// An event as the message gives it: a delay, or an absolute time (Unix seconds).
        enum Event {
            case delay(Int)
            case time(Int)
        }
        var index: Int
        var relationship: Relationship
        var arrival: Event?
        var departure: Event?
        var sendsSequence: Bool
        var sendsStop: Bool
    }

    /// What the document says a call shows.
    private struct Expected {
        var state: LiveState
        var arrival: Int
        var departure: Int
        var predicted: Bool
    }

    func testGeneratedUpdatesAgreeWithTheRulesOnRealFeeds() throws {
        try RealFeeds.requireShared()
        var checked = 0
        for name in ["bart", "ct", "kaunas", "mnr-metro-north", "cts-strasbourg"] {
            guard RealFeeds.names.contains(name) else { throw TestPaths.missing("needs the real feed \(name)") }
            checked += try check(name)
        }
        XCTAssertGreaterThan(checked, 1000, "calls compared")
    }

    private func check(_ name: String) throws -> Int {
        let reference = try ReferenceTimetable(zip: RealFeeds.folder.appendingPathComponent(name + ".zip").path)
        let bundle = try RealFeeds.bundle(name).bundle
        let seed = SplitMix64.testSeed(UInt64(name.utf8.reduce(11) { $0 &* 131 &+ Int($1) }.magnitude))
        var random = SplitMix64(state: seed)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = reference.timeZone
        // The conformance tests' days (a clock change among them) and every third day of the
        // first 90 of the timetable; the one on which most trips run.
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

        // A message: up to 150 trips, each with one to four updates at random calls.
        var plans: [(trip: ReferenceTimetable.Trip, updates: [Update])] = []
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = UInt64(dayStart + 12 * 3600)
        for _ in 0..<150 {
            let trip = trips[Int.random(in: 0..<trips.count, using: &random)]
            guard !plans.contains(where: { $0.trip.id == trip.id }) else { continue }
            let updates = Self.generate(trip, using: &random)
            var entity = TransitRealtime_FeedEntity()
            entity.id = trip.id
            entity.tripUpdate.trip.tripID = trip.id
            entity.tripUpdate.trip.startDate = startDate
            entity.tripUpdate.stopTimeUpdate = updates.map { Self.message($0, trip, dayStart: dayStart) }
            feed.entity.append(entity)
            plans.append((trip, updates))
        }
        let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(data: try feed.serializedData())], bundle: bundle)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, plans.count, "seed \(seed) \(name): \(snapshot.report.unmatched.prefix(3))")
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), [], "seed \(seed) \(name): every stop update matches")
        let now = Date(timeIntervalSince1970: TimeInterval(feed.header.timestamp))

        var compared = 0
        for (trip, updates) in plans {
            let expected = Self.expected(trip, updates, dayStart: dayStart)
            let context = "seed \(seed) \(name) \(trip.id)"
            for index in 0..<(trip.stopTimes.count - 1) where trip.stopTimes[index].pickup != 1 {
                let call = trip.stopTimes[index]
                let scheduled = dayStart + call.departure
                func onBoard(from: Int, to: Int) throws -> [LiveDeparture] {
                    try bundle.departures(
                        from: call.stop, at: .instant(Date(timeIntervalSince1970: TimeInterval(from))), within: TimeInterval(to - from),
                        limit: 100_000, realtime: snapshot, now: now
                    ).departures.filter { $0.scheduled.tripID == trip.id && $0.scheduled.stopSequence == call.sequence }
                }
                guard let shown = expected[index] else {
                    XCTAssertEqual(
                        try onBoard(from: scheduled - 7200, to: scheduled + 7200).count, 0, "\(context) #\(call.sequence): skipped")
                    compared += 1
                    continue
                }
                let found = try onBoard(from: min(shown.departure, scheduled) - 60, to: max(shown.departure, scheduled) + 60)
                XCTAssertEqual(found.count, 1, "\(context) #\(call.sequence)")
                guard let live = found.first else { continue }
                XCTAssertEqual(live.state, shown.state, "\(context) #\(call.sequence)")
                XCTAssertEqual(Int(live.departure.timeIntervalSince1970), shown.departure, "\(context) #\(call.sequence): departure")
                XCTAssertEqual(Int(live.arrival.timeIntervalSince1970), shown.arrival, "\(context) #\(call.sequence): arrival")
                XCTAssertEqual(live.isRealtime, shown.predicted, "\(context) #\(call.sequence)")
                compared += 1
            }
        }
        print("\(name): \(plans.count) trips, \(compared) calls compared on \(startDate), \(snapshot.report.clamps) clamps")
        return compared
    }

    /// One to four updates at distinct calls, in call order, of every kind the document names.
    private static func generate(_ trip: ReferenceTimetable.Trip, using random: inout SplitMix64) -> [Update] {
        let count = trip.stopTimes.count
        var indices = Set<Int>()
        for _ in 0..<Int.random(in: 1...4, using: &random) { indices.insert(Int.random(in: 0..<count, using: &random)) }
        return indices.sorted().map { index in
            let visitedOnce = trip.stopTimes.filter { $0.stop == trip.stopTimes[index].stop }.count == 1
            // Matched by stop_sequence and stop_id, by stop_sequence alone, or (where the trip
            // visits the stop once) by stop_id alone.
            let matching = Int.random(in: 0..<3, using: &random)
            let sendsSequence = matching != 2 || !visitedOnce
            let sendsStop = matching != 1
            let roll = Int.random(in: 0..<20, using: &random)
            if roll >= 17 {
                return Update(index: index, relationship: .noData, sendsSequence: sendsSequence, sendsStop: sendsStop)
            }
            if roll >= 14 {
                return Update(index: index, relationship: .skipped, sendsSequence: sendsSequence, sendsStop: sendsStop)
            }
            func event(_ scheduled: Int, _ delay: Int) -> Update.Event {
                Int.random(in: 0..<5, using: &random) == 0 ? .time(scheduled + delay) : .delay(delay)
            }
            let delay = Int.random(in: -120...900, using: &random)
            let dwell = Int.random(in: -60...180, using: &random)
            var update = Update(index: index, relationship: .scheduled, sendsSequence: sendsSequence, sendsStop: sendsStop)
            let call = trip.stopTimes[index]
            switch Int.random(in: 0..<4, using: &random) {
            case 0:  // the same delay both ways
                update.arrival = event(call.arrival, delay)
                update.departure = event(call.departure, delay)
            case 1:  // a longer or shorter stop than planned
                update.arrival = event(call.arrival, delay)
                update.departure = event(call.departure, delay + dwell)
            case 2: update.arrival = event(call.arrival, delay)
            default: update.departure = event(call.departure, delay)
            }
            return update
        }
    }

    /// The protobuf form of an update (absolute times are Unix seconds).
    private static func message(_ update: Update, _ trip: ReferenceTimetable.Trip, dayStart: Int)
        -> TransitRealtime_TripUpdate.StopTimeUpdate
    {
        var out = TransitRealtime_TripUpdate.StopTimeUpdate()
        if update.sendsSequence { out.stopSequence = UInt32(trip.stopTimes[update.index].sequence) }
        if update.sendsStop { out.stopID = trip.stopTimes[update.index].stop }
        func set(_ event: Update.Event, _ field: inout TransitRealtime_TripUpdate.StopTimeEvent) {
            switch event {
            case .delay(let seconds): field.delay = Int32(seconds)
            case .time(let local): field.time = Int64(dayStart + local)
            }
        }
        switch update.relationship {
        case .skipped: out.scheduleRelationship = .skipped
        case .noData: out.scheduleRelationship = .noData
        case .scheduled:
            if let arrival = update.arrival { set(arrival, &out.arrival) }
            if let departure = update.departure { set(departure, &out.departure) }
        }
        return out
    }

    /// docs/realtime-semantics.md, "Propagation", step by step: what each call shows (nil:
    /// skipped, on no board). Times are Unix seconds.
    private static func expected(_ trip: ReferenceTimetable.Trip, _ updates: [Update], dayStart: Int) -> [Expected?] {
        let calls = trip.stopTimes
        let byIndex = Dictionary(uniqueKeysWithValues: updates.map { ($0.index, $0) })
        // Step 1: each update's own delays ("an event's time, else the schedule plus its delay").
        func own(_ event: Update.Event?, scheduled: Int) -> Int? {
            switch event {
            case .delay(let seconds)?: return seconds
            case .time(let local)?: return local - scheduled
            case nil: return nil
            }
        }
        // Step 2: delays carried downstream; NO_DATA silences until the next update with data;
        // SKIPPED passes what it was given through.
        enum Delays {
            case none(LiveState)
            case skipped
            case delays(arrival: Int, departure: Int)
        }
        var delays: [Delays] = []
        var carried: Int?
        var silent = false
        for (index, call) in calls.enumerated() {
            guard let update = byIndex[index] else {
                if silent {
                    delays.append(.none(.noData))
                } else if let carried {
                    delays.append(.delays(arrival: carried, departure: carried))
                } else {
                    delays.append(.none(.scheduled))
                }
                continue
            }
            switch update.relationship {
            case .noData:
                silent = true
                carried = nil
                delays.append(.none(.noData))
            case .skipped:
                delays.append(.skipped)
            case .scheduled:
                silent = false
                let arrivalOwn = own(update.arrival, scheduled: call.arrival)
                let departureOwn = own(update.departure, scheduled: call.departure)
                // "A departure without its own event takes the arrival's delay; an arrival
                // without one takes the delay carried from upstream (else the departure's)."
                let arrival = arrivalOwn ?? carried ?? departureOwn!
                let departure = departureOwn ?? arrival
                delays.append(.delays(arrival: arrival, departure: departure))
                carried = departure
            }
        }
        // Step 3: times never go back: a predicted arrival is raised to the latest departure
        // shown before it (skipped calls count for nothing), a departure to its arrival.
        var latest = Int.min
        var result: [Expected?] = []
        for (index, call) in calls.enumerated() {
            let (arrival, departure) = (dayStart + call.arrival, dayStart + call.departure)
            switch delays[index] {
            case .skipped:
                result.append(nil)
            case .none(let state):
                result.append(Expected(state: state, arrival: arrival, departure: departure, predicted: false))
                latest = max(latest, departure)
            case .delays(let a, let d):
                let shownArrival = max(arrival + a, latest)
                let shownDeparture = max(departure + d, shownArrival)
                result.append(Expected(state: .updated, arrival: shownArrival, departure: shownDeparture, predicted: true))
                latest = max(latest, shownDeparture)
            }
        }
        return result
    }
}
