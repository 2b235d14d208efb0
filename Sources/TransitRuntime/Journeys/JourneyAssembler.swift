import BundleFormat
import TransitSQLite

/// Turns the steps a search read back into a `Journey`: rides with the calls their boards
/// show, walks with their length, times in the feed's local time.
struct JourneyAssembler {
    let bundle: TransitBundle
    let network: RoutingNetwork
    let db: SQLiteDatabase
    let walkingSpeed: Double
    /// A wheelchair search: a change inside a station takes step-free pathways only.
    var stepFree = false
    /// The search's added routes (`RaptorSearch.added`, in the trips' own direction).
    var added: [RaptorSearch.AddedRoute] = []

    func journey(_ found: RaptorSearch.Found, from origin: JourneyEndpoint, to destination: JourneyEndpoint) throws -> Journey {
        var legs: [JourneyLeg] = []
        var access = 0
        var lastAlight = (sid: 0, time: 0)
        for step in found.steps {
            switch step {
            case .access(_, let seconds):
                access = seconds
            case .ride(let ride, let board, let boardTime, let alight, let alightTime):
                if legs.isEmpty && origin.stopID == nil {
                    let metres = origin.stops.first { $0.sid == board }?.metres ?? 0
                    legs.append(
                        try walk(from: nil, to: board, leaving: boardTime - access, seconds: access, metres: metres, clockOf: board))
                }
                legs.append(try rideLeg(ride, board: board, boardTime: boardTime, alight: alight, alightTime: alightTime))
                lastAlight = (alight, alightTime)
            case .transfer(let from, let to, _):
                guard from != to else { continue }
                let metres = network.metres(between: from, to)
                // Inside a station, the time along its pathways (as the transfer took it).
                var budget = StationPathways.queryBudget
                let inside =
                    network.walksInside(from: from, to: to)
                    ? try network.pathways.times(from: from, walkingSpeed: walkingSpeed, stepFree: stepFree, budget: &budget)[Int32(to)]
                    : nil
                legs.append(
                    try walk(
                        from: from, to: to, leaving: lastAlight.time, seconds: inside ?? Int((metres / walkingSpeed).rounded(.up)),
                        metres: metres, clockOf: from))
            case .egress(let from, let seconds):
                guard destination.stopID == nil else { continue }
                let metres = destination.stops.first { $0.sid == from }?.metres ?? 0
                legs.append(try walk(from: from, to: nil, leaving: lastAlight.time, seconds: seconds, metres: metres, clockOf: from))
            }
        }
        guard let first = legs.first, let last = legs.last else {
            throw TransitError.corruptBundle(reason: "a journey without legs")
        }
        var journey = Journey(departureLocal: first.departureLocal, arrivalLocal: last.arrivalLocal, rides: found.rides, legs: legs)
        journey.fare = try FarePricer(bundle: bundle).fare(of: journey, options: FareOptions(), db: db)
        return journey
    }

    /// The journey on foot alone, leaving at `time`.
    func walkOnly(
        from origin: JourneyEndpoint, to destination: JourneyEndpoint, at time: Int, seconds: Int, metres: Double
    ) throws -> Journey {
        let clock = bundle.catalog.feed(fid: origin.fid ?? destination.fid ?? 1).clock
        let leg = JourneyLeg(
            kind: .walk, fromStopID: origin.stopID, toStopID: destination.stopID,
            fromFeedID: origin.stopID == nil ? nil : origin.fid.map { bundle.catalog.feed(fid: $0).feedID },
            toFeedID: destination.stopID == nil ? nil : destination.fid.map { bundle.catalog.feed(fid: $0).feedID },
            departureLocal: clock.local(time),
            arrivalLocal: clock.local(time + seconds), distance: metres.rounded())
        return Journey(departureLocal: leg.departureLocal, arrivalLocal: leg.arrivalLocal, rides: 0, legs: [leg])
    }

