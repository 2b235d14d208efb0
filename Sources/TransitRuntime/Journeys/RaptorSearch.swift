import BundleFormat

/// Round-based public transit routing (RAPTOR, Delling, Pajor and Werneck 2012) over a
/// `RoutingNetwork`: round k finds, for every stop, the earliest arrival with k rides,
/// by scanning each route (pattern) once from the first stop improved in round k - 1;
/// transfers (journey-semantics.md) follow each round.
///
/// Labels are absolute instants (Unix seconds). Each round keeps its own labels and
/// where they came from, so a journey is read back from any round.
struct RaptorSearch {
    static let never = Int.max / 2

    let network: RoutingNetwork
    /// `network.tables`, held here for the scans.
    let tables: RouteTables
    let transfers: TransferGraph
    /// Service days by feed (fid - 1), earliest first.
    let days: [[Day]]
    let maxRides: Int
    let wheelchair: Bool
    /// By route: whether its service runs on one of `days` (the others are never scanned).
    /// Derivable from `routeDays`, but read for every route through every marked stop, so
    /// kept ready.
    private let routeRuns: [Bool]
    /// By route, the days of its feed's `days` its service runs on, as bits (route r's day
    /// d is bit d % 64 of word r * dayWords + d / 64): a trip search visits only those.
    private let routeDays: [UInt64]
    private let dayWords: Int
    private let dayStride: Int
    /// `days` flattened for the scans: feed f's day d at f * dayStride + d.
    private let dayStarts: [Int]
    private let dayCivil: [CivilDate]

    /// The query's live data (`JourneyLiveData.none` without), read in this search's
    /// direction (`mirrored`: the network is the mirror, its trips run backwards), and the
    /// largest lateness and earliness in it, in that direction: a trip may then leave up to
    /// that much off its schedule.
    let live: JourneyLiveData
    let mirrored: Bool
    let maxLate: Int
    let maxEarly: Int

    /// Trips the live data adds, in this search's direction; a ride on `added[a]` is on
    /// `Ride.Line.added(a)`. Not ridden by a wheelchair search (they carry no accessibility).
    let added: [AddedRoute]
    /// By sid: the added routes through the stop and its index in each.
    let addedPlaces: [Int: [(route: Int, idx: Int)]]

    /// What one run may label beyond its bound, passed to `run` (`Limits`).
    private var limits = Limits()

    let stride: Int
    /// The search's labels (`Labels`), handed from one search to the next.
    private(set) var labels = Labels()
    /// The last run's `TargetReach` and the stops it was worked out for (sorted): a range's
    /// searches and the searches for ties that follow a query run towards the same stops.
    private var lastReach: (ends: [Int], addedRoutes: Bool, reach: TargetReach?)?

    /// A search's labels: those of every round (round k's label of stop s at k * stride +
    /// s), the rides and walks behind them, and by stop the best of any round. A finished
    /// search hands them to the next on a network of the same size
    /// (`JourneyCaches.labelPool`): reused, a query neither allocates nor clears them, and a
    /// run puts back only
    /// what the run before it set.
    struct Labels {
        fileprivate(set) var arrival: [Int] = []
        fileprivate(set) var ready: [Int] = []
        /// By label: its ride's index in `rides`, -1 for none. The rides are appended as
        /// labels are set (a run sets a few of the rounds x stops labels, so a ride kept for
        /// each would mostly be empty).
        fileprivate var rideOf: [Int32] = []
        fileprivate var rides: [Ride] = []
        /// Where a ready label's transfer started (a stop), -1 for the origin's access.
        fileprivate var walkedFrom: [Int32] = []
        fileprivate var accessSeconds: [Int] = []
        /// By stop: the earliest arrival and the earliest ready label of any round so far,
        /// side by side (a scan reads both at each stop it passes).
        fileprivate var bestLabels: [BestLabels] = []
        fileprivate var readyRound: [Int32] = []
        /// By stop: its egress seconds while a run has it as a target, else -1.
        fileprivate var egress: [Int32] = []
        /// What the last run set: indexes of `arrival` and `ready`, stops of `bestLabels`.
        fileprivate var setArrivals: [Int] = []
        fileprivate var setReadies: [Int] = []
        fileprivate var setStops: [Int] = []

