import BundleFormat
import TransitSQLite

/// Live changes a journey search applies to the timetable: cancelled trip instances, and
/// the delays and skipped stops of others, by stop_sequence. `TransitRealtime` builds it
/// from a snapshot (package API: apps pass the snapshot itself).
package struct JourneyLiveData: Sendable {
    package struct Trip: Sendable {
        package var feedID: String
        package var tripID: String
        package var serviceDate: ServiceDate
        /// A frequency-based instance's start (Unix seconds); nil for a trip that runs once.
        package var start: Int?
        package var cancelled: Bool
        /// Runs of consecutive calls with the same live data, in stop_sequence order: the
        /// calls from stop_sequence `sequences.lowerBound` to `sequences.upperBound`, seconds
        /// late (negative: early) and whether their stops are skipped.
        package var calls: [Run]

        package struct Run: Sendable {
            package var sequences: ClosedRange<Int>
            package var arrivalDelay: Int
            package var departureDelay: Int
            package var skipped: Bool

            package init(sequences: ClosedRange<Int>, arrivalDelay: Int, departureDelay: Int, skipped: Bool) {
                self.sequences = sequences
                self.arrivalDelay = arrivalDelay
                self.departureDelay = departureDelay
                self.skipped = skipped
            }
        }

        package init(feedID: String, tripID: String, serviceDate: ServiceDate, start: Int?, cancelled: Bool, calls: [Run]) {
            self.feedID = feedID
            self.tripID = tripID
            self.serviceDate = serviceDate
            self.start = start
            self.cancelled = cancelled
            self.calls = calls
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

    package var trips: [Trip]
    package var added: [AddedTrip]

    package init(trips: [Trip], added: [AddedTrip] = []) {
        self.trips = trips
        self.added = added
    }
}

/// A trip instance's live times as the search reads them: by the stop's index in the
/// trip's pattern, delays in seconds.
struct LiveTimes: Sendable {
    /// A trip instance: its tid, service day and start (GTFS seconds; the scheduled one for
    /// a trip that runs once).
    struct Key: Hashable, Sendable {
        let tid: Int
        let day: Int
        let start: Int
    }

    var cancelled: Bool
    var arrivalDelay: [Int32]
    var departureDelay: [Int32]
    var skipped: [Bool]

    /// `seconds` as a kept delay: clamped to ±`Int32.max` (a live message may say
    /// anything; `Int32.min` could not be negated for the mirror).
    static func delay(_ seconds: Int) -> Int32 { Int32(max(-Int(Int32.max), min(Int(Int32.max), seconds))) }

    /// The same instance in the mirrored network: stops reversed, delays negated, arrival
    /// and departure swapped.
    func mirrored() -> LiveTimes {
        LiveTimes(
            cancelled: cancelled, arrivalDelay: departureDelay.reversed().map { -$0 }, departureDelay: arrivalDelay.reversed().map { -$0 },
            skipped: skipped.reversed())
    }
}

extension TransitBundle {
    /// `live`'s trips by instance, each with its delays by stop index (trips, feeds or stops
    /// the bundle does not know are left out: they have nothing to change).
    func liveTimes(_ live: JourneyLiveData, db: SQLiteDatabase) throws -> [LiveTimes.Key: LiveTimes] {
        var result: [LiveTimes.Key: LiveTimes] = [:]
        for trip in live.trips {
            guard let feed = try? catalog.feed(named: trip.feedID),
                let tid = try patterns.tid(of: trip.tripID, feed: feed, db: db)
            else { continue }
            let pattern = try patterns.pattern(try patterns.trip(tid, db: db).pid, db: db)
            guard let record = pattern.trip(tid) else { continue }
            let dayStart = feed.clock.serviceDayStart(trip.serviceDate.civil)
            let start = trip.start.map { $0 - dayStart } ?? record.startTime
            var times = LiveTimes(
                cancelled: trip.cancelled, arrivalDelay: [Int32](repeating: 0, count: pattern.stops.count),
                departureDelay: [Int32](repeating: 0, count: pattern.stops.count),
                skipped: [Bool](repeating: false, count: pattern.stops.count))
            // The pattern's stops and the runs are both in stop_sequence order: one pass.
            var run = 0
            for (idx, stop) in pattern.stops.enumerated() {
                while run < trip.calls.count && trip.calls[run].sequences.upperBound < stop.stopSequence { run += 1 }
                guard run < trip.calls.count, trip.calls[run].sequences.contains(stop.stopSequence) else { continue }
                let call = trip.calls[run]
                // Within ±Int32.max, so that the mirror may negate every delay.
                times.arrivalDelay[idx] = LiveTimes.delay(call.arrivalDelay)
                times.departureDelay[idx] = LiveTimes.delay(call.departureDelay)
                times.skipped[idx] = call.skipped
            }
            result[LiveTimes.Key(tid: tid, day: trip.serviceDate.civil.dayNumber, start: start)] = times
        }
        return result
    }

    /// `live`'s added trips as routes of one trip each (calls at stops the bundle does not
    /// know are left out; a trip left with fewer than two calls is dropped).
    func addedRoutes(_ live: JourneyLiveData, db: SQLiteDatabase) throws -> [RaptorSearch.AddedRoute] {
        var routes: [RaptorSearch.AddedRoute] = []
        for trip in live.added {
            guard let feed = try? catalog.feed(named: trip.feedID) else { continue }
            var kept: [(sid: Int, call: JourneyLiveData.AddedTrip.Call)] = []
            for call in trip.calls {
                guard let sid = try? resolve(.stop, call.stopID, feed: feed.feedID, db: db).id else { continue }
                kept.append((sid, call))
            }
            guard kept.count >= 2 else { continue }
            routes.append(
                RaptorSearch.AddedRoute(
                    fid: feed.fid, sids: kept.map(\.sid), arrival: kept.map(\.call.arrival), departure: kept.map(\.call.departure),
                    boards: kept.map(\.call.boards), alights: kept.map(\.call.alights), calls: kept.map(\.call)))
        }
        return routes
    }
}
