/// The GTFS-Realtime rules that turn a trip's stop time updates into a prediction for each
/// of its stops (docs/realtime-semantics.md, "Propagation"):
/// - a stop with an update takes its times: `time`, else the schedule plus `delay`; a
///   missing departure takes the arrival's delay, a missing arrival the delay carried in;
/// - the delay of the last update propagates downstream to stops without one, never
///   upstream (stops before the first update keep the schedule, state `scheduled`), except
///   a trip-level `TripUpdate.delay`, which holds from the first stop until the first stop
///   time update;
/// - SKIPPED marks its stop and does not stop propagation; NO_DATA stops it: that stop and
///   the following ones without an update keep the schedule with state `noData`;
/// - predicted times never decrease along the trip: a prediction earlier than the trip's
///   previous prediction (since the last NO_DATA) is raised to it, and counted; times of
///   stops without a prediction never bound one.
enum DelayPropagation {
    /// One stop of a trip instance as scheduled, as Unix times (plain integers: the stop's
    /// text id stays in the trip's schedule, and a trip's calls are made without touching
    /// reference counts).
    struct ScheduledCall: Sendable {
        var stopSequence: Int
        var arrival: Int
        var departure: Int
    }

    /// An arrival or departure event of an update.
    struct Event: Sendable, Equatable {
        var delay: Int?
        var time: Int?
        var uncertainty: Int?
    }

    enum Relationship: Sendable { case scheduled, skipped, noData }

    /// A stop time update matched to the stop at `index` of the trip.
    struct CallUpdate: Sendable {
        var index: Int
        var relationship: Relationship
        var arrival: Event?
        var departure: Event?
        var assignedStopID: String?
    }

    /// Every call's prediction, in the schedule's order; `tripDelay`: the update's
    /// trip-level delay, when it gives one.
    static func predict<Schedule: RandomAccessCollection<ScheduledCall>>(
        _ schedule: Schedule, _ updates: [CallUpdate], tripDelay: Int? = nil
    ) -> (calls: [CallPrediction], clamps: Int) where Schedule.Index == Int {
        let (first, calls, clamps) = predictions(schedule, updates, tripDelay: tripDelay)
        return ([CallPrediction](repeating: CallPrediction(state: .scheduled), count: first) + calls, clamps)
    }

    /// The predictions of the calls from `first`, the first call an update names, to the
    /// end (`calls[i]` is call `first + i`): the calls before it have no update, nothing
    /// propagates into them and no NO_DATA reaches them, so they keep the schedule (state
    /// `scheduled`) and are not made (a trip's updates usually start mid-way). With a
    /// trip-level delay every call is made: the delay holds from the first. One pass: each
    /// prediction is raised to the trip's previous prediction as it is made.
    static func predictions<Schedule: RandomAccessCollection<ScheduledCall>>(
        _ schedule: Schedule, _ updates: [CallUpdate], tripDelay: Int? = nil
    ) -> (first: Int, calls: [CallPrediction], clamps: Int) where Schedule.Index == Int {
        var calls: [CallPrediction] = []
        let (first, clamps) = forEachPrediction(schedule, updates, tripDelay: tripDelay) { index, prediction in
            if calls.isEmpty { calls.reserveCapacity(schedule.count - index) }
            calls.append(prediction)
        }
        return (first, calls, clamps)
    }