        /// The last run's arrival labels and the indexes it set.
        var lastRunArrivals: (values: [Int], set: [Int]) { (arrival, setArrivals) }
        /// The last run's ready labels and the indexes it set.
        var lastRunReadies: (values: [Int], set: [Int]) { (ready, setReadies) }
    }

    /// Takes over `labels` (from a finished search) if they fit this search's network and
    /// rounds; the next `run` clears what their last run set.
    mutating func adopt(_ labels: Labels) {
        guard labels.arrival.count == (max(1, maxRides) + 1) * stride, labels.bestLabels.count == stride else { return }
        self.labels = labels
    }

    /// Hands this search's labels over for another search (nil if it never ran); this
    /// search has none left and must not be read or run again.
    mutating func handOverLabels() -> Labels? {
        guard !labels.arrival.isEmpty else { return nil }
        defer { labels = Labels() }
        return labels
    }

    /// A search over `network` (`mirrored`: the mirror of the bundle's) on `days`, riding at
    /// most `maxRides` trips, with `live`'s times and added trips.
    init(
        network: RoutingNetwork, mirrored: Bool = false, transfers: TransferGraph, days: [[Day]], maxRides: Int, wheelchair: Bool,
        live: JourneyLiveData = .none
    ) {
        self.network = network
        self.live = live
        self.mirrored = mirrored
        // In the mirror delays are negated: lateness becomes earliness.
        (maxLate, maxEarly) = mirrored ? (live.maxEarly, live.maxLate) : (live.maxLate, live.maxEarly)
        added = mirrored ? live.mirroredAdded : live.added
        addedPlaces = mirrored ? live.mirroredAddedPlaces : live.addedPlaces
        tables = network.tables
        stride = network.stopCount
        self.transfers = transfers
        self.days = days
        self.maxRides = maxRides
        self.wheelchair = wheelchair
        dayStride = days.map(\.count).max() ?? 0
        // Filled through buffers: a query makes two or three searches, each of which reads
        // every route's service on every day of the search.
        let stride = dayStride
        let routes = network.tables.routes
        let words = max(1, (stride + 63) / 64)
        var bits = [UInt64](repeating: 0, count: routes.count * words)
        var runs = [Bool](repeating: false, count: routes.count)
        bits.withUnsafeMutableBufferPointer { bits in
            runs.withUnsafeMutableBufferPointer { runs in
                for r in routes.indices {
                    let sv = routes[r].sv
                    for (d, day) in days[routes[r].feedIndex].enumerated() where day.active.contains(sv) {
                        bits[r * words + d >> 6] |= 1 << UInt64(d & 63)
                        runs[r] = true
                    }
                }
            }
        }
        dayWords = words
        routeDays = bits
        routeRuns = runs
        dayStarts = days.flatMap { feed in feed.map(\.start) + [Int](repeating: 0, count: stride - feed.count) }
        dayCivil = days.flatMap { feed in feed.map(\.civil) + [CivilDate](repeating: CivilDate(dayNumber: 0), count: stride - feed.count) }
    }

