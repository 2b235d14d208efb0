import BundleFormat

/// Round-based public transit routing (RAPTOR, Delling, Pajor and Werneck 2012) over a
/// `RoutingNetwork`: round k finds, for every stop, the earliest arrival with k rides,
/// by scanning each route (pattern) once from the first stop improved in round k - 1;
/// transfers (journey-semantics.md) follow each round.
///
/// Labels are absolute instants (Unix seconds). Each round keeps its own labels and
/// where they came from, so a journey is read back from any round.
struct RaptorSearch {
    /// One service day of a feed that trips may run on during the search.
    struct Day {
        let civil: CivilDate
        /// The instant GTFS time 0 of the day stands for (noon - 12 h).
        let start: Int
        let active: ServiceCalendar.ActiveSet
    }

    /// A trip running on one day: a regular trip (`trip` >= 0, index in the network's trip
    /// arrays) or an instance of a frequency template (`trip` = -1 - template index).
    struct TripInstance {
        let day: CivilDate
        let dayStart: Int
        let startSecs: Int
        let trip: Int
    }

    /// How a stop's arrival label of a round was reached: a ride on `route` boarded at
    /// `boardIdx` with the ready label of round `boardRound` there.
    struct Ride {
        let route: Int32
        let boardIdx: Int32
        let alightIdx: Int32
        let boardRound: Int32
        let trip: TripInstance
    }

    /// A step of a journey read back from the labels, origin first.
    enum Step {
        case access(to: Int, seconds: Int)
        case ride(Ride, board: Int, boardTime: Int, alight: Int, alightTime: Int)
        case transfer(from: Int, to: Int, seconds: Int)
        case egress(from: Int, seconds: Int)
    }

    /// A journey to the destination found in round `rides`.
    struct Found {
        let rides: Int
        let arrival: Int
        let steps: [Step]
    }

    static let never = Int.max / 2

    let network: RoutingNetwork
    let transferTimes: TransferTimes
    /// Service days by feed (fid - 1), earliest first.
    let days: [[Day]]
    let maxRides: Int
    let wheelchair: Bool

    private var arrival: [[Int]] = []
    private var ready: [[Int]] = []
    private var rides: [[Ride?]] = []
    /// Where a ready label's transfer started (a stop), -1 for the origin's access.
    private var walkedFrom: [[Int32]] = []
    private var accessSeconds: [Int] = []
    private var bestArrival: [Int] = []
    private var bestReady: [Int] = []
    private var readyRound: [Int32] = []

    init(network: RoutingNetwork, transferTimes: TransferTimes, days: [[Day]], maxRides: Int, wheelchair: Bool) {
        self.network = network
        self.transferTimes = transferTimes
        self.days = days
        self.maxRides = maxRides
        self.wheelchair = wheelchair
    }

    /// Journeys from `origins` (stop, instant the rider can board there, access seconds)
    /// to `targets` (stop -> egress seconds): for each number of rides, the earliest arrival
    /// if it beats every journey with fewer rides and `bound[rides]` (arrivals at or after
    /// it are not wanted; `bound` does not increase with the rides).
    mutating func run(origins: [(sid: Int, ready: Int, access: Int)], targets: [Int: Int], bound: [Int]) -> [Found] {
        reset()
        var marked: [Int] = []
        for origin in origins where origin.ready < bestReady[origin.sid] {
            ready[0][origin.sid] = origin.ready
            bestReady[origin.sid] = origin.ready
            readyRound[origin.sid] = 0
            walkedFrom[0][origin.sid] = -1
            accessSeconds[origin.sid] = origin.access
            marked.append(origin.sid)
        }
        var best = bound[0]
        var found: [Found] = []
        var queueIdx = [Int32](repeating: -1, count: network.routes.count)
        var queue: [Int] = []
        var improved: [Int] = []
        var improvedStamp = [Int32](repeating: -1, count: network.stopCount)
        var markedStamp = [Int32](repeating: -1, count: network.stopCount)
        var reached: [(sid: Int, seconds: Int)] = []
        for k in 1...max(1, maxRides) where !marked.isEmpty {
            best = min(best, bound[min(k, bound.count - 1)])
            // The routes through stops marked in the last round, from the first such stop.
            queue.removeAll(keepingCapacity: true)
            for sid in marked {
                for place in network.stopRoutes[sid] {
                    let r = Int(place.route)
                    if queueIdx[r] < 0 { queue.append(r) }
                    if queueIdx[r] < 0 || place.idx < queueIdx[r] { queueIdx[r] = place.idx }
                }
            }
            improved.removeAll(keepingCapacity: true)
            for r in queue {
                scan(route: r, from: Int(queueIdx[r]), round: k, best: best, improved: &improved, stamp: &improvedStamp)
                queueIdx[r] = -1
            }
            // Transfers from every stop reached in this round.
            marked.removeAll(keepingCapacity: true)
            for sid in improved {
                let alighted = arrival[k][sid]
                transferTimes.transfers(from: sid, into: &reached)
                for (to, seconds) in reached {
                    let t = alighted + seconds
                    guard t < bestReady[to], t < best else { continue }
                    if markedStamp[to] != Int32(k) {
                        markedStamp[to] = Int32(k)
                        marked.append(to)
                    }
                    ready[k][to] = t
                    bestReady[to] = t
                    readyRound[to] = Int32(k)
                    walkedFrom[k][to] = Int32(sid)
                }
            }
            // The destination.
            var bestTarget = -1
            for (sid, egress) in targets where arrival[k][sid] < Self.never {
                let t = arrival[k][sid] + egress
                if t < best || (t == best && bestTarget >= 0 && sid < bestTarget) {
                    best = t
                    bestTarget = sid
                }
            }
            if bestTarget >= 0 {
                found.append(Found(rides: k, arrival: best, steps: steps(to: bestTarget, round: k, egress: targets[bestTarget]!)))
            }
        }
        return found
    }

