import BundleFormat
import Foundation
import TransitRuntime

/// Builds the trips a message adds: ADDED/NEW and REPLACEMENT from their stop time updates
/// (each with a stop_id and an absolute time), DUPLICATED by copying a timetable trip to
/// the start date and time of its TripProperties.
struct AddedTripBuilder: Sendable {
    let bundle: TransitBundle
    let feedID: String?
    let clock: FeedClock

    typealias Outcome = Result<AddedTrip, RealtimeReport.Unmatched>

    /// ADDED, NEW, REPLACEMENT: the update's own stops and times.
    func fromUpdates(_ update: TransitRealtime_TripUpdate, entityID: String, state: LiveState, report: inout RealtimeReport) -> Outcome {
        let trip = update.trip
        guard trip.hasTripID, !trip.tripID.isEmpty else {
            return .failure(.init(entityID: entityID, reason: .noTripID, detail: "an added trip needs a trip_id"))
        }
        var calls: [AddedTrip.Call] = []
        for (index, stopUpdate) in update.stopTimeUpdate.enumerated() {
            func miss(_ reason: RealtimeReport.Reason, _ detail: String) {
                report.unmatched.append(
                    .init(
                        entityID: entityID, tripID: trip.tripID, stopID: stopUpdate.hasStopID ? stopUpdate.stopID : nil,
                        stopSequence: stopUpdate.hasStopSequence ? Int(stopUpdate.stopSequence) : index + 1, reason: reason, detail: detail)
                )
            }
            if stopUpdate.scheduleRelationship == .skipped { continue }
            guard stopUpdate.hasStopID, let stop = try? bundle.stop(stopUpdate.stopID, feed: feedID) else {
                miss(.unknownStop, "a stop of an added trip must be a stop of the timetable")
                continue
            }
            let arrival = stopUpdate.hasArrival && stopUpdate.arrival.hasTime ? Int(stopUpdate.arrival.time) : nil
            let departure = stopUpdate.hasDeparture && stopUpdate.departure.hasTime ? Int(stopUpdate.departure.time) : nil
            guard [arrival, departure].allSatisfy({ $0.map { RealtimeMessage.isPlausible(Int64($0)) } ?? true }) else {
                miss(.badTime, "a time of an added trip is not a time between 1970 and 9999")
                continue
            }
            guard let shown = departure ?? arrival else {
                miss(.badTime, "a stop of an added trip needs an arrival or departure time")
                continue
            }
            report.stopTimeUpdatesMatched += 1
            let uncertainty = stopUpdate.hasDeparture && stopUpdate.departure.hasUncertainty ? Int(stopUpdate.departure.uncertainty) : nil
            calls.append(
                .init(
                    stop: stop, stopSequence: stopUpdate.hasStopSequence ? Int(stopUpdate.stopSequence) : index + 1,
                    scheduledArrival: arrival ?? shown, scheduledDeparture: max(shown, arrival ?? shown),
                    arrival: arrival ?? shown, departure: max(shown, arrival ?? shown),
                    prediction: CallPrediction(state: state, uncertainty: uncertainty)))
        }
        guard let first = calls.first else {
            return .failure(
                .init(entityID: entityID, tripID: trip.tripID, reason: .unknownStop, detail: "no stop of the added trip is usable"))
        }
        let serviceDate =
            trip.hasStartDate ? TripMatcher.serviceDate(trip.startDate) : ServiceDate(clock.localDay(of: first.departure))
        guard let serviceDate else {
            return .failure(.init(entityID: entityID, tripID: trip.tripID, reason: .badTime, detail: trip.startDate))
        }
        let headsign =
            update.hasTripProperties && update.tripProperties.hasTripHeadsign ? update.tripProperties.tripHeadsign : calls.last!.stop.name
        let route = trip.hasRouteID ? (try? bundle.route(trip.routeID, feed: feedID))?.route : nil
        return .success(
            AddedTrip(
                feedID: first.stop.feedID, tripID: trip.tripID, serviceDate: serviceDate, state: state, route: route,
                agency: agency(of: route, feed: first.stop.feedID), headsign: headsign, calls: calls, clock: clock))
    }