    /// Journeys from `origins` (stop, instant the rider can board there, access seconds)
    /// to `targets` (stop -> egress seconds): for each number of rides, the earliest arrival
    /// if it beats every journey with fewer rides and `bound[rides]` (arrivals at or after
    /// it are not wanted; `bound` does not increase with the rides, and no journey has more
    /// rides than its last index). `ends` (default: the targets' stops) are where the
    /// journeys whose labels are read end: the last rounds label only what reaches them
    /// (`TargetReach`); a search for labels alone passes them without targets.
    /// `limits` bound what the run labels besides (`Limits`).
    mutating func run(
        origins: [(sid: Int, ready: Int, access: Int)], targets: [Int: Int], bound: [Int], endingAt ends: [Int]? = nil,
        limits: Limits = Limits()
    ) -> [Found] {
        reset()
        self.limits = limits
        // Let go of the limits' arrays when done: their owner may change them (`LaterDepartures`).
        defer { self.limits = Limits() }
        for (sid, seconds) in targets { labels.egress[sid] = Int32(seconds) }
        defer { for sid in targets.keys { labels.egress[sid] = -1 } }
        var round = Round(stops: network.stopCount, routes: tables.routes.count)
        markOrigins(origins, in: &round)
        var best = bound[0]
        var found: [Found] = []
        let lastRound = min(max(1, maxRides), bound.count - 1)
        let reach = reach(towards: (ends ?? Array(targets.keys)).sorted())
        for k in 1..<(lastRound + 1) where !round.marked.isEmpty {
            // A cancelled task (an app's async call) stops here; the caller throws.
            if Task.isCancelled { break }
            best = min(best, bound[k])
            // Labels at or after `cut` are not set: the earliest arrival at the destination so
            // far, and as this round reaches the destination at t, t + 1 (a label at t itself
            // stays, so the round still sees every destination stop that ties with it).
            var cut = best
            // In the last round, only the routes through a target and stops that reach one
            // (`TargetReach`); in the rounds before it, what can still reach one.
            let ends = k == lastRound ? reach?.ends : nil
            let level = reach?.level(roundsLeft: lastRound - k)
            queueRoutes(&round, ends: ends)
            let addedFirst = queueAddedRoutes(round)
            round.improved.removeAll(keepingCapacity: true)
            scanRoutes(&round, round: k, ends: ends, labelling: k == lastRound ? reach?.targets : level?.arrivals, cut: &cut)
            scanAddedRoutes(addedFirst, &round, round: k, cut: &cut)
            round.marked.removeAll()
            // No ride follows the last round: no transfers from it.
            if k < lastRound { relaxTransfers(&round, round: k, cut: cut, boardings: level?.boardings) }
            if let arrival = collectArrival(at: targets, round: k, best: &best) { found.append(arrival) }
        }
        return found
    }

    /// What the rounds of one run carry from phase to phase: the stops marked for the next
    /// round and the routes queued in this one, as bit sets (read in index order, the
    /// routes' stops and the stops' places are read front to back, not in the order they
    /// were marked), and the stops a round improved.
    struct Round {
        var marked: BitSet
        /// Each queued route's first index to scan from (-1: not queued).
        var queueIdx: [Int32]
        var queue: BitSet
        var improved: [Int] = []
        /// The round that last put each stop in `improved` (-1: none), so it is there once.
        var improvedStamp: [Int32]

        init(stops: Int, routes: Int) {
            marked = BitSet(count: stops)
            queueIdx = [Int32](repeating: -1, count: routes)
            queue = BitSet(count: routes)
            improvedStamp = [Int32](repeating: -1, count: stops)
        }
    }

    /// Phase 0: the origins, ready at their instants with no ride, marked for round 1.
    private mutating func markOrigins(_ origins: [(sid: Int, ready: Int, access: Int)], in round: inout Round) {
        for origin in origins where origin.ready < labels.bestLabels[origin.sid].ready {
            setReady(origin.ready, round: 0, stop: origin.sid)
            labels.readyRound[origin.sid] = 0
            labels.walkedFrom[0 * stride + origin.sid] = -1
            labels.accessSeconds[origin.sid] = origin.access
            round.marked.insert(origin.sid)
        }
    }

    /// Phase 1: the routes through stops marked in the last round, each from the first such
    /// stop; with `ends` (the last round), only the routes through a target, up to it.
    private func queueRoutes(_ round: inout Round, ends: [Int: Int]?) {
        if let ends {
            for (r, end) in ends where routeRuns[r] {
                let route = tables.routes[r]
                if let idx = (0..<(end - 1)).first(where: { round.marked.contains(Int(tables.stopSid[tables.stop($0, of: route)])) }) {
                    round.queueIdx[r] = Int32(idx)
                    round.queue.insert(r)
                }
            }
        } else {
            for sid in round.marked {
                for place in tables.places(of: sid) {
                    let (r, i) = tables.place(place)
                    guard routeRuns[r] else { continue }
                    let idx = Int32(truncatingIfNeeded: i)
                    if round.queueIdx[r] < 0 || idx < round.queueIdx[r] {
                        round.queueIdx[r] = idx
                        round.queue.insert(r)
                    }
                }
            }
        }
    }

