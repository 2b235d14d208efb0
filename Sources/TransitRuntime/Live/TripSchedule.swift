import BundleFormat

/// A trip's stops and times on one service date, as integers (`tripSchedule`), for
/// matching live data to it. Its stops are held by the pattern's object, and its names
/// are read when asked for: a message's 10,000 trips make no route or headsign text.
package struct TripSchedule: Sendable {
    package let feedID: String
    /// The trip and its pattern, as the bundle numbers them: what a journey on live times
    /// finds the trip by (`JourneyLiveData`).
    package let tid: TripNumber
    package let pid: PatternNumber
    /// The trip's route and headsign (`hid`, nil: none, the name of the pattern's last stop
    /// then): their names are read only when asked for (`TransitBundle.names(of:)`), which
    /// live data rarely does (a duplicated trip's copy).
    package let rid: RouteNumber
    package let hid: Int?
    package var runsOnDate: Bool
    /// The trip's service, for placing it on a day.
    package var service = ServiceNumber(0)
    /// The Unix time of the service day's 00:00:00 (noon minus 12 hours): a GTFS time of
    /// `s` seconds is the instant `dayStart + s`.
    package var dayStart: Int
    /// frequencies.txt windows (GTFS seconds); empty for a trip with its own times.
    package let frequencies: [TripDetails.FrequencyWindow]
    /// The stops of the trip's pattern (shared by its trips).
    package let stops: StopColumns
    /// GTFS seconds the pattern's times count from: the trip's start (for a frequency-based
    /// trip, its first window's start).
    package let base: Int

    package init(
        feedID: String, tid: TripNumber, pid: PatternNumber, rid: RouteNumber, hid: Int?, runsOnDate: Bool, dayStart: Int,
        frequencies: [TripDetails.FrequencyWindow], stops: StopColumns, base: Int
    ) {
        self.feedID = feedID
        self.tid = tid
        self.pid = pid
        self.rid = rid
        self.hid = hid
        self.runsOnDate = runsOnDate
        self.dayStart = dayStart
        self.frequencies = frequencies
        self.stops = stops
        self.base = base
    }

    /// The trip instance starting at `startSecs` (GTFS seconds of its day; nil: the trip's
    /// own start), as a journey on live times finds it.
    package func timetableTrip(startingAt startSecs: Int?) -> JourneyLiveData.TimetableTrip {
        JourneyLiveData.TimetableTrip(tid: tid, startSecs: startSecs ?? base, stops: stops)
    }

    package var stopSequences: [Int] { stops.records.map(\.stopSequence) }
    /// The sid of each stop (its text id is `TransitBundle.stopID(sid:)`, made only when
    /// asked: most stop time updates name their stop by stop_sequence).
    package var sids: [StopNumber] { stops.records.map { StopNumber($0.sid) } }
    /// GTFS seconds of the departure at each stop; for a frequency-based trip the template's.
    package var departureSecs: [Int] { stops.records.map { base + $0.departureOffset } }
    @inlinable package var count: Int { stops.records.count }

    /// This schedule on `day` (of its feed): whether it runs and when the day starts.
    package func placed(on day: ServiceDay) -> TripSchedule {
        var placed = self
        placed.runsOnDate = day.runs(service)
        placed.dayStart = day.dayStart
        return placed
    }

    /// GTFS seconds of the departure at stop `index`.
    @inlinable package func departureSecs(at index: Int) -> Int { base + stops.records[index].departureOffset }

    /// A pattern's stops in order: sids, stop_sequences, times from the trip's start,
    /// and whether riders may board (pickup_type not 1) and alight (drop_off_type not 1).
    /// A class: the trips of a pattern share one, and copying a schedule costs one
    /// reference count. The decoded records are kept as they are (24 bytes a stop, one
    /// allocation): a snapshot's first message keeps thousands of patterns' stops, and columns
    /// of them took more memory and a copy each.
    package final class StopColumns: Sendable {
        package let records: [PatternStopRecord]

        /// The columns of a pattern's decoded stops.
        init(_ stops: [PatternStopRecord]) { records = stops }

        /// Whether riders may board at stop `index` (pickup_type not 1).
        package func pickup(at index: Int) -> Bool { records[index].pickupType != 1 }
        /// Whether riders may alight at stop `index` (drop_off_type not 1).
        package func dropOff(at index: Int) -> Bool { records[index].dropOffType != 1 }
    }
}

/// A kept `TripSchedule`: the trip id as asked, in the feed asked (nil: any).
struct TripScheduleKey: Hashable, Sendable {
    var feed: String?
    var tripID: String
}
