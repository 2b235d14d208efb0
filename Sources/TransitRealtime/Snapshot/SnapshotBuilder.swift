import Foundation
import TransitRuntime

/// Gathers a snapshot entity by entity: each trip update, vehicle and alert of an entity
/// (an entity may carry several), matched, counted and, for trip updates, propagated.
/// Several builders may each read a run of a message's entities on their own thread;
/// appending them in the runs' order then gives what one builder reading every entity
/// would have (`append(_:)`).
struct SnapshotBuilder {
    typealias LiveTrip = RealtimeSnapshot.LiveTrip

    /// What one entity says about a trip instance: the live data of its trip update (a
    /// replaced run: deleted), and whether it sets the vehicle (a vehicle position, or a
    /// replacement, which clears it). Entities apply in the messages' order, whichever
    /// thread read them: a trip update replaces the live data and keeps the vehicle read
    /// before it; a vehicle position replaces only the vehicle.
    struct TripEntry {
        var live = LiveTrip(state: .running)
        var hasTripUpdate = false
        var setsVehicle = false

        /// `trip` with what this entity says applied (the entry is used up: its live data
        /// moves into the trip).
        consuming func apply(to trip: inout LiveTrip) {
            let vehicle = setsVehicle ? live.vehicle : trip.vehicle
            if hasTripUpdate { trip = live }
            trip.vehicle = vehicle
        }
    }

    typealias TripEntries = [(instance: TripInstance, entry: TripEntry)]

    var report = RealtimeReport()
    /// The live data of each trip instance, from the entities applied so far.
    private var trips: [TripInstance: LiveTrip] = [:]
    /// What this builder's own entities said, in order, not applied yet (`append(_:)`
    /// applies a run's after the runs before it).
    private var tripEntries: TripEntries = []
    var added: [AddedTrip] = []
    var alerts: [LiveAlert] = []
    var tripUpdatesTime: Date?
    var vehiclesTime: Date?
    var alertsTime: Date?
    var maxDelay = 0
    var maxEarliness = 0
    /// The service days this builder's entities named (not appended: each thread's own,
    /// carried from one of its runs to the next).
    var serviceDays = TripMatcher.ServiceDays()

    /// Takes in what `next`, a builder that read the entities after this builder's (and
    /// was appended nothing itself), read.
    mutating func append(_ next: consuming SnapshotBuilder) {
        assert(next.trips.isEmpty, "a builder appended to another is one that only read entities")
        report.append(next.report)
        applyEntries()
        Self.apply(&next.tripEntries, to: &trips)
        added += next.added
        alerts += next.alerts
        tripUpdatesTime = [tripUpdatesTime, next.tripUpdatesTime].compactMap { $0 }.max()
        vehiclesTime = [vehiclesTime, next.vehiclesTime].compactMap { $0 }.max()
        alertsTime = [alertsTime, next.alertsTime].compactMap { $0 }.max()
        maxDelay = max(maxDelay, next.maxDelay)
        maxEarliness = max(maxEarliness, next.maxEarliness)
    }

    /// Applies this builder's own entries, in order.
    private mutating func applyEntries() {
        Self.apply(&tripEntries, to: &trips)
    }

    /// Applies `entries` to `trips` in order, moving each out of the list (which is left
    /// empty): an entry's trip instance and live data are not copied, so their texts and
    /// arrays, often made on the other thread, are not counted once more each.
    private static func apply(_ entries: inout TripEntries, to trips: inout [TripInstance: LiveTrip]) {
        entries.reverse()
        while let (instance, entry) = entries.popLast() {
            entry.apply(to: &trips[instance, default: LiveTrip(state: .running)])
        }
        entries = []
    }

    /// Makes room for `count` more trip instances.
    mutating func reserveTrips(_ count: Int) { trips.reserveCapacity(trips.count + count) }

    /// The live data of each trip instance: what each entity said, applied in order.
    mutating func liveTrips() -> [TripInstance: LiveTrip] {
        applyEntries()
        return trips
    }

    /// Entity `index` of its message, whose bytes did not decode.
    mutating func addMalformed(index: Int, _ error: Error) {
        report.entities += 1
        let detail: String
        if case RealtimeError.notAMessage(let reason) = error { detail = reason } else { detail = "\(error)" }
        report.unmatched.append(.init(entityID: "#\(index + 1)", reason: .malformedEntity, detail: detail))
    }