    /// DUPLICATED: the descriptor's trip copied to the new trip_id, start date and time of
    /// its TripProperties; the update's stop times then apply to the copy as to any trip.
    func duplicate(_ update: TransitRealtime_TripUpdate, entityID: String, report: inout RealtimeReport) -> Outcome {
        let trip = update.trip
        let properties = update.tripProperties
        guard trip.hasTripID, update.hasTripProperties, properties.hasTripID, properties.hasStartDate, properties.hasStartTime,
            let day = TripMatcher.serviceDate(properties.startDate), let start = TripMatcher.seconds(properties.startTime)
        else {
            return .failure(
                .init(
                    entityID: entityID, tripID: trip.hasTripID ? trip.tripID : nil, reason: .badTime,
                    detail: "DUPLICATED needs trip_properties with trip_id, start_date and start_time"))
        }
        let original: TripSchedule
        do {
            original = try bundle.tripSchedule(trip.tripID, feed: feedID, on: day)
        } catch {
            return .failure(.init(entityID: entityID, tripID: trip.tripID, reason: .unknownTrip, detail: "the trip to duplicate"))
        }
        guard original.count > 0 else {
            return .failure(.init(entityID: entityID, tripID: trip.tripID, reason: .unknownTrip, detail: "the trip has no stops"))
        }
        let schedule = TripMatcher.calls(of: original, dayStart: original.dayStart, shift: start - original.departureSecs(at: 0))
        let updates = SnapshotBuilder.callUpdates(
            update.stopTimeUpdate.map(StopUpdate.init), tripID: update.trip.tripID, schedule: schedule,
            bundle: bundle, entityID: entityID,
            report: &report)
        let tripDelay = update.hasDelay ? Int(update.delay) : nil
        if let tripDelay { report.notes.append(SnapshotBuilder.tripDelayNote(tripDelay, entityID: entityID, tripID: properties.tripID)) }
        let (predictions, clamps) = DelayPropagation.predict(schedule, updates, tripDelay: tripDelay)
        report.clamps += clamps
        let assigned = DelayPropagation.assignedStops(updates, calls: schedule.count)
        // The copy's schedule is the original's moved to start_time; a prediction is that
        // schedule plus the update's delays (state `updated`), else the copy runs as
        // scheduled (state `duplicated`).
        var calls: [AddedTrip.Call] = []
        // Skipped calls stay in the list (on no board), so the copy's first and last stops
        // are its original's, as a timetable trip's are.
        for (index, call) in schedule.enumerated() {
            guard let stop = try? bundle.stop(sid: StopNumber(original.stops.records[index].sid)) else { continue }
            var prediction = predictions[index]
            if prediction.state == .scheduled { prediction.state = .duplicated }
            calls.append(
                .init(
                    stop: stop, stopSequence: call.stopSequence, scheduledArrival: call.arrival, scheduledDeparture: call.departure,
                    arrival: prediction.arrival ?? call.arrival, departure: prediction.departure ?? call.departure,
                    prediction: prediction, assignedStopID: assigned[index], pickup: original.stops.pickup(at: index),
                    dropOff: original.stops.dropOff(at: index)))
        }
        // The copy's route and headsign are the original's (a damaged bundle: none).
        let names = try? bundle.names(of: original)
        let route = names.flatMap { try? bundle.route($0.routeID, feed: original.feedID).route }
        return .success(
            AddedTrip(
                feedID: original.feedID, tripID: properties.tripID, serviceDate: day, state: .duplicated, route: route,
                agency: agency(of: route, feed: original.feedID), headsign: names?.headsign ?? "", calls: calls, clock: clock))
    }

    /// The route's agency, else the feed's only one.
    private func agency(of route: Route?, feed: String) -> Agency? {
        guard let agencies = try? bundle.agencies(feed: feed) else { return nil }
        if let id = route?.agencyID { return agencies.first { $0.agencyID == id } }
        return agencies.count == 1 ? agencies[0] : nil
    }

}
