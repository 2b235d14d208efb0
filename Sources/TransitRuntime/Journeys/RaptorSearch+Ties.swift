import BundleFormat

/// Ties (journey-semantics.md, "What is optimal"): among the journeys that leave, arrive and
/// ride as one of the answer does, the one whose trips' text ids come first, ride by ride,
/// and then whose stops' text ids come first (boarding, then alighting, ride by ride).
///
/// A search in the mirror from the destination at the journey's arrival tells, for every
/// stop and number of rides left, the latest a rider can board there or have alighted there
/// and still arrive in time (`latestBoarding`, `latestAlighting`). From the origin at the
/// journey's departure, each ride takes the first trip by text id among those that keep the
/// arrival (`tieBroken`); then the stops are chosen the same way among rides on those trips.
extension RaptorSearch {
    /// The text ids (UTF-8) the order of ties compares: a trip's by tid, a stop's by sid.
    struct TieTexts {
        let trip: (Int) throws -> [UInt8]
        let stop: (Int) throws -> [UInt8]
    }

    /// A ride a tie may take: a trip instance boarded at one stop, with the later stops where
    /// alighting still arrives in time.
    private struct TieRide {
        /// The route, as `Ride.Line.raw` (`line` reads it).
        let route: Int
        let trip: TripInstance
        let boardIdx: Int
        let board: Int
        let boardTime: Int
        var alights: [(idx: Int, sid: Int, time: Int)]

        var line: Ride.Line { Ride.Line(raw: route) }
    }

    /// After a run in the mirror from the destination: the latest instant (told forwards) a
    /// rider can board at `sid` and still arrive in time with at most `rides` rides.
    func latestBoarding(at sid: Int, rides: Int) -> Int {
        var best = Self.never
        for k in 0...min(rides, maxRides) { best = min(best, labels.arrival[k * stride + sid]) }
        return -best
    }

    /// After a run in the mirror from the destination: the latest instant (told forwards) a
    /// rider can have alighted at `sid` and still arrive in time with at most `rides` more.
    func latestAlighting(at sid: Int, rides: Int) -> Int {
        var best = Self.never
        for k in 0...min(rides, maxRides) { best = min(best, labels.ready[k * stride + sid]) }
        return -best
    }

    /// Among the journeys leaving `origins` (stop -> access seconds) at `departure` (boarding
    /// at the instant the access walk ends) and arriving at `journey`'s arrival with its rides, the first by the order
    /// of ties. `latest` has just run in the mirror from the destination at that arrival, no
    /// later than `departure`. `journey` itself when no other is found (it is one of them).
    func tieBroken(
        _ journey: Found, departure: Int, origins access: [Int: Int], targets: [Int: Int], latest: RaptorSearch, texts: TieTexts
    ) throws -> Found {
        let k = journey.rides
        guard k > 0 else { return journey }
        // The trips, ride by ride: the first text id among rides from where the ones before
        // could have put the rider.
        var chosen: [[TieRide]] = []
        var frontier = access.mapValues { departure + $0 }
        for i in 0..<k {
            let after = k - 1 - i
            var first: [UInt8]?
            var rides: [TieRide] = []
            for (sid, readyAt) in frontier.sorted(by: { $0.key < $1.key }) {
                let until = i == 0 ? readyAt : latest.latestBoarding(at: sid, rides: after + 1)
                guard until >= readyAt else { continue }
                for boarding in boardings(at: sid, from: readyAt, to: until + 1) {
                    var ride = TieRide(
                        route: boarding.route, trip: boarding.trip, boardIdx: boarding.idx, board: sid, boardTime: boarding.time,
                        alights: [])
                    ride.alights = alights(of: ride, latest: latest, ridesAfter: after)
                    guard !ride.alights.isEmpty else { continue }
                    let text = try tripText(ride, texts)
                    if first == nil || text.lexicographicallyPrecedes(first!) {
                        first = text
                        rides = []
                    }
                    if text == first { rides.append(ride) }
                }
            }
            guard !rides.isEmpty else { return journey }
            chosen.append(rides)
            frontier = [:]
            guard after > 0 else { break }
            for ride in rides {
                for alight in ride.alights {
                    for e in Int(transfers.first[alight.sid])..<Int(transfers.first[alight.sid + 1]) {
                        let to = Int(transfers.targets[e])
                        let t = alight.time + transfers.seconds(e)
                        if t <= latest.latestBoarding(at: to, rides: after) { frontier[to] = min(frontier[to] ?? t, t) }
                    }
                }
            }
        }
        guard let steps = try stopsInOrder(chosen, access: access, targets: targets, texts: texts),
            case .egress(let from, let seconds)? = steps.last, case .ride(_, _, _, _, let alightTime)? = steps.dropLast().last,
            alightTime + seconds == journey.arrival, targets[from] != nil
        else { return journey }
        return Found(rides: k, arrival: journey.arrival, steps: steps)
    }