    private func walk(from: Int?, to: Int?, leaving: Int, seconds: Int, metres: Double, clockOf sid: Int) throws -> JourneyLeg {
        let clock = bundle.catalog.feed(fid: Int(network.stopFid[sid])).clock
        let (start, end) = (try from.map { try bundle.entities.stop($0, db: db) }, try to.map { try bundle.entities.stop($0, db: db) })
        return JourneyLeg(
            kind: .walk, fromStopID: start?.stopID, toStopID: end?.stopID,
            fromFeedID: start.map { bundle.catalog.feed(fid: $0.fid).feedID },
            toFeedID: end.map { bundle.catalog.feed(fid: $0.fid).feedID },
            departureLocal: clock.local(leaving),
            arrivalLocal: clock.local(leaving + seconds), distance: metres.rounded())
    }

    private func rideLeg(_ ride: RaptorSearch.Ride, board: Int, boardTime: Int, alight: Int, alightTime: Int) throws -> JourneyLeg {
        if case .added(let a) = ride.line {
            // A trip the live data adds: the calls it brought.
            let route = added[a]
            let clock = bundle.catalog.feed(route.fid).clock
            let boarding = route.calls[Int(ride.boardIdx)].boarding
            let alighting = route.calls[Int(ride.alightIdx)].alighting
            return JourneyLeg(
                kind: .ride, fromStopID: boarding.stopID, toStopID: alighting.stopID, departureLocal: clock.local(boardTime),
                arrivalLocal: clock.local(alightTime), boarding: boarding, alighting: alighting)
        }
        let tables = network.tables
        let feed = bundle.catalog.feed(tables.routes[Int(ride.route)].fid)
        let trip = ride.trip
        let tid: TripNumber
        let pid: PatternNumber
        var frequencyBased = false
        var isTemplate = false
        switch trip.kind {
        case .regular(let index):
            tid = tables.tripTid[index]
            pid = tables.patternPid[tables.pattern(ofTrip: index)]
        case .template(let index):
            let template = tables.templates[index]
            isTemplate = true
            tid = template.tid
            pid = tables.patternPid[template.pattern]
            frequencyBased = !(template.windows.first { trip.startSecs >= $0.start && trip.startSecs < $0.end }?.exact ?? true)
        }
        let pattern = try bundle.patterns.pattern(pid.int, db: db)
        guard let record = pattern.trip(tid.int) else {
            throw TransitError.corruptBundle(reason: "trip \(tid) is missing from pattern \(pid)")
        }
        // The planner's tables agree with the timetable they were made from: the ride's ends
        // are the pattern's stops at its indices, the trip runs on the route's service and a
        // regular trip starts when the planner says (a crafted bundle's would give legs the
        // timetable does not have).
        let (b, a) = (Int(ride.boardIdx), Int(ride.alightIdx))
        guard 0 <= b, b < a, a < pattern.stops.count, pattern.stops[b].sid == board, pattern.stops[a].sid == alight,
            record.sv == tables.routes[Int(ride.route)].sv.int, isTemplate || record.startTime == trip.startSecs
        else {
            throw TransitError.corruptBundle(
                reason: "the planner's routes disagree with the timetable: trip \(tid) from stop \(board) to stop \(alight)")
        }
        // The calls as the boards show them: at their scheduled instants (a ride's own times,
        // live ones included, are the leg's).
        func call(_ idx: Int, _ sid: Int, arrival: Bool) -> DepartureFinder.Candidate {
            let stop = pattern.stops[idx]
            let secs = trip.startSecs + (arrival ? stop.arrivalOffset : stop.departureOffset)
            return DepartureFinder.Candidate(
                instant: trip.dayStart + secs, sid: sid, trip: record, pattern: pattern, idx: idx, tripStartSecs: trip.startSecs,
                stopHeadsign: stop.hid, pickupType: stop.pickupType, serviceDay: trip.day, departureSecs: secs,
                frequencyBased: frequencyBased)
        }
        let boarding = try bundle.departure(call(Int(ride.boardIdx), board, arrival: false), feed: feed, db: db)
        let alighting = try bundle.departure(call(Int(ride.alightIdx), alight, arrival: true), feed: feed, db: db)
        return JourneyLeg(
            kind: .ride, fromStopID: boarding.stopID, toStopID: alighting.stopID, departureLocal: feed.clock.local(boardTime),
            arrivalLocal: feed.clock.local(alightTime), boarding: boarding, alighting: alighting)
    }
}
