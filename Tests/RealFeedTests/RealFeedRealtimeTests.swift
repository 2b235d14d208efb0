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
/// matched by stop_sequence alone, stop_id alone or both, SKIPPED and NO_DATA; a trip-level
/// delay; trips named by route_id, direction_id and start_time where the feed files say
/// exactly one trip of that route and direction starts then that day; DUPLICATED copies
/// seven minutes after their original. Every call of every updated trip is checked: its
/// state, live departure and arrival; a skipped call must be on no board within two hours
/// either side of its schedule.
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
        func running(_ day: (Int, Int, Int), withFrequencies: Bool = false) -> [ReferenceTimetable.Trip] {
            let date = String(format: "%04d%02d%02d", day.0, day.1, day.2)
            let weekday =
                (calendar.component(.weekday, from: calendar.date(from: DateComponents(year: day.0, month: day.1, day: day.2))!) + 5) % 7
            return reference.trips.values.filter {
                (withFrequencies || reference.frequencies[$0.id] == nil && $0.stopTimes.count >= 3)
                    && reference.runs($0.service, on: date, weekday: weekday)
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

        // The trips of each route and direction that leave their first stop at a given time
        // that day (a frequency with exact_times=1 at each time of its grid), read from the
        // feed files: a trip is named by route and start time only where it is the one.
        var starts: [String: Int] = [:]
        func startKey(_ trip: ReferenceTimetable.Trip, _ secs: Int) -> String { "\(trip.route)|\(trip.direction)|\(secs)" }
        for trip in running(day, withFrequencies: true) {
            guard let windows = reference.frequencies[trip.id] else {
                starts[startKey(trip, trip.stopTimes[0].departure), default: 0] += 1
                continue
            }
            for window in windows where window.exactTimes {
                for secs in stride(from: window.start, to: window.end, by: window.headway) { starts[startKey(trip, secs), default: 0] += 1 }
            }
        }

        // A message: up to 150 trips, each with one to four updates at random calls; one in
        // five with a trip-level delay, one in five named by route and start where that is
        // unique, one in ten copied (DUPLICATED) seven minutes later with updates of its own.
        var plans: [Plan] = []
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = UInt64(dayStart + 12 * 3600)
        var byRoute = 0
        for _ in 0..<150 {
            let trip = trips[Int.random(in: 0..<trips.count, using: &random)]
            guard !plans.contains(where: { $0.trip.id == trip.id }) else { continue }
            let updates = Self.generate(trip, using: &random)
            var entity = TransitRealtime_FeedEntity()
            entity.id = trip.id
            entity.tripUpdate.trip.startDate = startDate
            entity.tripUpdate.stopTimeUpdate = updates.map { Self.message($0, trip, dayStart: dayStart) }
            var plan = Plan(trip: trip, boardTripID: trip.id, updates: updates)
            let roll = Int.random(in: 0..<10, using: &random)
            if roll < 2 {
                let delay = Int.random(in: -120...600, using: &random)
                entity.tripUpdate.delay = Int32(delay)
                plan.tripDelay = delay
            }
            // Without a direction_id the descriptor names none, and trips of either count.
            let first = trip.stopTimes[0].departure
            let sameStart =
                trip.direction.isEmpty
                ? ["", "0", "1"].reduce(0) { $0 + (starts["\(trip.route)|\($1)|\(first)"] ?? 0) }
                : starts[startKey(trip, first)] ?? 0
            if (2..<4).contains(roll), sameStart == 1 {
                entity.tripUpdate.trip.routeID = trip.route
                if !trip.direction.isEmpty { entity.tripUpdate.trip.directionID = UInt32(trip.direction)! }
                entity.tripUpdate.trip.startTime = Self.text(trip.stopTimes[0].departure)
                byRoute += 1
            } else {
                entity.tripUpdate.trip.tripID = trip.id
            }
            feed.entity.append(entity)
            plans.append(plan)
            if roll == 9 {
                // The copy's schedule is the original's seven minutes later.
                var copy = trip
                copy.id = trip.id + "-copy"
                copy.stopTimes = trip.stopTimes.map { call in
                    var moved = call
                    moved.arrival += 420
                    moved.departure += 420
                    return moved
                }
                let copyUpdates = Self.generate(copy, using: &random)
                var duplicate = TransitRealtime_FeedEntity()
                duplicate.id = copy.id
                duplicate.tripUpdate.trip.tripID = trip.id
                duplicate.tripUpdate.trip.startDate = startDate
                duplicate.tripUpdate.trip.scheduleRelationship = .duplicated
                duplicate.tripUpdate.tripProperties.tripID = copy.id
                duplicate.tripUpdate.tripProperties.startDate = startDate
                duplicate.tripUpdate.tripProperties.startTime = Self.text(copy.stopTimes[0].departure)
                duplicate.tripUpdate.stopTimeUpdate = copyUpdates.map { Self.message($0, copy, dayStart: dayStart) }
                feed.entity.append(duplicate)
                plans.append(Plan(trip: copy, boardTripID: copy.id, updates: copyUpdates, isCopy: true))
            }
        }
        let now = Date(timeIntervalSince1970: TimeInterval(feed.header.timestamp))
        let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(data: try feed.serializedData())], bundle: bundle, now: now)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, plans.count, "seed \(seed) \(name): \(snapshot.report.unmatched.prefix(3))")
        XCTAssertEqual(snapshot.report.unmatched.map(\.reason), [], "seed \(seed) \(name): every stop update matches")
        XCTAssertEqual(
            snapshot.report.notes.filter { $0.reason == .tripDelayUsed }.count, plans.count { $0.tripDelay != nil },
            "seed \(seed) \(name): each trip delay is noted")

        var compared = 0
        for plan in plans {
            let trip = plan.trip
            let expected = Self.expected(trip, plan.updates, tripDelay: plan.tripDelay, dayStart: dayStart, isCopy: plan.isCopy)
            let context = "seed \(seed) \(name) \(trip.id)"
            // A timetable trip's no-pickup calls are the offline board's business; a copy's
            // must be on no departures board either (it boards where its original does).
            for index in 0..<(trip.stopTimes.count - 1) where plan.isCopy || trip.stopTimes[index].pickup != 1 {
                let call = trip.stopTimes[index]
                let scheduled = dayStart + call.departure
                func onBoard(from: Int, to: Int) throws -> [LiveDeparture] {
                    try bundle.departures(
                        from: call.stop, at: .instant(Date(timeIntervalSince1970: TimeInterval(from))), within: TimeInterval(to - from),
                        limit: 100_000, realtime: snapshot, now: now
                    ).departures.filter { $0.scheduled.tripID == plan.boardTripID && $0.scheduled.stopSequence == call.sequence }
                }
                guard let shown = expected[index], call.pickup != 1 else {
                    XCTAssertEqual(
                        try onBoard(from: scheduled - 7200, to: scheduled + 7200).count, 0,
                        "\(context) #\(call.sequence): skipped or no pickup")
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
        print(
            "\(name): \(plans.count) trips (\(plans.count { $0.tripDelay != nil }) with a trip delay, \(byRoute) by route, "
                + "\(plans.count(where: \.isCopy)) copies), \(compared) calls compared on \(startDate), \(snapshot.report.clamps) clamps")
        return compared
    }

    /// One generated trip update: the schedule its calls follow (a copy's: the original's
    /// moved), the trip id boards show, its stop time updates and trip-level delay.
    private struct Plan {
        var trip: ReferenceTimetable.Trip
        var boardTripID: String
        var updates: [Update]
        var tripDelay: Int?
        var isCopy = false
    }

    /// GTFS seconds as `HH:MM:SS`.
    private static func text(_ secs: Int) -> String { String(format: "%02d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60) }

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
    private static func expected(
        _ trip: ReferenceTimetable.Trip, _ updates: [Update], tripDelay: Int?, dayStart: Int, isCopy: Bool
    ) -> [Expected?] {
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
        // Step 2: delays carried downstream, from the first call when the trip has a
        // trip-level delay; NO_DATA silences until the next update with data; SKIPPED passes
        // what it was given through.
        enum Delays {
            case none(LiveState)
            case skipped
            case delays(arrival: Int, departure: Int)
        }
        var delays: [Delays] = []
        var carried = tripDelay
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
        // Step 3: predictions never go back: a predicted arrival is raised to the latest
        // predicted departure before it since the last NO_DATA (calls without a prediction,
        // skipped or scheduled, count for nothing), a departure to its arrival.
        var latest = Int.min
        var result: [Expected?] = []
        for (index, call) in calls.enumerated() {
            let (arrival, departure) = (dayStart + call.arrival, dayStart + call.departure)
            switch delays[index] {
            case .skipped:
                result.append(nil)
            case .none(let state):
                // A copy's calls without a prediction run as the copy is scheduled.
                let shown = isCopy && state == .scheduled ? LiveState.duplicated : state
                result.append(Expected(state: shown, arrival: arrival, departure: departure, predicted: false))
                if state == .noData { latest = Int.min }
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