    /// The same predictions handed to `body` one by one with their call's index (from
    /// `first`, in order), kept nowhere: a snapshot packs them as they come (no array of
    /// them per trip).
    @inline(__always)
    static func forEachPrediction<Schedule: RandomAccessCollection<ScheduledCall>>(
        _ schedule: Schedule, _ updates: [CallUpdate], tripDelay: Int? = nil, _ body: (Int, CallPrediction) -> Void
    ) -> (first: Int, clamps: Int) where Schedule.Index == Int {
        let count = schedule.count
        // Updates in call order (as the reference asks: by stop_sequence) are read with a
        // cursor; any other order through a table of the first update naming each call.
        var start = count
        var inOrder = true
        var previous = -1
        for k in updates.indices {
            let index = updates[k].index
            guard index >= 0, index < count else {
                inOrder = false
                continue
            }
            start = min(start, index)
            if index <= previous { inOrder = false }
            previous = index
        }
        if tripDelay != nil { start = 0 }
        let table = inOrder ? [] : firstUpdates(updates, calls: count)
        var cursor = 0
        var carried: (delay: Int, uncertainty: Int?)? = tripDelay.map { ($0, nil) }
        var noData = false
        var clamps = 0
        // The trip's latest prediction so far: the bound of the next one.
        var last = Int.min
        for index in start..<count {
            let (arrivalTime, departureTime) = (schedule[index].arrival, schedule[index].departure)
            var k = -1
            if inOrder {
                if cursor < updates.count && updates[cursor].index == index {
                    k = cursor
                    cursor += 1
                }
            } else {
                k = table[index]
            }
            var prediction = CallPrediction(state: .scheduled)
            if k >= 0 {
                let update = updates[k]
                switch update.relationship {
                case .noData:
                    // The producer knows nothing from here: what it predicted before no
                    // longer bounds what it predicts after.
                    noData = true
                    carried = nil
                    last = Int.min
                    prediction.state = .noData
                case .skipped:
                    prediction.state = .skipped
                case .scheduled:
                    noData = false
                    let arrivalDelay = delay(update.arrival, scheduled: arrivalTime) ?? carried?.delay
                    let departureDelay = delay(update.departure, scheduled: departureTime) ?? arrivalDelay
                    let uncertainty = update.departure?.uncertainty ?? update.arrival?.uncertainty
                    if let departureDelay {
                        let arrival = arrivalDelay ?? departureDelay
                        prediction = CallPrediction(
                            state: .updated, arrival: arrivalTime + arrival, departure: departureTime + departureDelay,
                            arrivalDelay: arrival, departureDelay: departureDelay, uncertainty: uncertainty)
                        carried = (departureDelay, uncertainty)
                    }
                }
            } else if noData {
                prediction.state = .noData
            } else if let carried {
                prediction = CallPrediction(
                    state: .updated, arrival: arrivalTime + carried.delay, departure: departureTime + carried.delay,
                    arrivalDelay: carried.delay, departureDelay: carried.delay, uncertainty: carried.uncertainty)
            }
            // Predicted times never run the trip backwards (skipped calls are left out of the
            // order; calls without a prediction bound nothing: an early prediction stays early).
            if prediction.state == .updated, var arrival = prediction.arrival, var departure = prediction.departure {
                if arrival < last {
                    arrival = last
                    clamps += 1
                }
                if departure < arrival {
                    departure = arrival
                    clamps += 1
                }
                prediction.arrival = arrival
                prediction.departure = departure
                prediction.arrivalDelay = arrival - arrivalTime
                prediction.departureDelay = departure - departureTime
                last = departure
            }
            body(index, prediction)
        }
        return (start, clamps)
    }

    /// The update each of a trip's `count` calls takes, by the call's index: the first one
    /// naming it (an index into `updates`, -1: none).
    private static func firstUpdates(_ updates: [CallUpdate], calls count: Int) -> [Int] {
        var first = [Int](repeating: -1, count: count)
        for (k, update) in updates.enumerated() where (0..<count).contains(update.index) && first[update.index] < 0 {
            first[update.index] = k
        }
        return first
    }

    /// The stop (platform) assigned to each of a trip's `count` calls, by the call's index:
    /// the stop_id of the StopTimeProperties of the update `predict` applies there.
    static func assignedStops(_ updates: [CallUpdate], calls count: Int) -> [Int: String] {
        guard updates.contains(where: { $0.assignedStopID != nil }) else { return [:] }
        var assigned: [Int: String] = [:]
        for (index, k) in firstUpdates(updates, calls: count).enumerated() where k >= 0 {
            if let stop = updates[k].assignedStopID { assigned[index] = stop }
        }
        return assigned
    }

    /// The delay an event gives: its time against the schedule, else its delay.
    private static func delay(_ event: Event?, scheduled: Int) -> Int? {
        guard let event else { return nil }
        if let time = event.time { return time - scheduled }
        return event.delay
    }
}

/// What the live data says about one stop of a trip instance (plain integers: a trip's
/// predictions are copied and freed without touching reference counts).
struct CallPrediction: Sendable, Hashable {
    var state: LiveState
    /// Predicted instants as Unix seconds; nil when the state carries no prediction.
    var arrival: Int?
    var departure: Int?
    /// Seconds against the schedule (positive: late).
    var arrivalDelay: Int?
    var departureDelay: Int?
    /// The producer's uncertainty in seconds, when it gives one.
    var uncertainty: Int?

    init(
        state: LiveState, arrival: Int? = nil, departure: Int? = nil, arrivalDelay: Int? = nil, departureDelay: Int? = nil,
        uncertainty: Int? = nil
    ) {
        self.state = state
        self.arrival = arrival
        self.departure = departure
        self.arrivalDelay = arrivalDelay
        self.departureDelay = departureDelay
        self.uncertainty = uncertainty
    }
}

/// The live state of a call: `scheduled` (no live data for it), `updated` (a prediction),
/// `noData` (the producer says it has none), `skipped` (the vehicle will not stop),
/// `cancelled` (the trip will not run), `added` (a trip not in the timetable),
/// `duplicated` (a copy of a timetable trip at another start).
public enum LiveState: String, Sendable, Hashable, Codable {
    case scheduled
    case updated
    case noData = "no_data"
    case skipped
    case cancelled
    case added
    case duplicated
}