    /// Phase 1 for the added routes (live data's new trips): each through a marked stop,
    /// from its first such index. None for a step-free search (added trips say nothing of
    /// accessibility).
    private func queueAddedRoutes(_ round: Round) -> [Int: Int] {
        var first: [Int: Int] = [:]
        guard !addedPlaces.isEmpty && !wheelchair else { return first }
        for sid in round.marked {
            for place in addedPlaces[sid] ?? [] { first[place.route] = min(first[place.route] ?? place.idx, place.idx) }
        }
        return first
    }

    /// Phase 2: every queued route scanned, labelling only `labelling` when given.
    private mutating func scanRoutes(_ round: inout Round, round k: Int, ends: [Int: Int]?, labelling kept: BitSet?, cut: inout Int) {
        for r in round.queue {
            scan(
                route: r, from: Int(round.queueIdx[r]), to: ends?[r] ?? tables.routes[r].stopCount, round: k, labelling: kept, cut: &cut,
                improved: &round.improved, stamp: &round.improvedStamp)
            round.queueIdx[r] = -1
        }
        round.queue.removeAll()
    }

    /// Phase 3: the added routes queued, in their order.
    private mutating func scanAddedRoutes(_ first: [Int: Int], _ round: inout Round, round k: Int, cut: inout Int) {
        for (a, from) in first.sorted(by: { $0.key < $1.key }) {
            scanAdded(a, from: from, round: k, cut: &cut, improved: &round.improved, stamp: &round.improvedStamp)
        }
    }

    /// Phase 4: transfers from every stop this round reached, before `cut`, in the rounds
    /// before the last only to where a ride can still board (`boardings`); what they reach
    /// is marked for the next round.
    private mutating func relaxTransfers(_ round: inout Round, round k: Int, cut: Int, boardings: BitSet?) {
        for sid in round.improved {
            let alighted = labels.arrival[k * stride + sid]
            // A stop's transfers are by τ: past the cut, so are the rest.
            for e in Int(transfers.first[sid])..<Int(transfers.first[sid + 1]) {
                let t = alighted + transfers.seconds(e)
                guard t < cut else { break }
                let to = Int(transfers.targets[e])
                guard boardings?.contains(to) ?? true, t < labels.bestLabels[to].ready, limits.caps.isEmpty || t <= limits.caps[to].ready,
                    limits.later.isEmpty || t < limits.later.ready[k * stride + to]
                else { continue }
                round.marked.insert(to)
                setReady(t, round: k, stop: to)
                labels.readyRound[to] = Int32(k)
                labels.walkedFrom[k * stride + to] = Int32(sid)
            }
        }
    }

    /// Phase 5: the destination, when this round arrives there before `best` (ties: the
    /// smaller sid), read back into its steps.
    private func collectArrival(at targets: [Int: Int], round k: Int, best: inout Int) -> Found? {
        var bestTarget = -1
        for (sid, egress) in targets where labels.arrival[k * stride + sid] < Self.never {
            let t = labels.arrival[k * stride + sid] + egress
            if t < best || (t == best && bestTarget >= 0 && sid < bestTarget) {
                best = t
                bestTarget = sid
            }
        }
        guard bestTarget >= 0 else { return nil }
        return Found(rides: k, arrival: best, steps: steps(to: bestTarget, round: k, egress: targets[bestTarget]!))
    }

    /// The `TargetReach` towards `ends` (sorted), the last run's when it was towards them.
    private mutating func reach(towards ends: [Int]) -> TargetReach? {
        let addedRoutes = !addedPlaces.isEmpty && !wheelchair
        if let last = lastReach, last.ends == ends, last.addedRoutes == addedRoutes { return last.reach }
        let reach = TargetReach(tables: tables, transfers: transfers, targets: ends, stopCount: network.stopCount, addedRoutes: addedRoutes)
        lastReach = (ends, addedRoutes, reach)
        return reach
    }

    /// What the last `run` proved, as `caps` for a search in the other direction: a journey
    /// of its answer boards at a stop no earlier than the run was ready there and alights no
    /// earlier than it arrived (in the other direction times are negated, so earliest
    /// becomes latest). A stop the run never reached is closed.
    var capsForTheOtherDirection: [BestLabels] {
        labels.bestLabels.map { BestLabels(arrival: -$0.ready, ready: -$0.arrival) }
    }

