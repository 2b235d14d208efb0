import Foundation
import TransitRuntime

/// GTFS-Realtime messages of one feed matched against a bundle: an immutable value, built
/// once per message and replaced whole by the next (a board reads one snapshot or another,
/// never half of one). Trips without live data take no memory.
///
/// ```swift
/// let updates = try RealtimeMessage(contentsOf: "trip-updates.pb")
/// let snapshot = try RealtimeSnapshot(messages: [updates], bundle: bundle)
/// print(snapshot.report.tripUpdatesMatched, "of", snapshot.report.tripUpdates, "trips matched")
/// let board = try bundle.departures(from: "70012", realtime: snapshot)
/// ```
public struct RealtimeSnapshot: Sendable {
    /// What the live data says about one trip instance.
    struct LiveTrip: Sendable {
        enum State: Sendable { case running, cancelled, deleted }
        var state: State
        /// The calls with live data, in stop_sequence order, 20 bytes each: a board adds
        /// the delays to its scheduled instants.
        var calls: [PackedCall] = []
        /// The rare platform changes, by stop_sequence.
        var assignedStops: [Int32: String] = [:]
        var vehicle: VehicleStatus?

        /// The live data of the call at `sequence`, when it has any.
        func call(_ sequence: Int) -> PackedCall? {
            var (low, high) = (0, calls.count)
            while low < high {
                let mid = (low + high) / 2
                if calls[mid].sequence < sequence { low = mid + 1 } else { high = mid }
            }
            return low < calls.count && calls[low].sequence == sequence ? calls[low] : nil
        }
    }

    /// A call's live state and delays (seconds; meaningful when `state` is `updated`).
    struct PackedCall: Sendable {
        var sequence: Int32
        var state: LiveState
        var arrivalDelay: Int32
        var departureDelay: Int32
        /// -1: none given.
        var uncertainty: Int32
    }

    /// The newest header time of the messages with trip updates, vehicles or alerts.
    public let tripUpdatesTime: Date?
    public let vehiclesTime: Date?
    public let alertsTime: Date?
    public let report: RealtimeReport
    let trips: [TripInstance: LiveTrip]
    /// ADDED/NEW, DUPLICATED and REPLACEMENT trips, with their own stops and times.
    let added: [AddedTrip]
    let alerts: [LiveAlert]
    /// The largest lateness and earliness of any prediction, seconds (bounds a board's search).
    let maxDelay: Int
    let maxEarliness: Int

