import BundleFormat
import TransitSQLite

/// Live changes a journey search applies to the timetable, in the planner's own terms: by
/// trip instance (tid, service day, start), each call's delays and whether its stop is
/// skipped, by the call's index in the trip's pattern; cancelled instances; and the trips
/// the live data adds, as routes of one trip over sids. `TransitRealtime` makes it once per
/// snapshot, on its first live journey, from the integers its matcher found
/// (`TimetableTrip`): every journey query then reads it as it is, in either direction (the
/// mirror reads the same columns backwards). Package API: apps pass the snapshot itself.
///
/// ```swift
/// var builder = JourneyLiveData.Builder(trips: 1)
/// builder.add(schedule.timetableTrip(startingAt: nil), on: date, cancelled: false)
/// builder.run(3...12, arrivalDelay: 120, departureDelay: 120, skipped: false)
/// let live = builder.finish(added: [], bundle: bundle)
/// ```
package struct JourneyLiveData: Sendable {
    /// A timetable trip instance as the matcher found it: its tid, its start (GTFS seconds of
    /// its service day: a frequency-based instance's own, else the trip's) and its
    /// pattern's stops, in the order the search reads them.
    package struct TimetableTrip: Sendable {
        package let tid: TripNumber
        package let startSecs: Int
        package let stops: TripSchedule.StopColumns

        package init(tid: TripNumber, startSecs: Int, stops: TripSchedule.StopColumns) {
            (self.tid, self.startSecs, self.stops) = (tid, startSecs, stops)
        }
    }

    /// A trip the timetable does not have (NEW, DUPLICATED, REPLACEMENT): its calls in order,
    /// each with the views a ride shows for it.
    package struct AddedTrip: Sendable {
        package struct Call: Sendable {
            package var stopID: String
            /// Unix seconds.
            package var arrival: Int
            package var departure: Int
            /// False at a skipped stop, and for boarding at the last call or alighting at the first.
            package var boards: Bool
            package var alights: Bool
            /// The call as a ride's boarding and alighting show it (at its departure and at its arrival).
            package var boarding: Departure
            package var alighting: Departure

            package init(
                stopID: String, arrival: Int, departure: Int, boards: Bool, alights: Bool, boarding: Departure, alighting: Departure
            ) {
                self.stopID = stopID
                self.arrival = arrival
                self.departure = departure
                self.boards = boards
                self.alights = alights
                self.boarding = boarding
                self.alighting = alighting
            }
        }

        package var feedID: String
        package var calls: [Call]

        package init(feedID: String, calls: [Call]) {
            self.feedID = feedID
            self.calls = calls
        }
    }

    /// By trip instance, in the trips' own direction: where its calls lie in the columns.
    private var instances: [LiveTimes.Key: Span] = [:]
    /// By call of each instance (`Span`), in its pattern's order: delays (clamped to
    /// ±`Int32.max`, so that the mirror may negate every one) and skipped stops.
    private var arrivalDelays: [Int32] = []
    private var departureDelays: [Int32] = []
    private var skippedStops: [Bool] = []
    /// The added trips as routes, in their own direction and in the mirror's.
    private(set) var added: [RaptorSearch.AddedRoute] = []
    private(set) var mirroredAdded: [RaptorSearch.AddedRoute] = []
    /// By sid: the added routes through the stop and its index in each, in each direction.
    private(set) var addedPlaces: [Int: [(route: Int, idx: Int)]] = [:]
    private(set) var mirroredAddedPlaces: [Int: [(route: Int, idx: Int)]] = [:]
    /// The largest lateness and earliness of any call (seconds, at least 0): a trip may
    /// leave up to that much off its schedule.
    private(set) var maxLate = 0
    private(set) var maxEarly = 0

    private struct Span: Sendable {
        /// In `Int`: a message of millions of trips of long patterns passes 2^31 calls.
        let first: Int
        let count: Int32
        let cancelled: Bool
    }

    /// No live data: the timetable as it is.
    static let none = JourneyLiveData()

    private init() {}

    /// Whether any timetable trip has live times (without, a search takes the shortcuts
    /// the timetable's order allows).
    var hasTrips: Bool { !instances.isEmpty }

    /// The live times of the trip instance `tid` on day `day` starting at `start` (GTFS
    /// seconds), as the search in that direction reads them (`mirrored`: there an instance
    /// starts at minus its start).
    @inline(__always)
    func times(tid: TripNumber, day: Int, start: Int, mirrored: Bool) -> LiveTimes? {
        guard let span = instances[LiveTimes.Key(tid: tid, day: day, start: mirrored ? -start : start)] else { return nil }
        return LiveTimes(first: span.first, last: span.first + Int(span.count) - 1, cancelled: span.cancelled, mirrored: mirrored)
    }

    /// Seconds late (negative: early) of `times`'s arrival at its stop `idx`.
    @inline(__always)
    func arrivalDelay(_ times: LiveTimes, at idx: Int) -> Int {
        times.mirrored ? -Int(departureDelays[times.last - idx]) : Int(arrivalDelays[times.first + idx])
    }

    /// Seconds late (negative: early) of `times`'s departure from its stop `idx`.
    @inline(__always)
    func departureDelay(_ times: LiveTimes, at idx: Int) -> Int {
        times.mirrored ? -Int(arrivalDelays[times.last - idx]) : Int(departureDelays[times.first + idx])
    }

    /// Whether `times`'s trip passes its stop `idx` by.
    @inline(__always)
    func skips(_ times: LiveTimes, at idx: Int) -> Bool {
        skippedStops[times.mirrored ? times.last - idx : times.first + idx]
    }

    /// Gathers the live data of a snapshot's trips (`add`, then `run` for each run of its
    /// calls), then its added trips (`finish`).
    package struct Builder {
        private var data = JourneyLiveData()
        /// The trip `add` took last: its pattern's stops, where its calls begin in the
        /// columns, and the first of its stops no run has passed yet.
        private var stops: [PatternStopRecord] = []
        private var first = 0
        private var next = 0

        package init(trips: Int) {
            data.instances.reserveCapacity(trips)
        }

        /// Trip instance `trip` on `date`, cancelled or not; its calls' live data follow
        /// (`run`). A second entry for the same instance replaces the first.
        package mutating func add(_ trip: TimetableTrip, on date: ServiceDate, cancelled: Bool) {
            stops = trip.stops.records
            first = data.arrivalDelays.count
            next = 0
            data.arrivalDelays.append(contentsOf: repeatElement(0, count: stops.count))
            data.departureDelays.append(contentsOf: repeatElement(0, count: stops.count))
            data.skippedStops.append(contentsOf: repeatElement(false, count: stops.count))
            let key = LiveTimes.Key(tid: trip.tid, day: date.civil.dayNumber, start: trip.startSecs)
            data.instances[key] = Span(first: first, count: Int32(clamping: stops.count), cancelled: cancelled)
        }

        /// The calls of the trip added last from stop_sequence `sequences.lowerBound` to
        /// `sequences.upperBound`: seconds late (negative: early), skipped or not. Runs come
        /// in stop_sequence order, as the pattern's stops are: one pass matches them.
        package mutating func run(_ sequences: ClosedRange<Int>, arrivalDelay: Int, departureDelay: Int, skipped: Bool) {
            let (arrival, departure) = (LiveTimes.delay(arrivalDelay), LiveTimes.delay(departureDelay))
            while next < stops.count && stops[next].stopSequence < sequences.lowerBound { next += 1 }
            let from = next
            while next < stops.count && stops[next].stopSequence <= sequences.upperBound { next += 1 }
            guard from < next else { return }
            for i in (first + from)..<(first + next) {
                data.arrivalDelays[i] = arrival
                data.departureDelays[i] = departure
                data.skippedStops[i] = skipped
            }
            // In Int: a delay may be as early as -Int32.max.
            data.maxLate = max(data.maxLate, Int(arrival), Int(departure))
            data.maxEarly = max(data.maxEarly, -Int(arrival), -Int(departure))
        }

        /// The live data, with `added` as routes of `bundle`'s stops (calls at stops the
        /// bundle does not know are left out; a trip left with fewer than two calls is
        /// dropped, so is one of a feed the bundle does not have).
        package consuming func finish(added: [AddedTrip], bundle: TransitBundle) -> JourneyLiveData {
            for trip in added {
                guard let feed = try? bundle.catalog.feed(named: trip.feedID) else { continue }
                let kept = trip.calls.compactMap { call in
                    bundle.sid(ofStop: call.stopID, feed: feed.feedID).map { (sid: $0.int, call: call) }
                }
                guard kept.count >= 2 else { continue }
                data.added.append(
                    RaptorSearch.AddedRoute(
                        fid: FeedNumber(feed.fid), sids: kept.map(\.sid), arrival: kept.map(\.call.arrival),
                        departure: kept.map(\.call.departure),
                        boards: kept.map(\.call.boards), alights: kept.map(\.call.alights), calls: kept.map(\.call)))
            }
            data.mirroredAdded = data.added.map { $0.mirrored() }
            data.addedPlaces = Self.places(of: data.added)
            data.mirroredAddedPlaces = Self.places(of: data.mirroredAdded)
            return data
        }

        /// By sid, the routes of `added` through the stop and its index in each.
        private static func places(of added: [RaptorSearch.AddedRoute]) -> [Int: [(route: Int, idx: Int)]] {
            var places: [Int: [(route: Int, idx: Int)]] = [:]
            for (a, route) in added.enumerated() {
                for (idx, sid) in route.sids.enumerated() { places[sid, default: []].append((a, idx)) }
            }
            return places
        }
    }
}

/// Where a trip instance's live times lie in `JourneyLiveData`'s columns, and which way the
/// search reading them runs: read through `JourneyLiveData.arrivalDelay(_:at:)`,
/// `departureDelay(_:at:)` and `skips(_:at:)`.
struct LiveTimes: Sendable {
    /// A trip instance: its tid, service day and start (GTFS seconds; the scheduled one for
    /// a trip that runs once).
    struct Key: Hashable, Sendable {
        let tid: TripNumber
        let day: Int32
        let start: Int32

        init(tid: TripNumber, day: Int, start: Int) {
            self.tid = tid
            self.day = Int32(truncatingIfNeeded: day)
            self.start = Int32(truncatingIfNeeded: start)
        }
    }

    let first: Int
    let last: Int
    let cancelled: Bool
    let mirrored: Bool

    /// `seconds` as a kept delay: clamped to ±`Int32.max` (a live message may say
    /// anything; `Int32.min` could not be negated for the mirror).
    static func delay(_ seconds: Int) -> Int32 { Int32(max(-Int(Int32.max), min(Int(Int32.max), seconds))) }
}
