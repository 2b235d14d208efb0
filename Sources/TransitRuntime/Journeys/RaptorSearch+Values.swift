import BundleFormat

/// The values a `RaptorSearch` works with: service days, trip instances, the rides behind
/// its labels, added trips, and the journeys it reads back (told forwards from a search in
/// the mirrored network by `unmirrored`).
extension RaptorSearch {
    /// One service day of a feed that trips may run on during the search.
    struct Day {
        let civil: CivilDate
        /// The instant GTFS time 0 of the day stands for (noon - 12 h).
        let start: Int
        let active: ServiceCalendar.ActiveSet
    }

    /// A trip running on one day: a regular trip or an instance of a frequency template
    /// (`kind`). A search keeps one per label (`Ride`), so what fits is kept in 32 bits: day numbers
    /// of years 1 to 9999, GTFS seconds of at most a week and trip indexes are bounded when
    /// a bundle opens (`BundleCheck`); the instant the day starts keeps 64.
    struct TripInstance {
        // The 64-bit field first: 24 bytes with no padding.
        let dayStart: Int
        private let dayNumber: Int32
        private let start32: Int32
        private let trip32: Int32
        private var dayIndex32: Int32

        var day: CivilDate { CivilDate(dayNumber: Int(dayNumber)) }
        var startSecs: Int { Int(start32) }
        /// `kind` as one integer: a regular trip's index, or -1 - a template's (the hot
        /// loops step through regular trips by it).
        var trip: Int { Int(trip32) }

        /// Which trip runs: one of the routes' regular trips or a frequency template's
        /// instance, by its index in the network's arrays.
        enum Kind: Equatable {
            case regular(Int)
            case template(Int)
        }

        var kind: Kind { trip32 >= 0 ? .regular(Int(trip32)) : .template(Int(-1 - trip32)) }
        /// The day's index in the search's days of the feed.
        var dayIndex: Int {
            get { Int(dayIndex32) }
            set { dayIndex32 = Int32(clamping: newValue) }
        }

        init(day: CivilDate, dayStart: Int, startSecs: Int, kind: Kind, dayIndex: Int = 0) {
            dayNumber = Int32(clamping: day.dayNumber)
            self.dayStart = dayStart
            start32 = Int32(clamping: startSecs)
            switch kind {
            case .regular(let index): trip32 = Int32(clamping: index)
            case .template(let index): trip32 = Int32(clamping: -1 - index)
            }
            dayIndex32 = Int32(clamping: dayIndex)
        }
    }

    /// A trip the live data adds (NEW, DUPLICATED, REPLACEMENT): a route of its own with one
    /// trip, at absolute instants (in the mirror: its stops reversed, instants negated), and
    /// the calls a ride on it shows, always in the trip's order.
    struct AddedRoute {
        let fid: FeedNumber
        let sids: [Int]
        let arrival: [Int]
        let departure: [Int]
        let boards: [Bool]
        let alights: [Bool]
        let calls: [JourneyLiveData.AddedTrip.Call]

        /// The same trip run backwards in time, for arrive-by queries.
        func mirrored() -> AddedRoute {
            AddedRoute(
                fid: fid, sids: sids.reversed(), arrival: departure.reversed().map { -$0 }, departure: arrival.reversed().map { -$0 },
                boards: alights.reversed(), alights: boards.reversed(), calls: calls)
        }
    }

    /// How a stop's arrival label of a round was reached: a ride on `line` boarded at
    /// `boardIdx` with the ready label of round `boardRound` there.
    struct Ride {
        /// Which route a ride is on: one the compiler planned or one the live data adds, by
        /// its index in the network's routes or the search's added routes.
        enum Line: Equatable {
            case planned(Int)
            case added(Int)

            /// The line `raw` stands for.
            init(raw: Int) { self = raw >= 0 ? .planned(raw) : .added(-1 - raw) }

            /// The line as one integer (`route`): a planned route's index, -1 - an added one's.
            var raw: Int32 {
                switch self {
                case .planned(let r): return Int32(clamping: r)
                case .added(let a): return Int32(clamping: -1 - a)
                }
            }
        }

        /// `line` as one integer (`Line.raw`), as the labels keep it.
        let route: Int32
        let boardIdx: Int32
        let alightIdx: Int32
        let boardRound: Int32
        let trip: TripInstance

        var line: Line { Line(raw: Int(route)) }
    }

    struct BestLabels {
        var arrival: Int
        var ready: Int
    }

    /// What one run may label beyond its bound, given by the planner to `run`.
    struct Limits {
        /// By stop, the latest arrival and ready labels worth setting (empty: no limit): a
        /// second search over a journey's ends passes what the first one proved, that no
        /// journey of the answer can be at a stop earlier than the first search reached it
        /// (`JourneyPlanner.latestDepartures`), which spares most of its scans.
        var caps: [BestLabels] = []
        /// The end of a range query's window (excluded): a ride from the origin boards before
        /// it plus the stop's access seconds, so every journey found leaves in the window and
        /// none leaving after it bounds those that do (journey-semantics.md, "Range").
        var departureLimit = RaptorSearch.never
        /// In a range query, what the searches for later departures reached: only labels
        /// that beat theirs are set.
        var later = LaterDepartures()
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

    /// The trip instance of a ride on an added route (its times are the route's own).
    static let addedTrip = TripInstance(day: CivilDate(dayNumber: 0), dayStart: 0, startSecs: 0, kind: .regular(0))

    /// A journey found in `original.mirrored()`, told forwards in `original`: steps in
    /// the other order, each ride on the same route and trip with instants negated back.
    /// `added` are the added routes as the mirror had them.
    static func unmirrored(_ found: Found, in original: RoutingNetwork, added: [AddedRoute] = []) -> Found {
        let steps = found.steps.reversed().map { step -> Step in
            switch step {
            case .access(let to, let seconds): return .egress(from: to, seconds: seconds)
            case .egress(let from, let seconds): return .access(to: from, seconds: seconds)
            case .transfer(let from, let to, let seconds): return .transfer(from: to, to: from, seconds: seconds)
            case .ride(let ride, let board, let boardTime, let alight, let alightTime):
                let r: Int
                switch ride.line {
                case .added(let a):
                    let last = Int32(added[a].sids.count - 1)
                    let forward = Ride(
                        route: ride.route, boardIdx: last - ride.alightIdx, alightIdx: last - ride.boardIdx, boardRound: ride.boardRound,
                        trip: ride.trip)
                    return .ride(forward, board: alight, boardTime: -alightTime, alight: board, alightTime: -boardTime)
                case .planned(let planned): r = planned
                }
                let route = original.tables.routes[r]
                let last = Int32(route.stopCount - 1)
                let t = ride.trip
                let kind: TripInstance.Kind
                switch t.kind {
                case .regular(let index): kind = .regular(original.tables.mirroredTrip(index, route: route))
                case .template: kind = t.kind
                }
                let forward = Ride(
                    route: ride.route, boardIdx: last - ride.alightIdx, alightIdx: last - ride.boardIdx, boardRound: ride.boardRound,
                    trip: TripInstance(day: t.day, dayStart: -t.dayStart, startSecs: -t.startSecs, kind: kind))
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
}