    /// Matches `messages` (trip updates, vehicle positions and alerts, in one message or
    /// several) against the bundle's timetable of `feed` (the bundle's only feed when nil).
    /// - Throws: `TransitError.unknownFeed`; a bundle that cannot be read.
    public init(messages: [RealtimeMessage], bundle: TransitBundle, feed: String? = nil) throws {
        var report = RealtimeReport()
        var trips: [TripInstance: LiveTrip] = [:]
        var added: [AddedTrip] = []
        var alerts: [LiveAlert] = []
        var times: (updates: Date?, vehicles: Date?, alerts: Date?) = (nil, nil, nil)
        var maxDelay = 0
        var maxEarliness = 0
        for message in messages {
            let matcher = try TripMatcher(bundle: bundle, feedID: feed, messageTime: Int(message.feed.header.timestamp))
            let builder = AddedTripBuilder(bundle: bundle, feedID: feed, timeZone: matcher.timeZone, matcher: matcher)
            for entity in message.feed.entity {
                report.entities += 1
                if entity.hasTripUpdate {
                    times.updates = max(times.updates ?? message.timestamp, message.timestamp)
                    report.tripUpdates += 1
                    let update = entity.tripUpdate
                    report.stopTimeUpdates += update.stopTimeUpdate.count
                    var outcome: AddedTripBuilder.Outcome?
                    switch update.trip.scheduleRelationship {
                    case .added, .new: outcome = builder.fromUpdates(update, entityID: entity.id, state: .added, report: &report)
                    case .duplicated: outcome = builder.duplicate(update, entityID: entity.id, report: &report)
                    case .replacement:
                        // The timetable's run is replaced whole by the update's stops and times.
                        guard case .success(let match) = matcher.match(update.trip, entityID: entity.id) else { break }
                        trips[match.instance] = LiveTrip(state: .deleted)
                        outcome = builder.fromUpdates(update, entityID: entity.id, state: .updated, report: &report)
                        if case .success(var trip) = outcome {
                            trip.serviceDate = match.instance.serviceDate
                            outcome = .success(trip)
                        }
                    default:
                        guard let live = Self.apply(update, entityID: entity.id, matcher: matcher, report: &report) else { continue }
                        report.tripUpdatesMatched += 1
                        var trip = live.1
                        trip.vehicle = trips[live.0]?.vehicle
                        trips[live.0] = trip
                        for call in trip.calls where call.state == .updated {
                            maxDelay = max(maxDelay, Int(call.departureDelay), Int(call.arrivalDelay))
                            maxEarliness = max(maxEarliness, -Int(call.departureDelay), -Int(call.arrivalDelay))
                        }
                        continue
                    }
                    switch outcome {
                    case .success(let trip):
                        report.tripUpdatesMatched += 1
                        added.append(trip)
                    case .failure(let miss): report.unmatched.append(miss)
                    case nil:
                        report.unmatched.append(
                            .init(entityID: entity.id, tripID: update.trip.tripID, reason: .unknownTrip, detail: "the trip to replace"))
                    }
                }
                if entity.hasVehicle {
                    times.vehicles = max(times.vehicles ?? message.timestamp, message.timestamp)
                    report.vehicles += 1
                    let vehicle = entity.vehicle
                    guard vehicle.hasTrip else {
                        report.unmatched.append(.init(entityID: entity.id, reason: .noTripID, detail: "a vehicle without a trip"))
                        continue
                    }
                    switch matcher.match(vehicle.trip, entityID: entity.id) {
                    case .failure(let miss): report.unmatched.append(miss)
                    case .success(let match):
                        report.vehiclesMatched += 1
                        trips[match.instance, default: LiveTrip(state: .running)].vehicle = VehicleStatus(vehicle)
                    }
                }
                if entity.hasAlert {
                    times.alerts = max(times.alerts ?? message.timestamp, message.timestamp)
                    report.alerts += 1
                    alerts.append(LiveAlert(entity.alert, id: entity.id))
                }
            }
        }
        self.report = report
        self.trips = trips
        self.added = added
        self.alerts = alerts
        self.tripUpdatesTime = times.updates
        self.vehiclesTime = times.vehicles
        self.alertsTime = times.alerts
        self.maxDelay = min(maxDelay, 6 * 3600)
        self.maxEarliness = min(maxEarliness, 6 * 3600)
    }

