import BundleFormat

/// Turns the stop_times columns of one feed into checked, fully timed trips:
/// groups rows by trip, orders them by stop_sequence, drops what is invalid (with
/// a diagnostic) and interpolates untimed stops as the departures contract says.
struct TripAssembler {
    /// One trip's stop times after checks: times in GTFS seconds, all present.
    struct AssembledStop {
        var stop: Int32
        var sequence: Int32
        var arrival: Int32
        var departure: Int32
        var pickup: UInt8
        var dropOff: UInt8
        var headsign: Int32
        var interpolated: Bool
        /// The feed calls the times approximate (timepoint 0).
        var approximate: Bool
    }

    let feed: FeedData
    let log: DiagnosticLog
    /// The feed's stop_times columns, held once (a copy per trip would retain every column).
    private let c: FeedData.StopTimes
    /// Runs of rows (`TripRuns`) grouped by local trip id, in file order: the runs of trip t
    /// are runOrder[first[t]..<first[t+1]] (one run per trip in a file grouped by trip).
    private var runOrder: [Int32] = []
    private var first: [Int] = []

    init(feed: FeedData, log: DiagnosticLog) {
        self.feed = feed
        self.log = log
        let columns = feed.stopTimes
        c = columns
        let tripCount = feed.trips.count
        let runTrips = columns.trips.trips
        first = [Int](repeating: 0, count: tripCount + 1)
        for trip in runTrips { first[Int(trip) + 1] += 1 }
        for t in 0..<tripCount { first[t + 1] += first[t] }
        var next = first
        runOrder = [Int32](repeating: 0, count: runTrips.count)
        for (run, trip) in runTrips.enumerated() {
            runOrder[next[Int(trip)]] = Int32(run)
            next[Int(trip)] += 1
        }
    }

    /// The checked stops of local trip `trip`, or nil when the trip must be dropped.
    func assemble(trip: Int32) -> [AssembledStop]? {
        // A trip with a time past the 7-day limit was reported and refused while reading.
        guard !feed.refusedTrips.contains(trip) else { return nil }
        var rows: [Int32] = []
        for run in runOrder[first[Int(trip)]..<first[Int(trip) + 1]] {
            rows += c.trips.rows(ofRun: Int(run)).lazy.map { Int32($0) }
        }
        // The trip's id is made into text only for a message.
        var tripID: String { feed.tripIDs.string(trip) }
        func report(_ code: DiagnosticCode, row: Int32?, field: String?, _ message: String) {
            let line = row.map { Int(c.lines[Int($0)]) } ?? feed.trips[Int(trip)].line
            log.add(
                Diagnostic(
                    code, feed: feed.name, file: row == nil ? "trips.txt" : "stop_times.txt", line: line,
                    field: field, entityID: tripID, message: message))
        }
        // Stable sort by stop_sequence (rows are usually in order already).
        if !zip(rows, rows.dropFirst()).allSatisfy({ c.sequence[Int($0)] <= c.sequence[Int($1)] }) {
            rows.sort { (c.sequence[Int($0)], $0) < (c.sequence[Int($1)], $1) }
        }
        var unique = rows
        if zip(rows, rows.dropFirst()).contains(where: { c.sequence[Int($0)] == c.sequence[Int($1)] }) {
            unique = []
            for row in rows {
                if let last = unique.last, c.sequence[Int(last)] == c.sequence[Int(row)] {
                    report(
                        .badSequence, row: row, field: "stop_sequence",
                        "stop_sequence \(c.sequence[Int(row)]) repeats within the trip; row dropped")
                    continue
                }
                unique.append(row)
            }
        }
        guard unique.count >= 2 else {
            report(
                .tooFewStops, row: nil, field: "trip_id",
                "trip \(tripID) has \(unique.count) usable stop_times, needs at least 2; trip dropped")
            return nil
        }
        guard c.arrival[Int(unique.first!)] >= 0, c.arrival[Int(unique.last!)] >= 0 else {
            let row = c.arrival[Int(unique.first!)] < 0 ? unique.first! : unique.last!
            report(
                .missingEndpointTime, row: row, field: "arrival_time", "the trip's first and last stop_times must have times; trip dropped")
            return nil
        }
        var stops = unique.map { row -> AssembledStop in
            let r = Int(row)
            return AssembledStop(
                stop: c.stop[r], sequence: c.sequence[r], arrival: c.arrival[r], departure: c.departure[r],
                pickup: c.pickup(at: r), dropOff: c.dropOff(at: r), headsign: c.headsign(at: r), interpolated: false,
                approximate: c.isApproximate(at: r))
        }
        // Times that go backwards are repaired without losing the trip (departures-semantics.md,
        // "Untimed stops"): walking in stop_sequence order, a timed stop earlier than the last
        // stop kept as timed (or leaving before it arrives) loses both times and is interpolated.
        var previous: Int32 = -1
        var previousStop: Int32 = -1
        for index in stops.indices where stops[index].arrival >= 0 {
            let stop = stops[index]
            guard stop.arrival < previous || stop.departure < previous || stop.departure < stop.arrival else {
                previous = stop.departure
                previousStop = stop.stop
                continue
            }
            let own = stop.departure < stop.arrival && stop.arrival >= previous
            let when = formatTime(own ? stop.departure : min(stop.arrival, stop.departure))
            let after =
                own
                ? "its own arrival \(formatTime(stop.arrival))"
                : "\(formatTime(previous)) at stop \(feed.stopIDs.string(previousStop))"
            report(
                .timeTravel, row: unique[index], field: stop.arrival < previous ? "arrival_time" : "departure_time",
                "trip \(tripID), stop \(feed.stopIDs.string(stop.stop)) (stop_sequence \(stop.sequence)): \(when) is before \(after); its times are interpolated"
            )
            stops[index].arrival = -1
            stops[index].departure = -1
        }
        guard stops.first!.arrival >= 0, stops.last!.arrival >= 0 else {
            let end = stops.first!.arrival < 0 ? "first" : "last"
            report(
                .timeTravel, row: end == "first" ? unique.first! : unique.last!, field: "arrival_time",
                "trip \(tripID): the \(end) stop's times go backwards, so the trip has no \(end == "first" ? "start" : "end") time; trip dropped"
            )
            return nil
        }
        // Most trips are fully timed: no closure is made for them.
        if stops.contains(where: { $0.arrival < 0 }) { interpolate(&stops, rows: unique) { report($0, row: $1, field: $2, $3) } }
        return stops
    }