    private mutating func reset() {
        let n = network.stopCount
        let rounds = max(1, maxRides) + 1
        if arrival.count != rounds || bestArrival.count != n {
            arrival = [[Int]](repeating: [Int](repeating: Self.never, count: n), count: rounds)
            ready = arrival
            rides = [[Ride?]](repeating: [Ride?](repeating: nil, count: n), count: rounds)
            walkedFrom = [[Int32]](repeating: [Int32](repeating: -1, count: n), count: rounds)
            accessSeconds = [Int](repeating: 0, count: n)
            bestArrival = [Int](repeating: Self.never, count: n)
            bestReady = bestArrival
            readyRound = [Int32](repeating: -1, count: n)
            return
        }
        for k in 0..<rounds {
            arrival[k].withUnsafeMutableBufferPointer { $0.update(repeating: Self.never) }
            ready[k].withUnsafeMutableBufferPointer { $0.update(repeating: Self.never) }
        }
        bestArrival.withUnsafeMutableBufferPointer { $0.update(repeating: Self.never) }
        bestReady.withUnsafeMutableBufferPointer { $0.update(repeating: Self.never) }
    }

    /// Scans route `r` from stop index `first`: alights the current trip at each later stop
    /// where that improves the stop, and moves to an earlier trip wherever the last round's
    /// labels can catch one.
    private mutating func scan(route r: Int, from first: Int, round k: Int, best: Int, improved: inout [Int], stamp: inout [Int32]) {
        let route = network.routes[r]
        var trip: TripInstance?
        var tripDepartureBase = 0
        var boardIdx = 0
        var boardRound: Int32 = 0
        for idx in first..<route.stopCount {
            let g = route.firstStop + idx
            let sid = Int(network.routeStopSid[g])
            let usable = !wheelchair || network.stopAccessible[sid]
            if let current = trip, usable, network.routeStopAlights[g] {
                let t = tripDepartureBase + Int(network.routeStopArrival[g])
                if t < bestArrival[sid] && t < best {
                    arrival[k][sid] = t
                    bestArrival[sid] = t
                    rides[k][sid] = Ride(
                        route: Int32(r), boardIdx: Int32(boardIdx), alightIdx: Int32(idx), boardRound: boardRound, trip: current)
                    if stamp[sid] != Int32(k) {
                        stamp[sid] = Int32(k)
                        improved.append(sid)
                    }
                }
            }
            guard usable, network.routeStopBoards[g] else { continue }
            let canBoard = bestReady[sid]
            guard canBoard < Self.never else { continue }
            let departureOffset = Int(network.routeStopDeparture[g])
            if trip != nil && canBoard > tripDepartureBase + departureOffset { continue }
            let limit = trip != nil ? tripDepartureBase + departureOffset : best
            if let earlier = earliestTrip(route: route, departureOffset: departureOffset, from: canBoard, before: limit) {
                trip = earlier
                tripDepartureBase = earlier.dayStart + earlier.startSecs
                boardIdx = idx
                boardRound = readyRound[sid]
            }
        }
    }

    /// The trip of `route` that departs first at or after `time` from the stop whose
    /// departure offset is `departureOffset`, if it departs before `limit`.
    private func earliestTrip(route: RoutingNetwork.Route, departureOffset: Int, from time: Int, before limit: Int) -> TripInstance? {
        var found: TripInstance?
        var foundDeparture = limit
        let trips = route.firstTrip..<(route.firstTrip + route.tripCount)
        for day in days[route.fid - 1] {
            let base = day.start + departureOffset
            if base + route.firstStart >= foundDeparture { break }
            let low = time - base
            if low > route.lastStart && route.templateRange.isEmpty { continue }
            // Regular trips by start time: the first that runs this day.
            var i = lowerBound(trips, low)
            while i < trips.upperBound {
                let departure = base + Int(network.tripStart[i])
                if departure >= foundDeparture { break }
                if day.active.contains(Int(network.tripService[i])) && (!wheelchair || network.tripAccessible[i]) {
                    found = TripInstance(day: day.civil, dayStart: day.start, startSecs: Int(network.tripStart[i]), trip: i)
                    foundDeparture = departure
                    break
                }
                i += 1
            }
            for t in route.templateRange {
                let template = network.templates[t]
                guard day.active.contains(template.sv), !wheelchair || template.accessible else { continue }
                for w in template.windows {
                    let need = low - w.start
                    let start = w.start + (need > 0 ? (need + w.headway - 1) / w.headway : 0) * w.headway
                    guard start < w.end, base + start < foundDeparture else { continue }
                    found = TripInstance(day: day.civil, dayStart: day.start, startSecs: start, trip: -1 - t)
                    foundDeparture = base + start
                }
            }
        }
        return found
    }