    /// The steps of the journey on the trips `chosen` (by ride, every ride that has that
    /// ride's trip) whose stops come first: at each boarding and alighting, the first stop by
    /// text id from which the rest of the journey can still be made. Nil when none.
    private func stopsInOrder(_ chosen: [[TieRide]], access: [Int: Int], targets: [Int: Int], texts: TieTexts) throws -> [Step]? {
        let k = chosen.count
        // Which alightings still make the rest (backwards from the last ride), and which
        // boardings have such an alighting.
        var alightOK = chosen.map { $0.map { [Bool](repeating: false, count: $0.alights.count) } }
        var boardOK = chosen.map { [Bool](repeating: false, count: $0.count) }
        for i in Swift.stride(from: k - 1, through: 0, by: -1) {
            for (r, ride) in chosen[i].enumerated() {
                for (a, alight) in ride.alights.enumerated() {
                    alightOK[i][r][a] =
                        i == k - 1
                        || chosen[i + 1].indices.contains { boardOK[i + 1][$0] && transfer(from: alight, to: chosen[i + 1][$0]) != nil }
                }
                boardOK[i][r] = alightOK[i][r].contains(true)
            }
        }
        // Forwards: the first boarding stop among those an alighting kept so far reaches, then
        // the first alighting stop; each boarding remembers the alighting it came from.
        var kept: [[(ride: Int, alight: Int)]] = []
        var cameFrom: [[Int: (pair: Int, seconds: Int)]] = []
        for i in 0..<k {
            var from: [Int: (pair: Int, seconds: Int)] = [:]
            var boards: [Int] = []
            for (r, ride) in chosen[i].enumerated() where boardOK[i][r] {
                guard i > 0 else {
                    boards.append(r)
                    continue
                }
                for (p, pair) in kept[i - 1].enumerated() {
                    if let seconds = transfer(from: chosen[i - 1][pair.ride].alights[pair.alight], to: ride) {
                        from[r] = (p, seconds)
                        boards.append(r)
                        break
                    }
                }
            }
            boards = try firstByText(boards, texts) { chosen[i][$0].board }
            var alights: [(ride: Int, alight: Int)] = []
            for r in boards {
                for a in chosen[i][r].alights.indices where alightOK[i][r][a] { alights.append((r, a)) }
            }
            alights = try firstByText(alights, texts) { chosen[i][$0.ride].alights[$0.alight].sid }
            guard !alights.isEmpty else { return nil }
            kept.append(alights)
            cameFrom.append(from)
        }
        // Read back from the first of the last alightings.
        var pairs = [kept[k - 1][0]]
        var seconds: [Int] = []
        for i in Swift.stride(from: k - 1, to: 0, by: -1) {
            guard let back = cameFrom[i][pairs[0].ride] else { return nil }
            pairs.insert(kept[i - 1][back.pair], at: 0)
            seconds.insert(back.seconds, at: 0)
        }
        var steps: [Step] = []
        for (i, pair) in pairs.enumerated() {
            let ride = chosen[i][pair.ride]
            let alight = ride.alights[pair.alight]
            if i == 0 {
                steps.append(.access(to: ride.board, seconds: access[ride.board] ?? 0))
            } else {
                let before = chosen[i - 1][pairs[i - 1].ride].alights[pairs[i - 1].alight]
                steps.append(.transfer(from: before.sid, to: ride.board, seconds: seconds[i - 1]))
            }
            let r = Ride(
                route: Int32(ride.route), boardIdx: Int32(ride.boardIdx), alightIdx: Int32(alight.idx), boardRound: 0, trip: ride.trip)
            steps.append(.ride(r, board: ride.board, boardTime: ride.boardTime, alight: alight.sid, alightTime: alight.time))
        }
        if let last = pairs.last {
            let sid = chosen[k - 1][last.ride].alights[last.alight].sid
            steps.append(.egress(from: sid, seconds: targets[sid] ?? 0))
        }
        return steps
    }

    /// The seconds of the transfer from `alight` that catches `ride`, if one does.
    private func transfer(from alight: (idx: Int, sid: Int, time: Int), to ride: TieRide) -> Int? {
        for e in Int(transfers.first[alight.sid])..<Int(transfers.first[alight.sid + 1]) where Int(transfers.targets[e]) == ride.board {
            let seconds = transfers.seconds(e)
            return alight.time + seconds <= ride.boardTime ? seconds : nil
        }
        return nil
    }

