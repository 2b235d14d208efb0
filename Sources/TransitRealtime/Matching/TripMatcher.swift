import BundleFormat
import Foundation
import TransitRuntime

/// One run of a trip: the feed, the trip_id, the service date and, for an instance of a
/// frequency-based trip, the Unix time it leaves its first stop.
///
/// Its hash is computed once, where it is made (on the thread that matched it): a
/// snapshot's table of 10,000 trips is then filled on one thread hashing one integer per
/// trip, not two strings.
struct TripInstance: Hashable, Sendable {
    let feedID: String
    let tripID: String
    let serviceDate: ServiceDate
    let start: Int?
    private let hashCode: Int

    init(feedID: String, tripID: String, serviceDate: ServiceDate, start: Int?) {
        self.feedID = feedID
        self.tripID = tripID
        self.serviceDate = serviceDate
        self.start = start
        // The feed is compared, not hashed: a bundle has few feeds, and hashing its id
        // would cost as much as the trip's.
        var hasher = Hasher()
        hasher.combine(tripID)
        hasher.combine(serviceDate)
        hasher.combine(start)
        hashCode = hasher.finalize()
    }

    static func == (a: TripInstance, b: TripInstance) -> Bool {
        a.hashCode == b.hashCode && a.tripID == b.tripID && a.serviceDate == b.serviceDate && a.start == b.start
            && a.feedID == b.feedID
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hashCode) }
}

/// Finds the trip instance a GTFS-Realtime trip descriptor names, and its stops' schedule
/// (docs/realtime-semantics.md, "Matching"):
/// - by trip_id and start_date; without start_date, the service day among yesterday, today
///   and tomorrow (in the feed's time zone, around the message's time) on which the trip
///   runs nearest that time, never blindly the UTC day;
/// - a frequency-based trip also by start_time (trip_id + start_time + start_date is the
///   identity of its instances); without start_time it is not matched.
final class TripMatcher: Sendable {
    struct Match {
        var instance: TripInstance
        var schedule: ScheduledCalls
        /// The instance in the bundle's numbers, for journeys on live times.
        var timetable: JourneyLiveData.TimetableTrip
    }

    private let bundle: TransitBundle
    private let feedID: String?
    /// The feed's clock (the bundle's first feed when none is named): its local days.
    let clock: FeedClock
    /// The time the message's trips are matched at (its header's, or `now` for a header
    /// from the future), Unix seconds.
    private let now: Int

    /// The trip id each entity of the message names (`RealtimeMessage.tripIDs()`) and its
    /// schedule, looked up together before the entities are read
    /// (`TransitBundle.prepareTripSchedules(_:feed:)`), by entity.
    private let prepared: (ids: [String?], schedules: [TripSchedule?])

    /// `messageTime`: the time to match trips at, Unix seconds; `prepared`: the trip id of
    /// each entity and its schedule already looked up (any other is looked up when named).
    init(bundle: TransitBundle, feedID: String?, messageTime: Int, prepared: (ids: [String?], schedules: [TripSchedule?])) throws {
        self.bundle = bundle
        self.feedID = feedID
        self.clock = try bundle.clock(feed: feedID)
        self.now = messageTime
        self.prepared = prepared
    }

    /// The trip id read ahead for entity `index` (nil: none, or not one of the message's).
    func preparedID(entity index: Int) -> String? {
        index < prepared.ids.count ? prepared.ids[index] : nil
    }

    /// The schedule prepared for entity `index` when its trip id is `tripID`.
    private func preparedSchedule(entity index: Int?, tripID: String) -> TripSchedule? {
        guard let index, index < prepared.ids.count, index < prepared.schedules.count, prepared.ids[index] == tripID else {
            return nil
        }
        return prepared.schedules[index]
    }

    /// The time the message's data is from: when trips were matched.
    var messageDate: Date { Date(timeIntervalSince1970: TimeInterval(now)) }