    /// Entity `index` of its message.
    mutating func add(_ entity: TransitRealtime_FeedEntity, index: Int, at time: Date, matcher: TripMatcher, adder: AddedTripBuilder) {
        report.entities += 1
        if entity.hasTripUpdate {
            addTripUpdate(TripUpdateParts(entity.tripUpdate), entityID: entity.id, index: index, at: time, matcher: matcher, adder: adder)
        }
        if entity.hasVehicle {
            vehiclesTime = max(vehiclesTime ?? time, time)
            addVehicle(entity.vehicle, entityID: entity.id, index: index, matcher: matcher)
        }
        if entity.hasAlert {
            alertsTime = max(alertsTime ?? time, time)
            report.alerts += 1
            let alert = LiveAlert(entity.alert, id: entity.id)
            // Periods that end before they start (or lie outside 1970-9999) are left out and
            // reported; an alert left with none of the periods it gave never applies.
            for invalid in alert.invalidPeriods {
                report.unmatched.append(
                    .init(
                        entityID: entity.id, reason: .badTime,
                        detail: "alert active_period \(invalid) starts after it ends or is not a time"))
            }
            if alert.invalidPeriods.isEmpty || !alert.activePeriods.isEmpty { alerts.append(alert) }
        }
    }

    /// Entity `index`, which holds only a trip update (`RealtimeMessage.tripUpdateEntity(_:)`).
    mutating func addTripUpdateEntity(
        _ update: TripUpdateParts, entityID: String, index: Int, at time: Date, matcher: TripMatcher, adder: AddedTripBuilder
    ) {
        report.entities += 1
        addTripUpdate(update, entityID: entityID, index: index, at: time, matcher: matcher, adder: adder)
    }

    private mutating func addTripUpdate(
        _ update: TripUpdateParts, entityID: String, index: Int, at time: Date, matcher: TripMatcher, adder: AddedTripBuilder
    ) {
        tripUpdatesTime = max(tripUpdatesTime ?? time, time)
        report.tripUpdates += 1
        report.stopTimeUpdates += update.stopTimeUpdates.count
        let outcome: AddedTripBuilder.Outcome
        switch update.trip.scheduleRelationship {
        case .scheduled, .canceled, .deleted:
            switch matcher.match(update.trip, entityID: entityID, entity: index, days: &serviceDays) {
            case .failure(let miss): report.unmatched.append(miss)
            case .success(let match):
                report.tripUpdatesMatched += 1
                var live = liveTrip(update, match, bundle: adder.bundle, entityID: entityID)
                live.timetable = match.timetable
                tripEntries.append((match.instance, TripEntry(live: live, hasTripUpdate: true)))
            }
            return
        case .added, .new: outcome = adder.fromUpdates(update.whole, entityID: entityID, state: .added, report: &report)
        case .duplicated: outcome = adder.duplicate(update.whole, entityID: entityID, report: &report)
        case .replacement:
            // The timetable's run is replaced whole by the update's stops and times.
            switch matcher.match(update.trip, entityID: entityID, entity: index, days: &serviceDays) {
            case .failure(let miss): outcome = .failure(miss)
            case .success(let match):
                var replaced = LiveTrip(state: .deleted)
                replaced.timetable = match.timetable
                tripEntries.append((match.instance, TripEntry(live: replaced, hasTripUpdate: true, setsVehicle: true)))
                outcome = adder.fromUpdates(update.whole, entityID: entityID, state: .updated, report: &report).map {
                    var trip = $0
                    trip.serviceDate = match.instance.serviceDate
                    return trip
                }
            }
        default:
            outcome = .failure(
                .init(
                    entityID: entityID, tripID: update.trip.tripID, reason: .unsupported,
                    detail: "schedule_relationship \(update.trip.scheduleRelationship) is not applied"))
        }
        switch outcome {
        case .success(let trip):
            report.tripUpdatesMatched += 1
            added.append(trip)
        case .failure(let miss): report.unmatched.append(miss)
        }
    }