    /// The items whose stop comes first by text id.
    private func firstByText<T>(_ items: [T], _ texts: TieTexts, stop: (T) -> Int) throws -> [T] {
        var first: [UInt8]?
        var result: [T] = []
        var known: [Int: [UInt8]] = [:]
        for item in items {
            let sid = stop(item)
            let text = try known[sid] ?? texts.stop(sid)
            known[sid] = text
            if first == nil || text.lexicographicallyPrecedes(first!) {
                first = text
                result = []
            }
            if text == first { result.append(item) }
        }
        return result
    }

    /// A ride's trip id: the timetable's, or the one an added trip came with.
    private func tripText(_ ride: TieRide, _ texts: TieTexts) throws -> [UInt8] {
        if case .added(let a) = ride.line { return Array((added[a].calls.first?.boarding.tripID ?? "").utf8) }
        switch ride.trip.kind {
        case .regular(let index): return try texts.trip(tables.tripTid[index].int)
        case .template(let index): return try texts.trip(tables.templates[index].tid.int)
        }
    }

    /// The later stops of `ride` where alighting still arrives in time with at most
    /// `ridesAfter` more rides.
    private func alights(of ride: TieRide, latest: RaptorSearch, ridesAfter: Int) -> [(idx: Int, sid: Int, time: Int)] {
        var result: [(idx: Int, sid: Int, time: Int)] = []
        if case .added(let a) = ride.line {
            let route = added[a]
            for idx in (ride.boardIdx + 1)..<route.sids.count where route.alights[idx] {
                let sid = route.sids[idx]
                if route.arrival[idx] <= latest.latestAlighting(at: sid, rides: ridesAfter) {
                    result.append((idx, sid, route.arrival[idx]))
                }
            }
            return result
        }
        let route = tables.routes[ride.route]
        let base = ride.trip.dayStart + ride.trip.startSecs
        let offsets = self.offsets(of: ride.trip)
        let times = live.hasTrips ? liveTimes(of: ride.trip) : nil
        for idx in (ride.boardIdx + 1)..<route.stopCount {
            let g = tables.stop(idx, of: route)
            let sid = Int(tables.stopSid[g])
            guard tables.stopAlights[g], !wheelchair || network.stopAccessible[sid], !skips(times, idx) else { continue }
            let t = base + tables.arrivalOffset(offsets, idx) + arrivalDelay(times, idx)
            if t <= latest.latestAlighting(at: sid, rides: ridesAfter) { result.append((idx, sid, t)) }
        }
        return result
    }

    /// Every trip instance that may be boarded at `sid` leaving in `[from, to)`: its route
    /// (`Ride.Line.raw`), the stop's index on it, and the instant.
    func boardings(at sid: Int, from: Int, to: Int) -> [(route: Int, idx: Int, trip: TripInstance, time: Int)] {
        guard wheelchair == false || network.stopAccessible[sid] else { return [] }
        var result: [(route: Int, idx: Int, trip: TripInstance, time: Int)] = []
        for place in addedPlaces[sid] ?? [] where !wheelchair && added[place.route].boards[place.idx] {
            let departure = added[place.route].departure[place.idx]
            if departure >= from && departure < to {
                result.append((Int(Ride.Line.added(place.route).raw), place.idx, Self.addedTrip, departure))
            }
        }
        for place in tables.places(of: sid) {
            let (r, idx) = tables.place(place)
            let route = tables.routes[r]
            guard tables.stopBoards[tables.stop(idx, of: route)] else { continue }
            let trips = route.trips
            for day in days[route.feedIndex] where day.active.contains(route.sv) {
                if !trips.isEmpty {
                    var i = lowerBound(trips, idx, from - day.start - maxLate)
                    while i < trips.upperBound && day.start + tables.departure(i, idx) - maxEarly < to {
                        defer { i += 1 }
                        guard !wheelchair || tables.tripAccessible[i] else { continue }
                        let instance = TripInstance(
                            day: day.civil, dayStart: day.start, startSecs: Int(tables.tripStart[i]), kind: .regular(i))
                        guard let departure = liveDeparture(of: instance, at: idx, scheduled: day.start + tables.departure(i, idx)),
                            departure >= from && departure < to
                        else { continue }
                        result.append((r, idx, instance, departure))
                    }
                }
                for t in route.templateRange {
                    let template = tables.templates[t]
                    guard !wheelchair || template.accessible else { continue }
                    let base = day.start + tables.departureOffset(template.offsets, idx)
                    for w in template.windows {
                        let need = from - maxLate - base - w.start
                        var start = w.start + (need > 0 ? need / w.headway : 0) * w.headway
                        while start < w.end && base + start - maxEarly < to {
                            defer { start += w.headway }
                            let instance = TripInstance(day: day.civil, dayStart: day.start, startSecs: start, kind: .template(t))
                            guard let departure = liveDeparture(of: instance, at: idx, scheduled: base + start),
                                departure >= from && departure < to
                            else { continue }
                            result.append((r, idx, instance, departure))
                        }
                    }
                }
            }
        }
        return result
    }
}