    /// The service days one thread has placed trips on, each looked up once (a message's
    /// trips run on a few days): no lock and no shared reference count per trip.
    struct ServiceDays {
        /// Hashed by the date alone (a bundle's feeds are few; the feed is compared).
        private struct Key: Hashable {
            var feedID: String
            var date: ServiceDate

            func hash(into hasher: inout Hasher) { hasher.combine(date) }
        }
        /// nil: the day is outside the feed's timetable.
        private var known: [Key: ServiceDay?] = [:]

        /// Feed `feedID`'s day `date`, nil when outside its timetable.
        mutating func day(_ date: ServiceDate, feed feedID: String, in bundle: TransitBundle) -> ServiceDay? {
            let key = Key(feedID: feedID, date: date)
            if let day = known[key] { return day }
            let day = try? bundle.serviceDay(feed: feedID, on: date)
            known[key] = day
            return day
        }
    }

    /// The trip instance `descriptor` names, in entity `index` of the message (nil: not
    /// one of the message's own entities), and its scheduled calls.
    func match(
        _ descriptor: TransitRealtime_TripDescriptor, entityID: String, entity index: Int?, days serviceDays: inout ServiceDays
    ) -> Result<Match, RealtimeReport.Unmatched> {
        func unmatched(_ reason: RealtimeReport.Reason, _ detail: String?) -> RealtimeReport.Unmatched {
            RealtimeReport.Unmatched(
                entityID: entityID, tripID: descriptor.hasTripID ? descriptor.tripID : nil, reason: reason, detail: detail)
        }
        let byRoute = !(descriptor.hasTripID && !descriptor.tripID.isEmpty)
        if byRoute && !(descriptor.hasRouteID && descriptor.hasStartTime) {
            return .failure(unmatched(.noTripID, "without trip_id, route_id and start_time (and start_date) name the trip"))
        }
        // The days to try (no array: a message names thousands of trips).
        let days: (count: Int, first: ServiceDate, second: ServiceDate, third: ServiceDate)
        if descriptor.hasStartDate {
            guard let day = Self.serviceDate(descriptor.startDate) else {
                return .failure(unmatched(.badTime, "start_date \(descriptor.startDate)"))
            }
            days = (1, day, day, day)
        } else {
            // Today first: a run under way at the message's time ends the search.
            let today = ServiceDate(clock.localDay(of: now))
            days = (3, today, today.adding(days: -1), today.adding(days: 1))
        }
        var startSecs: Int?
        if descriptor.hasStartTime {
            guard let secs = Self.seconds(descriptor.startTime) else {
                return .failure(unmatched(.badTime, "start_time \(descriptor.startTime)"))
            }
            startSecs = secs
        }
        // A trip named by its id is looked up once, then placed on each candidate day.
        var named: TripSchedule?
        if !byRoute {
            do {
                named =
                    try preparedSchedule(entity: index, tripID: descriptor.tripID) ?? bundle.tripSchedule(descriptor.tripID, feed: feedID)
            } catch TransitError.unknownTrip, TransitError.ambiguousTrip {
                return .failure(unmatched(.unknownTrip, nil))
            } catch {
                return .failure(unmatched(.unknownTrip, "\(error)"))
            }
        }
        var best: (match: Match, distance: Int)?
        // An exact_times=1 window that holds start_time but not on its grid (for the report).
        var offGrid: TripDetails.FrequencyWindow?
        for k in 0..<days.count {
            let day = k == 0 ? days.first : k == 1 ? days.second : days.third
            var tripID = descriptor.tripID
            var template = named
            if byRoute {
                // The trip of the route (and direction) that starts at start_time that day.
                let direction = descriptor.hasDirectionID ? Int(descriptor.directionID) : nil
                guard let startSecs,
                    let ids = try? bundle.tripIDs(
                        route: descriptor.routeID, feed: feedID, direction: direction, startSecs: startSecs, on: day),
                    !ids.isEmpty
                else { continue }
                guard ids.count == 1 else {
                    return .failure(
                        unmatched(.noTripID, "\(ids.count) trips of route \(descriptor.routeID) start at \(descriptor.startTime) on \(day)")
                    )
                }
                tripID = ids[0]
                template = try? bundle.tripSchedule(tripID, feed: feedID)
            }
            // No such trip, or a day outside the timetable.
            guard let trip = template, let serviceDay = serviceDays.day(day, feed: trip.feedID, in: bundle) else { continue }
            guard serviceDay.runs(trip.service), trip.count > 0 else { continue }
            let firstDeparture = trip.departureSecs(at: 0)
            var shift = 0
            var start: Int?
            if !trip.frequencies.isEmpty {
                guard let startSecs else { return .failure(unmatched(.frequencyWithoutStartTime, nil)) }
                guard trip.frequencies.contains(where: { $0.hasInstance(startingAt: startSecs) }) else {
                    offGrid = offGrid ?? trip.frequencies.first { $0.exactTimes && $0.holds(startSecs) }
                    continue
                }
                shift = startSecs - firstDeparture
                start = serviceDay.dayStart + startSecs
            }
            let schedule = Self.calls(of: trip, dayStart: serviceDay.dayStart, shift: shift)
            let span = (schedule.first!.departure, schedule.last!.arrival)
            let distance = now < span.0 ? span.0 - now : now > span.1 ? now - span.1 : 0
            let match = Match(
                instance: TripInstance(feedID: trip.feedID, tripID: tripID, serviceDate: day, start: start), schedule: schedule,
                timetable: trip.timetableTrip(startingAt: trip.frequencies.isEmpty ? nil : startSecs))
            // The only day to try, or a run under way: no other day can be nearer (and the
            // match goes out as it is, not through `best`).
            if distance == 0 || days.count == 1 { return .success(match) }
            if best == nil || distance < best!.distance { best = (match, distance) }
        }
        guard let best else {
            let tried = [days.first, days.second, days.third].prefix(days.count).map(\.description).joined(separator: ", ")
            if let window = offGrid {
                let (from, to) = (Self.text(window.startSecs), Self.text(window.endSecs))
                return .failure(
                    unmatched(
                        .startTimeOffGrid,
                        "start_time \(descriptor.startTime) is not \(from) + k x \(window.headwaySecs) s (exact_times=1, window \(from)-\(to))"
                    ))
            }
            return .failure(
                unmatched(
                    .notRunning,
                    startSecs == nil ? "service days tried: \(tried)" : "no instance at start_time \(descriptor.startTime) on \(tried)"))
        }
        return .success(best.match)
    }