    private mutating func reset() {
        let n = network.stopCount
        let rounds = max(1, maxRides) + 1
        if labels.arrival.count != rounds * n {
            labels = Labels()
            labels.arrival = [Int](repeating: Self.never, count: rounds * n)
            labels.ready = labels.arrival
            labels.rideOf = [Int32](repeating: -1, count: rounds * n)
            labels.walkedFrom = [Int32](repeating: -1, count: rounds * n)
            labels.accessSeconds = [Int](repeating: 0, count: n)
            labels.bestLabels = [BestLabels](repeating: BestLabels(arrival: Self.never, ready: Self.never), count: n)
            labels.readyRound = [Int32](repeating: -1, count: n)
            labels.egress = [Int32](repeating: -1, count: n)
            return
        }
        for i in labels.setArrivals {
            labels.arrival[i] = Self.never
            labels.rideOf[i] = -1
        }
        labels.rides.removeAll(keepingCapacity: true)
        for i in labels.setReadies { labels.ready[i] = Self.never }
        for sid in labels.setStops { labels.bestLabels[sid] = BestLabels(arrival: Self.never, ready: Self.never) }
        labels.setArrivals.removeAll(keepingCapacity: true)
        labels.setReadies.removeAll(keepingCapacity: true)
        labels.setStops.removeAll(keepingCapacity: true)
    }

    /// Scans route `r` from stop index `first` to before `end`: alights the current trip at
    /// each later stop where that improves the stop (and arrives before `cut`; with
    /// `labelling`, only at its stops), and moves to an earlier trip wherever the last
    /// round's labels can catch one.
    private mutating func scan(
        route r: Int, from first: Int, to end: Int, round k: Int, labelling: BitSet?, cut: inout Int, improved: inout [Int],
        stamp: inout [Int32]
    ) {
        let route = tables.routes[r]
        var trip: TripInstance?
        // The current trip's start instant, the first of its offsets, its live times.
        var tripBase = 0
        var offsets = 0
        var tripLive: LiveTimes?
        var boardIdx = 0
        var boardRound: Int32 = 0
        for idx in first..<end {
            let g = tables.stop(idx, of: route)
            let sid = Int(tables.stopSid[g])
            let usable = !wheelchair || network.stopAccessible[sid]
            if let current = trip, usable, tables.stopAlights[g], !skips(tripLive, idx), labelling?.contains(sid) ?? true {
                let t = tripBase + tables.arrivalOffset(offsets, idx) + arrivalDelay(tripLive, idx)
                if t < labels.bestLabels[sid].arrival && t < cut && (limits.caps.isEmpty || t <= limits.caps[sid].arrival)
                    && (limits.later.isEmpty || t < limits.later.arrival[k * stride + sid])
                {
                    let ride = Ride(
                        route: Int32(r), boardIdx: Int32(boardIdx), alightIdx: Int32(idx), boardRound: boardRound, trip: current)
                    label(sid, arrival: t, round: k, by: ride, cut: &cut, improved: &improved, stamp: &stamp)
                }
            }
            guard usable, tables.stopBoards[g] else { continue }
            // A ready label set before the last round was tried on this route in the round
            // after it was set (the stop was marked, so the route was scanned from it or
            // before): whatever trip it catches then gave arrivals no later than it can
            // give now, so only the last round's labels board. Live times are excluded: a
            // trip skipping this stop may have kept that round from trying.
            guard labels.readyRound[sid] == Int32(k - 1) || live.hasTrips else { continue }
            let canBoard = labels.bestLabels[sid].ready
            guard canBoard < cut else { continue }
            // A range's window bounds the boardings from the origin (round 0's labels).
            let windowEnd = labels.readyRound[sid] == 0 ? limits.departureLimit + labels.accessSeconds[sid] : Self.never
            var limit = min(cut, windowEnd)
            if let current = trip {
                // A trip that passes this stop by is kept (the rider is on board).
                if skips(tripLive, idx) { continue }
                limit = min(windowEnd, tripBase + tables.departureOffset(offsets, idx) + departureDelay(tripLive, idx))
                if canBoard > limit || !earlierTripPossible(route: route, current: current, idx: idx, from: canBoard) { continue }
            }
            if let earlier = earliestTrip(route: route, r, idx: idx, from: canBoard, before: limit) {
                trip = earlier
                tripBase = earlier.dayStart + earlier.startSecs
                offsets = self.offsets(of: earlier)
                tripLive = live.hasTrips ? liveTimes(of: earlier) : nil
                boardIdx = idx
                boardRound = labels.readyRound[sid]
            }
        }
    }

