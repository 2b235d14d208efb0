import Foundation
import TransitRuntime

extension TransitBundle {
    /// Departures from a stop (or several) with a realtime snapshot applied: predicted
    /// instants, delays and states; skipped calls and deleted trips left out, cancelled
    /// trips kept and marked; ordered by the instant shown (the prediction, else the
    /// timetable), then as the offline board orders. A snapshot older than `freshness` at
    /// `now` is not applied (the board says why). Without live data for a trip, its calls
    /// are exactly the offline board's.
    ///
    /// ```swift
    /// let board = try bundle.departures(from: ["70011", "70012"], at: .instant(Date()), realtime: snapshot)
    /// for call in board.departures { print(call.departure, call.state, call.delay ?? 0) }
    /// ```
    public func departures(
        from stops: [String], feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20, realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> LiveBoard {
        try liveBoard(arrivals: false, stops, feed, time, window, limit, realtime, now, freshness)
    }

    /// The one-stop form of `departures(from:feed:at:within:limit:realtime:now:freshness:)`.
    public func departures(
        from stop: String, feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20, realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> LiveBoard {
        try liveBoard(arrivals: false, [stop], feed, time, window, limit, realtime, now, freshness)
    }

    /// Arrivals with a realtime snapshot applied, ordered by the arrival shown.
    public func arrivals(
        to stop: String, feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20, realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> LiveBoard {
        try liveBoard(arrivals: true, [stop], feed, time, window, limit, realtime, now, freshness)
    }

    /// Arrivals at several stops with a realtime snapshot applied, ordered by the arrival shown.
    public func arrivals(
        to stops: [String], feed: String? = nil, at time: QueryTime = .instant(Date()), within window: TimeInterval = 3600,
        limit: Int = 20, realtime: RealtimeSnapshot, now: Date = Date(), freshness: RealtimeFreshness = RealtimeFreshness()
    ) throws -> LiveBoard {
        try liveBoard(arrivals: true, stops, feed, time, window, limit, realtime, now, freshness)
    }

    private func liveBoard(
        arrivals: Bool, _ stops: [String], _ feed: String?, _ time: QueryTime, _ window: TimeInterval, _ limit: Int,
        _ snapshot: RealtimeSnapshot, _ now: Date, _ freshness: RealtimeFreshness
    ) throws -> LiveBoard {
        let age = snapshot.tripUpdatesTime.map { now.timeIntervalSince($0) }
        let applyUpdates = age.map { $0 <= freshness.tripUpdates } ?? false
        let applyVehicles = snapshot.vehiclesTime.map { now.timeIntervalSince($0) <= freshness.vehicles } ?? false
        var note: LiveBoard.NotApplied?
        if let age, !applyUpdates {
            note = .stale(age: age, allowed: freshness.tripUpdates, now: now)
        } else if age == nil {
            note = .noTripUpdates
        }
        // Look earlier and later than the window by the largest delay and earliness, so a late
        // call scheduled before the window (or an early one after it) is found.
        let lookBack = applyUpdates ? TimeInterval(snapshot.maxDelay) : 0
        let lookAhead = applyUpdates ? TimeInterval(snapshot.maxEarliness) : 0
        guard let first = stops.first else { throw TransitError.badArgument("no stop given") }
        let start = try windowStart(time, stop: first, feed: feed)
        // Without updates to apply the calls are the offline board's, in its order: no more
        // of them are needed than the board shows.
        let from = QueryTime.instant(start.addingTimeInterval(-lookBack))
        let span = min(window + lookBack + lookAhead, 7 * 86_400)
        let fetch = applyUpdates ? Int.max : limit
        let wide =
            arrivals
            ? try self.arrivals(to: stops, feed: feed, at: from, within: span, limit: fetch)
            : try self.departures(from: stops, feed: feed, at: from, within: span, limit: fetch)
        var calls: [LiveDeparture] = []
        for departure in wide {
            var call = LiveDeparture(scheduled: departure)
            let key = TripInstance(
                feedID: departure.feedID, tripID: departure.tripID, serviceDate: departure.serviceDate,
                start: departure.tripStart.map { Int($0.timeIntervalSince1970) })
            if let trip = snapshot.trips[key] {
                if applyVehicles, let vehicle = trip.vehicle, freshness.isCurrent(vehicle, at: now) { call.vehicle = vehicle }
                if applyUpdates {
                    switch trip.state {
                    case .deleted: continue
                    case .cancelled: call.state = .cancelled
                    case .running:
                        if let live = trip.call(departure.stopSequence) {
                            if live.state == .skipped { continue }
                            call.state = live.state
                            if live.state == .updated {
                                call.predictedDeparture = departure.departure.addingTimeInterval(TimeInterval(live.departureDelay))
                                call.predictedArrival = departure.arrival.addingTimeInterval(TimeInterval(live.arrivalDelay))
                                call.delay = TimeInterval(arrivals ? live.arrivalDelay : live.departureDelay)
                                call.uncertainty = live.uncertainty >= 0 ? TimeInterval(live.uncertainty) : nil
                            }
                            call.assignedStopID = trip.assignedStops[Int32(clamping: departure.stopSequence)]
                        }
                    }
                }
            }
            let shown = arrivals ? call.arrival : call.departure
            guard shown >= start, shown < start.addingTimeInterval(window) else { continue }
            call.alerts = snapshot.alerts.filter { $0.concerns(departure, at: now) }
            calls.append(call)
        }
        if applyUpdates {
            let wanted = Set(stops)
            for trip in snapshot.added {
                for call in trip.boardCalls(at: wanted, arrivals: arrivals) {
                    let shown = arrivals ? call.arrival : call.departure
                    guard shown >= start, shown < start.addingTimeInterval(window) else { continue }
                    var call = call
                    call.alerts = snapshot.alerts.filter { $0.concerns(call.scheduled, at: now) }
                    calls.append(call)
                }
            }
        }
        // Stable: calls shown at the same instant keep the offline board's order.
        let ordered = calls.enumerated().sorted { a, b in
            let (x, y) = arrivals ? (a.element.arrival, b.element.arrival) : (a.element.departure, b.element.departure)
            return x != y ? x < y : a.offset < b.offset
        }
        return LiveBoard(departures: ordered.prefix(max(0, limit)).map(\.element), realtimeApplied: applyUpdates, notAppliedReason: note)
    }
}