    /// A trip's stops as Unix times on the day starting at `dayStart`, moved by `shift`
    /// seconds (an instance of a frequency-based trip, or a duplicated copy).
    static func calls(of trip: TripSchedule, dayStart: Int, shift: Int) -> ScheduledCalls {
        ScheduledCalls(trip.stops.records, start: dayStart + shift + trip.base, feedID: trip.feedID)
    }

    /// `YYYYMMDD` as a service date.
    static func serviceDate(_ text: String) -> ServiceDate? {
        // Read digit by digit from the text's bytes (no integer parsing of a copy, and not
        // through the UTF-8 view's iterator, a tenth of matching a trip: one per update).
        var text = text
        let number: Int? = text.withUTF8 { bytes in
            guard bytes.count == 8 else { return nil }
            var number = 0
            for byte in bytes {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                number = number * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return number
        }
        guard let number, let day = CivilDate(yyyymmdd: number) else { return nil }
        return ServiceDate(day)
    }

    /// GTFS seconds as `HH:MM:SS`.
    static func text(_ secs: Int) -> String {
        let digits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(digits(secs / 3600)):\(digits(secs / 60 % 60)):\(digits(secs % 60))"
    }

    /// `H:MM:SS` or `HH:MM:SS` (past 24:00 allowed) as seconds.
    static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]), h >= 0, h < 72,
            (0..<60).contains(m), (0..<60).contains(s)
        else { return nil }
        return h * 3600 + m * 60 + s
    }
}

/// A miss travels as the failure of a match.
extension RealtimeReport.Unmatched: Error {}