    private mutating func addVehicle(_ vehicle: TransitRealtime_VehiclePosition, entityID: String, index: Int, matcher: TripMatcher) {
        report.vehicles += 1
        guard vehicle.hasTrip else {
            report.unmatched.append(.init(entityID: entityID, reason: .noTripID, detail: "a vehicle without a trip"))
            return
        }
        switch matcher.match(vehicle.trip, entityID: entityID, entity: index, days: &serviceDays) {
        case .failure(let miss): report.unmatched.append(miss)
        case .success(let match):
            report.vehiclesMatched += 1
            var seen = LiveTrip(state: .running)
            seen.vehicle = VehicleStatus(vehicle)
            tripEntries.append((match.instance, TripEntry(live: seen, setsVehicle: true)))
        }
    }

    /// A matched timetable trip: cancelled, deleted, or its stops' delays propagated and packed.
    private mutating func liveTrip(_ update: TripUpdateParts, _ match: TripMatcher.Match, bundle: TransitBundle, entityID: String)
        -> LiveTrip
    {
        switch update.trip.scheduleRelationship {
        case .canceled: return LiveTrip(state: .cancelled)
        case .deleted: return LiveTrip(state: .deleted)
        default: break
        }
        let updates = Self.callUpdates(
            update.stopTimeUpdates, tripID: update.trip.tripID, schedule: match.schedule, bundle: bundle,
            entityID: entityID, report: &report)
        // The calls before the first one an update names are scheduled: not packed.
        let tripDelay = update.tripDelay
        if let tripDelay { report.notes.append(Self.tripDelayNote(tripDelay, entityID: entityID, tripID: update.trip.tripID)) }
        // The schedule is in stop_sequence order, so the packed calls are too. Packed into
        // room for every call as the predictions come (a call whose live data is its
        // predecessor's extends that one's run), then copied once at their count.
        let schedule = match.schedule
        var (maxDelay, maxEarliness) = (self.maxDelay, self.maxEarliness)
        var trip = LiveTrip(state: .running)
        let clamps = withUnsafeTemporaryAllocation(of: RealtimeSnapshot.PackedCall.self, capacity: schedule.count) { room in
            var packed = 0
            var lastIndex = -2
            let (_, clamps) = DelayPropagation.forEachPrediction(schedule, updates, tripDelay: tripDelay) { index, prediction in
                guard prediction.state != .scheduled else { return }
                let sequence = Int32(clamping: schedule[index].stopSequence)
                let call = RealtimeSnapshot.PackedCall(
                    firstSequence: sequence, lastSequence: sequence, state: prediction.state,
                    arrivalDelay: Int32(clamping: prediction.arrivalDelay ?? 0),
                    departureDelay: Int32(clamping: prediction.departureDelay ?? 0),
                    uncertainty: Int32(clamping: prediction.uncertainty ?? -1))
                defer { lastIndex = index }
                if packed > 0, lastIndex == index - 1, room[packed - 1].sameLiveData(as: call) {
                    room[packed - 1].lastSequence = sequence
                    return
                }
                (room.baseAddress! + packed).initialize(to: call)
                packed += 1
                if prediction.state == .updated {
                    maxDelay = max(maxDelay, prediction.departureDelay ?? 0, prediction.arrivalDelay ?? 0)
                    maxEarliness = max(maxEarliness, -(prediction.departureDelay ?? 0), -(prediction.arrivalDelay ?? 0))
                }
            }
            trip.calls = Array(room[..<packed])
            return clamps
        }
        (self.maxDelay, self.maxEarliness) = (maxDelay, maxEarliness)
        report.clamps += clamps
        // The rare platform changes, on the calls packed (those with live data).
        for (index, stop) in DelayPropagation.assignedStops(updates, calls: schedule.count) {
            let sequence = Int32(clamping: schedule[index].stopSequence)
            if trip.call(Int(sequence)) != nil { trip.assignedStops[sequence] = stop }
        }
        return trip
    }

    /// The report's note that a trip-level delay was applied.
    static func tripDelayNote(_ delay: Int, entityID: String, tripID: String) -> RealtimeReport.Unmatched {
        .init(
            entityID: entityID, tripID: tripID, reason: .tripDelayUsed,
            detail: "delay \(delay) s applied to the calls before the first stop time update")
    }