    /// Round `k`'s arrival at `sid` is `t`, reached by `ride`; the stop is listed once in
    /// `improved` for the transfers that follow the round. At a target, `cut` becomes no
    /// later than just after the arrival at the destination through it.
    @inline(__always)
    private mutating func label(
        _ sid: Int, arrival t: Int, round k: Int, by ride: Ride, cut: inout Int, improved: inout [Int], stamp: inout [Int32]
    ) {
        let i = k * stride + sid
        if labels.arrival[i] == Self.never { labels.setArrivals.append(i) }
        labels.arrival[i] = t
        if labels.bestLabels[sid].arrival == Self.never && labels.bestLabels[sid].ready == Self.never { labels.setStops.append(sid) }
        labels.bestLabels[sid].arrival = t
        labels.rideOf[i] = Int32(truncatingIfNeeded: labels.rides.count)
        labels.rides.append(ride)
        let egress = labels.egress[sid]
        if egress >= 0 { cut = min(cut, t + Int(egress) + 1) }
        if stamp[sid] != Int32(k) {
            stamp[sid] = Int32(k)
            improved.append(sid)
        }
    }

    /// Round `k`'s ready label at `sid` is `t`.
    @inline(__always)
    private mutating func setReady(_ t: Int, round k: Int, stop sid: Int) {
        let i = k * stride + sid
        if labels.ready[i] == Self.never { labels.setReadies.append(i) }
        labels.ready[i] = t
        if labels.bestLabels[sid].arrival == Self.never && labels.bestLabels[sid].ready == Self.never { labels.setStops.append(sid) }
        labels.bestLabels[sid].ready = t
    }

    /// Scans added route `a` from stop index `first`: boards its one trip at the first stop
    /// whose ready label catches it, alights wherever that improves a stop.
    private mutating func scanAdded(_ a: Int, from first: Int, round k: Int, cut: inout Int, improved: inout [Int], stamp: inout [Int32]) {
        let route = added[a]
        var boardIdx = -1
        var boardRound: Int32 = 0
        for idx in first..<route.sids.count {
            let sid = route.sids[idx]
            if boardIdx >= 0 && route.alights[idx] {
                let t = route.arrival[idx]
                if t < labels.bestLabels[sid].arrival && t < cut && (limits.caps.isEmpty || t <= limits.caps[sid].arrival)
                    && (limits.later.isEmpty || t < limits.later.arrival[k * stride + sid])
                {
                    let ride = Ride(
                        route: Ride.Line.added(a).raw, boardIdx: Int32(boardIdx), alightIdx: Int32(idx), boardRound: boardRound,
                        trip: Self.addedTrip)
                    label(sid, arrival: t, round: k, by: ride, cut: &cut, improved: &improved, stamp: &stamp)
                }
            }
            let leavesInTime = labels.readyRound[sid] != 0 || route.departure[idx] < limits.departureLimit + labels.accessSeconds[sid]
            if boardIdx < 0 && route.boards[idx] && labels.bestLabels[sid].ready <= route.departure[idx]
                && labels.bestLabels[sid].ready < cut && leavesInTime
            {
                boardIdx = idx
                boardRound = labels.readyRound[sid]
            }
        }
    }

    /// The live times of a trip instance, if the live data has any.
    func liveTimes(of trip: TripInstance) -> LiveTimes? {
        let tid: TripNumber
        switch trip.kind {
        case .regular(let index): tid = tables.tripTid[index]
        case .template(let index): tid = tables.templates[index].tid
        }
        return live.times(tid: tid, day: trip.day.dayNumber, start: trip.startSecs, mirrored: mirrored)
    }

