import Foundation
import TransitRuntime

extension TransitBundle {
    /// Journeys leaving at `time` on the live times of `realtime`: predicted departures and
    /// arrivals of the trips it updates, never a cancelled (or deleted) trip, never boarding
    /// or alighting at a skipped stop. A snapshot whose trip updates are older than
    /// `freshness` at `now` is not applied: the answer is then the timetable's.
    ///
    /// ```swift
    /// let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(contentsOf: "trip-updates.pb")], bundle: bundle)
    /// let journeys = try bundle.journeys(from: .stop("MONT"), to: .stop("DALY"), departingAt: .instant(Date()), realtime: snapshot)
    /// ```
    /// A ride's `boarding` and `alighting` stay the boards' scheduled calls; the leg's
    /// `departure` and `arrival` are the predicted instants. Trips the snapshot adds (NEW,
    /// DUPLICATED, REPLACEMENT) are ridden on their own calls (a wheelchair search leaves
    /// them out: they carry no accessibility); a ride on one shows those calls.
    public func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, departingAt time: QueryTime = .instant(Date()),
        within window: TimeInterval = 0, options: JourneyOptions = JourneyOptions(), realtime: RealtimeSnapshot, now: Date = Date(),
        freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> [Journey] {
        try journeys(
            from: origin, to: destination, departingAt: time, within: window, options: options,
            live: realtime.journeyLiveData(now: now, freshness: freshness, bundle: self))
    }

    /// A range query on the live times of `realtime`, with the end of the part of the window
    /// it answers for (`JourneyOptions.rangeSearches`), as
    /// `journeys(from:to:departingAt:within:options:realtime:now:freshness:)` rides them.
    ///
    /// ```swift
    /// let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(contentsOf: "trip-updates.pb")], bundle: bundle)
    /// let range = try bundle.journeyRange(
    ///     from: .stop("MONT"), to: .stop("DALY"), within: 3600, options: JourneyOptions(rangeSearches: 4), realtime: snapshot)
    /// ```
    public func journeyRange(
        from origin: JourneyPlace, to destination: JourneyPlace, departingAt time: QueryTime = .instant(Date()),
        within window: TimeInterval, options: JourneyOptions = JourneyOptions(), realtime: RealtimeSnapshot, now: Date = Date(),
        freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> JourneyRange {
        try journeyRange(
            from: origin, to: destination, departingAt: time, within: window, options: options,
            live: realtime.journeyLiveData(now: now, freshness: freshness, bundle: self))
    }

    /// Journeys arriving by `time` on the live times of `realtime`, as
    /// `journeys(from:to:departingAt:within:options:realtime:now:freshness:)` rides them.
    public func journeys(
        from origin: JourneyPlace, to destination: JourneyPlace, arrivingBy time: QueryTime, options: JourneyOptions = JourneyOptions(),
        realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> [Journey] {
        try journeys(
            from: origin, to: destination, arrivingBy: time, options: options,
            live: realtime.journeyLiveData(now: now, freshness: freshness, bundle: self))
    }
}

extension RealtimeSnapshot {
    /// What the journey planner applies on `bundle`: each matched trip instance cancelled
    /// (deleted ones too: they leave the boards) or with its calls' delays and skipped
    /// stops, and the trips the snapshot adds; nil when the trip updates are stale at `now`
    /// or absent. Made on the first call and kept (`JourneyLiveCache`).
    func journeyLiveData(now: Date, freshness: RealtimeFreshness, bundle: TransitBundle) -> JourneyLiveData? {
        guard let time = tripUpdatesTime, now.timeIntervalSince(time) <= freshness.tripUpdates else { return nil }
        let matched = !matchedBundle.isEmpty && bundle.contentHash == matchedBundle
        return journeyLive.live(forBundle: bundle.contentHash) { journeyLive(on: bundle, byNumbers: matched) }
    }

    /// The trip instances a trip update matched, in the planner's terms on `bundle`, with
    /// their calls' live data, and the trips the snapshot adds. `byNumbers`: `bundle` is
    /// the one the snapshot was matched against, whose trip and pattern numbers the matcher
    /// kept; else each trip is found again by its id.
    private func journeyLive(on bundle: TransitBundle, byNumbers: Bool) -> JourneyLiveData {
        var builder = JourneyLiveData.Builder(trips: trips.count)
        for (instance, trip) in trips {
            guard let matched = trip.timetable,
                let timetable = byNumbers ? matched : Self.timetableTrip(instance, in: bundle)
            else { continue }
            builder.add(timetable, on: instance.serviceDate, cancelled: trip.state != .running)
            for call in trip.calls {
                let updated = call.state == .updated
                builder.run(
                    Int(call.firstSequence)...Int(call.lastSequence), arrivalDelay: updated ? Int(call.arrivalDelay) : 0,
                    departureDelay: updated ? Int(call.departureDelay) : 0, skipped: call.state == .skipped)
            }
        }
        return builder.finish(added: added.map { $0.journeyTrip() }, bundle: bundle)
    }

    /// `instance` in `bundle`, found by its trip id (nil: the bundle has no such trip, or
    /// not on that day).
    private static func timetableTrip(_ instance: TripInstance, in bundle: TransitBundle) -> JourneyLiveData.TimetableTrip? {
        guard let schedule = try? bundle.tripSchedule(instance.tripID, feed: instance.feedID) else { return nil }
        guard let start = instance.start else { return schedule.timetableTrip(startingAt: nil) }
        guard let day = try? bundle.serviceDay(feed: instance.feedID, on: instance.serviceDate) else { return nil }
        return schedule.timetableTrip(startingAt: start - day.dayStart)
    }
}