    /// Fills untimed stops linearly in distance between the timed stops around them.
    /// Distances are `shape_dist_traveled` when every row has it and it never decreases,
    /// else great-circle steps between stops; a segment touching a stop without
    /// coordinates, or of zero length, is interpolated by position instead. Either way an
    /// interpolated time lies between the times of the surrounding timed stops.
    private func interpolate(_ stops: inout [AssembledStop], rows: [Int32], report: (DiagnosticCode, Int32?, String?, String) -> Void) {
        var distance = [Double](repeating: 0, count: stops.count)
        var useShape = rows.allSatisfy { !c.distance(at: Int($0)).isNaN }
        if useShape, let drop = rows.indices.dropFirst().first(where: { c.distance(at: Int(rows[$0])) < c.distance(at: Int(rows[$0 - 1])) })
        {
            report(
                .badShapeDistance, rows[drop], "shape_dist_traveled",
                "shape_dist_traveled decreases (\(c.distance(at: Int(rows[drop]))) after \(c.distance(at: Int(rows[drop - 1])))); untimed stops interpolated by great-circle distance"
            )
            useShape = false
        }
        // Stops whose place is unknown cannot measure a distance.
        var unplaced = [Bool](repeating: false, count: stops.count)
        if useShape {
            for i in rows.indices { distance[i] = c.distance(at: Int(rows[i])) }
        } else {
            for i in stops.indices {
                let stop = feed.stops[Int(stops[i].stop)]
                unplaced[i] = stop.lat == nil || stop.lon == nil
                guard i > 0 else { continue }
                let a = feed.stops[Int(stops[i - 1].stop)]
                var step = 0.0
                if let la = a.lat, let oa = a.lon, let lb = stop.lat, let ob = stop.lon { step = GeoDistance.metres(la, oa, lb, ob) }
                distance[i] = distance[i - 1] + step
            }
        }
        var before = 0
        while before < stops.count - 1 {
            var after = before + 1
            while stops[after].arrival < 0 { after += 1 }
            if after > before + 1 {
                let t0 = stops[before].departure
                let t1 = stops[after].arrival
                let d0 = distance[before]
                let span = distance[after] - d0
                let byPosition = span <= 0 || unplaced[before...after].contains(true)
                for i in (before + 1)..<after {
                    let fraction = byPosition ? Double(i - before) / Double(after - before) : (distance[i] - d0) / span
                    let time = Int32((Double(t0) + Double(t1 - t0) * fraction).rounded(.down))
                    // Distances are non-decreasing here, so the fraction is within 0...1; the clamp
                    // guards the bound against rounding.
                    let bounded = min(max(time, t0), t1)
                    stops[i].arrival = bounded
                    stops[i].departure = bounded
                    stops[i].interpolated = true
                }
            }
            before = after
        }
    }
}

/// `HH:MM:SS` for messages.
func formatTime(_ seconds: Int32) -> String {
    let s = Int(seconds)
    return "\(s / 3600):\(s / 60 % 60 < 10 ? "0" : "")\(s / 60 % 60):\(s % 60 < 10 ? "0" : "")\(s % 60)"
}