    /// Seconds late of `times`'s arrival at stop `idx` (0 without live times).
    @inline(__always)
    func arrivalDelay(_ times: LiveTimes?, _ idx: Int) -> Int { times.map { live.arrivalDelay($0, at: idx) } ?? 0 }

    /// Seconds late of `times`'s departure from stop `idx` (0 without live times).
    @inline(__always)
    func departureDelay(_ times: LiveTimes?, _ idx: Int) -> Int { times.map { live.departureDelay($0, at: idx) } ?? 0 }

    /// Whether `times`'s trip passes stop `idx` by (never without live times).
    @inline(__always)
    func skips(_ times: LiveTimes?, _ idx: Int) -> Bool { times.map { live.skips($0, at: idx) } ?? false }

    /// When a trip instance leaves stop `idx` on the live times (its `scheduled` instant
    /// without them); nil when it is cancelled or skips the stop.
    @inline(__always)
    func liveDeparture(of trip: TripInstance, at idx: Int, scheduled: Int) -> Int? {
        guard live.hasTrips, let times = liveTimes(of: trip) else { return scheduled }
        if times.cancelled || live.skips(times, at: idx) { return nil }
        return scheduled + live.departureDelay(times, at: idx)
    }

    /// Where a trip's offsets begin (`RouteTables.departureOffset(_:_:)`).
    func offsets(of trip: TripInstance) -> Int {
        switch trip.kind {
        case .regular(let index): return Int(tables.tripOffsets[index])
        case .template(let index): return tables.templates[index].offsets
        }
    }

    /// False when no trip of `route` that leaves before `current` can be caught at `time`
    /// from stop `idx`: the trip before it that day leaves too early, so does the last trip
    /// of the day before (earlier days' trips leave earlier still), and the next day's first
    /// trip (a trip past 24:00 can leave after it) leaves no earlier than `current`. A quick
    /// test that spares most searches; routes with frequency templates always search.
    private func earlierTripPossible(route: RouteTables.Route, current: TripInstance, idx: Int, from time: Int) -> Bool {
        guard current.trip >= 0, route.templateRange.isEmpty, !live.hasTrips else { return true }
        let feedDays = days[route.feedIndex]
        if current.trip > route.firstTrip && current.dayStart + tables.departure(current.trip - 1, idx) >= time { return true }
        let last = route.trips.upperBound - 1
        if current.dayIndex > 0 && feedDays[current.dayIndex - 1].start + tables.departure(last, idx) >= time { return true }
        let next = current.dayIndex + 1
        return next < feedDays.count
            && feedDays[next].start + tables.departure(route.firstTrip, idx) < current.dayStart + tables.departure(current.trip, idx)
    }