    /// One trip update: matched, its stops matched, its delays propagated.
    private static func apply(
        _ update: TransitRealtime_TripUpdate, entityID: String, matcher: TripMatcher, report: inout RealtimeReport
    ) -> (TripInstance, LiveTrip)? {
        let match: TripMatcher.Match
        switch update.trip.scheduleRelationship {
        case .scheduled, .canceled, .deleted:
            switch matcher.match(update.trip, entityID: entityID) {
            case .failure(let miss):
                report.unmatched.append(miss)
                return nil
            case .success(let found): match = found
            }
        default:
            report.unmatched.append(
                .init(
                    entityID: entityID, tripID: update.trip.tripID, reason: .unsupported,
                    detail: "schedule_relationship \(update.trip.scheduleRelationship) is not applied yet"))
            return nil
        }
        if update.trip.scheduleRelationship == .canceled { return (match.instance, LiveTrip(state: .cancelled)) }
        if update.trip.scheduleRelationship == .deleted { return (match.instance, LiveTrip(state: .deleted)) }
        var updates: [DelayPropagation.CallUpdate] = []
        for stopUpdate in update.stopTimeUpdate {
            guard let index = stopIndex(stopUpdate, in: match.schedule, entityID: entityID, tripID: update.trip.tripID, report: &report)
            else { continue }
            report.stopTimeUpdatesMatched += 1
            updates.append(callUpdate(stopUpdate, index: index))
        }
        let (calls, clamps) = DelayPropagation.predict(match.schedule, updates)
        report.clamps += clamps
        var trip = LiveTrip(state: .running)
        for (call, prediction) in zip(match.schedule, calls) where prediction.state != .scheduled {
            let clip = { (value: Int?) in Int32(clamping: value ?? 0) }
            trip.calls.append(
                PackedCall(
                    sequence: Int32(clamping: call.stopSequence), state: prediction.state, arrivalDelay: clip(prediction.arrivalDelay),
                    departureDelay: clip(prediction.departureDelay), uncertainty: Int32(clamping: prediction.uncertainty ?? -1)))
            if let stop = prediction.assignedStopID { trip.assignedStops[Int32(clamping: call.stopSequence)] = stop }
        }
        trip.calls.sort { $0.sequence < $1.sequence }
        return (match.instance, trip)
    }

    /// The stop a stop time update names: by stop_sequence, else by stop_id when the trip
    /// visits that stop once.
    static func stopIndex(
        _ update: TransitRealtime_TripUpdate.StopTimeUpdate, in schedule: [DelayPropagation.ScheduledCall], entityID: String,
        tripID: String, report: inout RealtimeReport
    ) -> Int? {
        func miss(_ reason: RealtimeReport.Reason, _ detail: String? = nil) {
            report.unmatched.append(
                .init(
                    entityID: entityID, tripID: tripID, stopID: update.hasStopID ? update.stopID : nil,
                    stopSequence: update.hasStopSequence ? Int(update.stopSequence) : nil, reason: reason, detail: detail))
        }
        if update.hasStopSequence {
            guard let index = schedule.firstIndex(where: { $0.stopSequence == Int(update.stopSequence) }) else {
                miss(.sequenceMismatch, "the trip has no stop_sequence \(update.stopSequence)")
                return nil
            }
            // Both given and disagreeing (a message made for another version of the timetable):
            // counted, not guessed.
            if update.hasStopID, !update.stopID.isEmpty, update.stopID != schedule[index].stopID {
                miss(.sequenceMismatch, "stop_sequence \(update.stopSequence) is stop \(schedule[index].stopID) in the timetable")
                return nil
            }
            return index
        }
        guard update.hasStopID else {
            miss(.unknownStop)
            return nil
        }
        let indices = schedule.indices.filter { schedule[$0].stopID == update.stopID }
        guard indices.count == 1 else {
            miss(indices.isEmpty ? .unknownStop : .stopVisitedTwice)
            return nil
        }
        return indices[0]
    }

    static func callUpdate(_ update: TransitRealtime_TripUpdate.StopTimeUpdate, index: Int) -> DelayPropagation.CallUpdate {
        func event(_ has: Bool, _ e: TransitRealtime_TripUpdate.StopTimeEvent) -> DelayPropagation.Event? {
            guard has, e.hasDelay || e.hasTime else { return nil }
            return .init(
                delay: e.hasDelay ? Int(e.delay) : nil, time: e.hasTime ? Int(e.time) : nil,
                uncertainty: e.hasUncertainty ? Int(e.uncertainty) : nil)
        }
        let relationship: DelayPropagation.Relationship
        switch update.scheduleRelationship {
        case .skipped: relationship = .skipped
        case .noData: relationship = .noData
        default: relationship = .scheduled
        }
        let assigned = update.hasStopTimeProperties && update.stopTimeProperties.hasAssignedStopID
        return .init(
            index: index, relationship: relationship, arrival: event(update.hasArrival, update.arrival),
            departure: event(update.hasDeparture, update.departure),
            assignedStopID: assigned ? update.stopTimeProperties.assignedStopID : nil)
    }
}
