import Foundation
import TransitRuntime

/// A trip the timetable does not have: ADDED/NEW (stops and times from the update) or
/// DUPLICATED (a timetable trip copied to another start, its times then updated as any trip's).
struct AddedTrip: Sendable {
    struct Call: Sendable {
        var stop: Stop
        var stopSequence: Int
        /// The call's schedule (Unix seconds): an added trip's own times, a copy's the
        /// original's moved to its start.
        var scheduledArrival: Int
        var scheduledDeparture: Int
        /// The times to show (Unix seconds): the update's, or the copy's schedule moved by its delays.
        var arrival: Int
        var departure: Int
        var prediction: CallPrediction
        /// A stop (platform) the update assigns instead of the scheduled one.
        var assignedStopID: String?
        /// Riders may board here (a copy keeps its original's pickup_type 1 stops) and alight.
        var pickup = true
        var dropOff = true
    }

    var feedID: String
    var tripID: String
    var serviceDate: ServiceDate
    var state: LiveState
    var route: Route?
    /// The route's agency, else the feed's only agency (for alerts that name an agency).
    var agency: Agency?
    var headsign: String
    var calls: [Call]
    /// The feed's clock: wall-clock times and service days.
    var clock: FeedClock

    /// The board calls of this trip at `stops` (ids of stops or of their stations).
    func boardCalls(at stops: Set<String>, arrivals: Bool) -> [LiveDeparture] {
        calls.indices.compactMap { index in
            let call = calls[index]
            guard call.prediction.state != .skipped, arrivals ? call.dropOff : call.pickup else { return nil }
            guard stops.contains(call.stop.stopID) || call.stop.parentStation.map(stops.contains) == true else { return nil }
            // No departure from the last stop, no arrival at the first.
            guard arrivals ? index > 0 : index < calls.count - 1 else { return nil }
            let departure = departure(index)
            // A copy's calls each say whether a delay applies (`updated`, predicted) or not
            // (`duplicated` or `no_data`: its schedule); an added trip's times are all predictions.
            let predicted = state != .duplicated || call.prediction.state == .updated
            return LiveDeparture(
                scheduled: departure, state: state == .duplicated ? call.prediction.state : state,
                predictedDeparture: predicted ? Date(timeIntervalSince1970: TimeInterval(call.departure)) : nil,
                predictedArrival: predicted ? Date(timeIntervalSince1970: TimeInterval(call.arrival)) : nil,
                delay: (arrivals ? call.prediction.arrivalDelay : call.prediction.departureDelay).map(TimeInterval.init),
                uncertainty: call.prediction.uncertainty.map(TimeInterval.init),
                assignedStopID: call.assignedStopID)
        }
    }

    /// The trip as the journey planner rides it: every call but skipped ones, boarding
    /// before the last and alighting after the first.
    func journeyTrip() -> JourneyLiveData.AddedTrip {
        JourneyLiveData.AddedTrip(
            feedID: feedID,
            calls: calls.indices.map { index in
                let call = calls[index]
                let stops = call.prediction.state != .skipped
                return JourneyLiveData.AddedTrip.Call(
                    stopID: call.stop.stopID, arrival: call.arrival, departure: call.departure,
                    boards: stops && call.pickup && index < calls.count - 1, alights: stops && call.dropOff && index > 0,
                    boarding: departure(index), alighting: departure(index, atArrival: true))
            })
    }

    /// The call as a `Departure` value, its times the call's schedule; `atArrival`: its
    /// departure fields at the call's arrival (a ride's alighting, as the timetable's rides
    /// show it).
    private func departure(_ index: Int, atArrival: Bool = false) -> Departure {
        let call = calls[index]
        let instant = atArrival ? call.scheduledArrival : call.scheduledDeparture
        return Departure(
            feedID: feedID, stopID: call.stop.stopID, stopName: call.stop.name, platformCode: call.stop.platformCode, tripID: tripID,
            routeID: route?.routeID ?? "", routeShortName: route?.shortName, routeLongName: route?.longName,
            routeType: route?.routeType ?? .bus, routeColor: route?.color, routeTextColor: route?.textColor, headsign: headsign,
            serviceDate: serviceDate, departureSecs: instant - clock.serviceDayStart(serviceDate.civil),
            departureLocal: clock.local(instant), arrivalLocal: clock.local(call.scheduledArrival), stopSequence: call.stopSequence,
            agencyID: agency?.agencyID ?? route?.agencyID, agencyName: agency?.name, stopsRemaining: calls.count - 1 - index,
            timeZone: clock.timeZone)
    }
}