    /// The trip of `route` (index `r`) that departs first from stop `idx` at or after
    /// `time`, if it departs before `limit`.
    private func earliestTrip(route: RouteTables.Route, _ r: Int, idx: Int, from time: Int, before limit: Int) -> TripInstance? {
        var found: TripInstance?
        var foundDeparture = limit
        let trips = route.trips
        let f = route.feedIndex
        days: for word in 0..<dayWords {
            var bits = routeDays[r * dayWords + word]
            while bits != 0 {
                let dayIndex = word << 6 | bits.trailingZeroBitCount
                bits &= bits - 1
                let dayStart = dayStarts[f * dayStride + dayIndex]
                let civil = dayCivil[f * dayStride + dayIndex]
                if !trips.isEmpty {
                    // Trips are in order at every stop: the first and last bound the day (live
                    // times move a trip by at most maxLate later or maxEarly earlier).
                    let first = dayStart + tables.departure(trips.lowerBound, idx) - maxEarly
                    if first >= foundDeparture && route.templateRange.isEmpty { break days }
                    if first < foundDeparture && dayStart + tables.departure(trips.upperBound - 1, idx) + maxLate >= time {
                        var i = lowerBound(trips, idx, time - dayStart - maxLate)
                        while i < trips.upperBound {
                            let scheduled = dayStart + tables.departure(i, idx)
                            if scheduled - maxEarly >= foundDeparture { break }
                            defer { i += 1 }
                            guard !wheelchair || tables.tripAccessible[i] else { continue }
                            let instance = TripInstance(
                                day: civil, dayStart: dayStart, startSecs: Int(tables.tripStart[i]), kind: .regular(i), dayIndex: dayIndex)
                            guard let departure = liveDeparture(of: instance, at: idx, scheduled: scheduled), departure >= time,
                                departure < foundDeparture
                            else { continue }
                            found = instance
                            foundDeparture = departure
                            // Without live times the first that runs is the earliest.
                            if !live.hasTrips { break }
                        }
                    }
                }
                for t in route.templateRange {
                    let template = tables.templates[t]
                    guard !wheelchair || template.accessible else { continue }
                    let base = dayStart + tables.departureOffset(template.offsets, idx)
                    for w in template.windows {
                        let need = time - base - w.start
                        let start = w.start + (need > 0 ? (need + w.headway - 1) / w.headway : 0) * w.headway
                        guard start < w.end, base + start < foundDeparture else { continue }
                        let instance = TripInstance(
                            day: civil, dayStart: dayStart, startSecs: start, kind: .template(t), dayIndex: dayIndex)
                        guard let departure = liveDeparture(of: instance, at: idx, scheduled: base + start), departure >= time,
                            departure < foundDeparture
                        else { continue }
                        found = instance
                        foundDeparture = departure
                    }
                }
            }
        }
        return found
    }

    /// The first trip in `range` that leaves stop `idx` at or after `value` (seconds of its day).
    func lowerBound(_ range: Range<Int>, _ idx: Int, _ value: Int) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if tables.departure(mid, idx) < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The journey ending with round `round`'s arrival at `target`, read back to the origin.
    private func steps(to target: Int, round: Int, egress: Int) -> [Step] {
        var reversed: [Step] = [.egress(from: target, seconds: egress)]
        var stop = target
        var k = round
        while case let r = labels.rideOf[k * stride + stop], r >= 0 {
            let ride = labels.rides[Int(r)]
            if case .added(let a) = ride.line {
                let route = added[a]
                let board = route.sids[Int(ride.boardIdx)]
                reversed.append(
                    .ride(
                        ride, board: board, boardTime: route.departure[Int(ride.boardIdx)], alight: stop,
                        alightTime: route.arrival[Int(ride.alightIdx)]))
                if let walk = walkBack(from: board, round: Int(ride.boardRound), into: &reversed) {
                    (stop, k) = walk
                    continue
                }
                break
            }
            let route = tables.routes[Int(ride.route)]
            let board = Int(tables.stopSid[tables.stop(Int(ride.boardIdx), of: route)])
            let base = ride.trip.dayStart + ride.trip.startSecs
            let offsets = self.offsets(of: ride.trip)
            let times = live.hasTrips ? liveTimes(of: ride.trip) : nil
            let boardIdx = Int(ride.boardIdx)
            let alightIdx = Int(ride.alightIdx)
            reversed.append(
                .ride(
                    ride, board: board,
                    boardTime: base + tables.departureOffset(offsets, boardIdx) + departureDelay(times, boardIdx),
                    alight: stop,
                    alightTime: base + tables.arrivalOffset(offsets, alightIdx) + arrivalDelay(times, alightIdx)))
            guard let walk = walkBack(from: board, round: Int(ride.boardRound), into: &reversed) else { break }
            (stop, k) = walk
        }
        return reversed.reversed()
    }

    /// How the rider came to board at `board` with round `r`'s ready label: the access from
    /// the origin (nil: the journey is read back), or a transfer from the stop and round
    /// where the ride before alighted.
    private func walkBack(from board: Int, round r: Int, into reversed: inout [Step]) -> (stop: Int, round: Int)? {
        let from = Int(labels.walkedFrom[r * stride + board])
        if r == 0 || from < 0 {
            reversed.append(.access(to: board, seconds: labels.accessSeconds[board]))
            return nil
        }
        reversed.append(.transfer(from: from, to: board, seconds: labels.ready[r * stride + board] - labels.arrival[r * stride + from]))
        return (from, r)
    }
}