    /// The stop time updates of trip `tripID` matched to the stops of `schedule` (each miss counted).
    static func callUpdates(
        _ stopTimeUpdates: [StopUpdate], tripID: @autoclosure () -> String, schedule: ScheduledCalls, bundle: TransitBundle,
        entityID: String, report: inout RealtimeReport
    ) -> [DelayPropagation.CallUpdate] {
        stopTimeUpdates.compactMap { stopUpdate in
            guard
                let index = stopIndex(
                    stopUpdate, in: schedule, bundle: bundle, entityID: entityID, tripID: tripID(), report: &report)
            else { return nil }
            // An event time outside 1970-9999 is no time a trip keeps: the update is left out.
            if let (name, time) = implausibleTime(of: stopUpdate) {
                report.unmatched.append(
                    .init(
                        entityID: entityID, tripID: tripID(), stopID: stopUpdate.stopID,
                        stopSequence: stopUpdate.stopSequence.map(Int.init),
                        reason: .badTime, detail: "\(name) time \(time) is not a time between 1970 and 9999"))
                return nil
            }
            report.stopTimeUpdatesMatched += 1
            return callUpdate(stopUpdate, index: index)
        }
    }

    /// The first of `update`'s arrival and departure times that is outside 1970-9999, and
    /// which it is (no array of both per update: a snapshot reads thousands).
    private static func implausibleTime(of update: StopUpdate) -> (String, Int64)? {
        if let time = update.arrival?.time, !RealtimeMessage.isPlausible(time) { return ("arrival", time) }
        if let time = update.departure?.time, !RealtimeMessage.isPlausible(time) { return ("departure", time) }
        return nil
    }

    /// The stop a stop time update names: by stop_sequence, else by stop_id when the trip
    /// visits that stop once.
    private static func stopIndex(
        _ update: StopUpdate, in schedule: ScheduledCalls, bundle: TransitBundle, entityID: String,
        tripID: @autoclosure () -> String, report: inout RealtimeReport
    ) -> Int? {
        func miss(_ reason: RealtimeReport.Reason, _ detail: String? = nil) {
            report.unmatched.append(
                .init(
                    entityID: entityID, tripID: tripID(), stopID: update.stopID, stopSequence: update.stopSequence.map(Int.init),
                    reason: reason, detail: detail))
        }
        if let sequence = update.stopSequence {
            guard let index = schedule.firstIndex(where: { $0.stopSequence == Int(sequence) }) else {
                miss(.sequenceMismatch, "the trip has no stop_sequence \(sequence)")
                return nil
            }
            // Both given and disagreeing (a message made for another version of the timetable):
            // counted, not guessed.
            if let stopID = update.stopID, !stopID.isEmpty {
                let timetableStop = schedule.stopID(at: index, in: bundle)
                guard timetableStop == stopID else {
                    miss(.sequenceMismatch, "stop_sequence \(sequence) is stop \(timetableStop) in the timetable")
                    return nil
                }
            }
            return index
        }
        guard let stopID = update.stopID else {
            miss(.unknownStop)
            return nil
        }
        let indices = schedule.indices(of: stopID, in: bundle)
        guard indices.count == 1 else {
            miss(indices.isEmpty ? .unknownStop : .stopVisitedTwice)
            return nil
        }
        return indices[0]
    }

    private static func callUpdate(_ update: StopUpdate, index: Int) -> DelayPropagation.CallUpdate {
        // An event that gives neither a delay nor a time is no prediction.
        func event(_ e: StopUpdate.Event?) -> DelayPropagation.Event? {
            guard let e, e.delay != nil || e.time != nil else { return nil }
            return .init(delay: e.delay.map(Int.init), time: e.time.map(Int.init), uncertainty: e.uncertainty.map(Int.init))
        }
        let relationship: DelayPropagation.Relationship
        switch update.relationship {
        case .skipped: relationship = .skipped
        case .noData: relationship = .noData
        default: relationship = .scheduled
        }
        return .init(
            index: index, relationship: relationship, arrival: event(update.arrival), departure: event(update.departure),
            assignedStopID: update.properties?.assignedStopID)
    }
}