    /// A journey found in `original.mirrored()`, told forwards in `original`: steps in
    /// the other order, each ride on the same route and trip with instants negated back.
    static func unmirrored(_ found: Found, in original: RoutingNetwork) -> Found {
        let steps = found.steps.reversed().map { step -> Step in
            switch step {
            case .access(let to, let seconds): return .egress(from: to, seconds: seconds)
            case .egress(let from, let seconds): return .access(to: from, seconds: seconds)
            case .transfer(let from, let to, let seconds): return .transfer(from: to, to: from, seconds: seconds)
            case .ride(let ride, let board, let boardTime, let alight, let alightTime):
                let route = original.routes[Int(ride.route)]
                let last = Int32(route.stopCount - 1)
                let t = ride.trip
                let trip = t.trip >= 0 ? 2 * route.firstTrip + route.tripCount - 1 - t.trip : t.trip
                let forward = Ride(
                    route: ride.route, boardIdx: last - ride.alightIdx, alightIdx: last - ride.boardIdx, boardRound: ride.boardRound,
                    trip: TripInstance(day: t.day, dayStart: -t.dayStart, startSecs: -t.startSecs, trip: trip))
                return .ride(forward, board: alight, boardTime: -alightTime, alight: board, alightTime: -boardTime)
            }
        }
        var arrival = 0
        for step in steps {
            if case .ride(_, _, _, _, let alightTime) = step { arrival = alightTime }
            if case .egress(_, let seconds) = step { arrival += seconds }
        }
        return Found(rides: found.rides, arrival: arrival, steps: steps)
    }

    /// Every instant a trip that may be boarded at `sid` leaves it in `[from, to)`.
    func departures(at sid: Int, from: Int, to: Int) -> [Int] {
        guard wheelchair == false || network.stopAccessible[sid] else { return [] }
        var result: [Int] = []
        for place in network.stopRoutes[sid] {
            let route = network.routes[Int(place.route)]
            let g = route.firstStop + Int(place.idx)
            guard network.routeStopBoards[g] else { continue }
            let offset = Int(network.routeStopDeparture[g])
            let trips = route.firstTrip..<(route.firstTrip + route.tripCount)
            for day in days[route.fid - 1] {
                let base = day.start + offset
                if base + route.firstStart >= to { break }
                var i = lowerBound(trips, from - base)
                while i < trips.upperBound && base + Int(network.tripStart[i]) < to {
                    if day.active.contains(Int(network.tripService[i])) && (!wheelchair || network.tripAccessible[i]) {
                        result.append(base + Int(network.tripStart[i]))
                    }
                    i += 1
                }
                for t in route.templateRange {
                    let template = network.templates[t]
                    guard day.active.contains(template.sv), !wheelchair || template.accessible else { continue }
                    for w in template.windows {
                        var start = w.start
                        while start < w.end && base + start < to {
                            if base + start >= from { result.append(base + start) }
                            start += w.headway
                        }
                    }
                }
            }
        }
        return result
    }

    /// The first index in `range` whose trip starts at or after `value`.
    private func lowerBound(_ range: Range<Int>, _ value: Int) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if Int(network.tripStart[mid]) < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The journey ending with round `round`'s arrival at `target`, read back to the origin.
    private func steps(to target: Int, round: Int, egress: Int) -> [Step] {
        var reversed: [Step] = [.egress(from: target, seconds: egress)]
        var stop = target
        var k = round
        while let ride = rides[k][stop] {
            let route = network.routes[Int(ride.route)]
            let board = Int(network.routeStopSid[route.firstStop + Int(ride.boardIdx)])
            let base = ride.trip.dayStart + ride.trip.startSecs
            reversed.append(
                .ride(
                    ride, board: board, boardTime: base + Int(network.routeStopDeparture[route.firstStop + Int(ride.boardIdx)]),
                    alight: stop, alightTime: base + Int(network.routeStopArrival[route.firstStop + Int(ride.alightIdx)])))
            let r = Int(ride.boardRound)
            let from = Int(walkedFrom[r][board])
            if r == 0 || from < 0 {
                reversed.append(.access(to: board, seconds: accessSeconds[board]))
                break
            }
            reversed.append(.transfer(from: from, to: board, seconds: ready[r][board] - arrival[r][from]))
            stop = from
            k = r
        }
        return reversed.reversed()
    }
}
