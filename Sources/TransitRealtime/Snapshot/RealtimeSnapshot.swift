import Foundation
import TransitRuntime

/// GTFS-Realtime messages of one feed matched against a bundle: an immutable value, built
/// once per message and replaced whole by the next (a board reads one snapshot or another,
/// never half of one). Trips without live data take no memory.
///
/// ```swift
/// let updates = try RealtimeMessage(contentsOf: "trip-updates.pb")
/// let snapshot = try RealtimeSnapshot(messages: [updates], bundle: bundle)
/// print(snapshot.report.tripUpdatesMatched, "of", snapshot.report.tripUpdates, "trips matched")
/// let board = try bundle.departures(from: "70012", realtime: snapshot)
/// ```
public struct RealtimeSnapshot: Sendable {
    /// What the live data says about one trip instance.
    struct LiveTrip: Sendable {
        enum State: Sendable { case running, cancelled, deleted }
        var state: State
        /// The calls with live data, in stop_sequence order, as runs of consecutive calls
        /// with the same live data (a delay propagated to the end of a trip is one run, 24
        /// bytes, not one entry a call): a board adds the delays to its scheduled instants.
        var calls: [PackedCall] = []
        /// The rare platform changes, by stop_sequence.
        var assignedStops: [Int32: String] = [:]
        /// The trip instance in the bundle's numbers, set by a trip update (a vehicle alone
        /// changes no journey).
        var timetable: JourneyLiveData.TimetableTrip?
        /// The vehicle, boxed: most trips of a message have none, and held inline its
        /// hundred bytes made every trip's entry of a snapshot four times larger.
        private var vehicleBox: VehicleBox?

        var vehicle: VehicleStatus? {
            get { vehicleBox?.status }
            set { vehicleBox = newValue.map(VehicleBox.init) }
        }

        init(state: State) { self.state = state }

        private final class VehicleBox: Sendable {
            let status: VehicleStatus
            init(_ status: VehicleStatus) { self.status = status }
        }

        /// The live data of the trip's call at `sequence` (one of its stop_sequences), when
        /// it has any: the run that holds it.
        func call(_ sequence: Int) -> PackedCall? {
            var (low, high) = (0, calls.count)
            while low < high {
                let mid = (low + high) / 2
                if calls[mid].lastSequence < sequence { low = mid + 1 } else { high = mid }
            }
            return low < calls.count && calls[low].firstSequence <= sequence ? calls[low] : nil
        }
    }

    /// The live state and delays (seconds; meaningful when `state` is `updated`) of a run
    /// of consecutive calls of a trip, those from stop_sequence `firstSequence` to
    /// `lastSequence` (stop_sequences increase along a trip: the run holds no other call).
    struct PackedCall: Sendable {
        var firstSequence: Int32
        var lastSequence: Int32
        var state: LiveState
        var arrivalDelay: Int32
        var departureDelay: Int32
        /// -1: none given.
        var uncertainty: Int32

        /// Whether `other` says the same of its calls (its sequences aside).
        func sameLiveData(as other: PackedCall) -> Bool {
            state == other.state && arrivalDelay == other.arrivalDelay && departureDelay == other.departureDelay
                && uncertainty == other.uncertainty
        }
    }

    /// The newest header time of the messages with trip updates, vehicles or alerts.
    public let tripUpdatesTime: Date?
    /// When the vehicle positions are from (their message's time), nil without any.
    public let vehiclesTime: Date?
    /// When the alerts are from, nil without any.
    public let alertsTime: Date?
    /// What was matched, and what could not be used with the reason.
    public let report: RealtimeReport
    let trips: [TripInstance: LiveTrip]
    /// ADDED/NEW, DUPLICATED and REPLACEMENT trips, with their own stops and times.
    let added: [AddedTrip]
    let alerts: [LiveAlert]
    /// The trips' live times and the added trips as the journey planner reads them, made
    /// once (`journeyLiveData(now:freshness:bundle:)`).
    let journeyLive: JourneyLiveCache
    /// The content hash of the bundle the trips were matched against (`TransitBundle.contentHash`).
    let matchedBundle: String
    /// The largest lateness and earliness of any prediction, seconds (bounds a board's search).
    let maxDelay: Int
    let maxEarliness: Int

    /// How far a message's header time may be ahead of `now` (clocks of phones and of
    /// producers drift): 10 minutes. A header further ahead is reported
    /// (`header_from_the_future`), its trips are matched at `now`, and its data ages from
    /// `now`, so a message stamped years ahead is never fresh for years.
    public static let clockSkewAllowance: TimeInterval = 600

    /// Matches `messages` (trip updates, vehicle positions and alerts, in one message or
    /// several) against the bundle's timetable of `feed` (the bundle's only feed when nil),
    /// at each message's header time (at `now` for a header more than
    /// `clockSkewAllowance` ahead of it). A message of more than 256 entities is read by as
    /// many threads as the machine has cores; all of them have finished when this returns.
    /// - Throws: `TransitError.unknownFeed`; a bundle that cannot be read.
    public init(messages: [RealtimeMessage], bundle: TransitBundle, feed: String? = nil, now: Date = Date()) throws {
        try self.init(messages: messages, bundle: bundle, feed: feed, now: now, stop: { false })
    }

    /// The same off the caller's actor (the main one included): the snapshot is built on
    /// the concurrency pool, and cancelling the calling task stops it between runs of 256
    /// entities with `CancellationError`.
    ///
    /// ```swift
    /// let snapshot = try await RealtimeSnapshot(messages: [message], bundle: bundle)
    /// ```
    public init(messages: [RealtimeMessage], bundle: TransitBundle, feed: String? = nil, now: Date = Date()) async throws {
        try Task.checkCancellation()
        let cancelled = Locked(false)
        let work = Task.detached(priority: Task.currentPriority) {
            try RealtimeSnapshot(messages: messages, bundle: bundle, feed: feed, now: now, stop: { cancelled.withLock { $0 } })
        }
        self = try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }

    /// `stop` is asked between runs of entities: once true, `CancellationError`.
    private init(messages: [RealtimeMessage], bundle: TransitBundle, feed: String?, now: Date, stop: @escaping @Sendable () -> Bool) throws
    {
        var builder = SnapshotBuilder()
        for (index, message) in messages.enumerated() {
            var time = Int(message.header.timestamp)
            if TimeInterval(time) > now.timeIntervalSince1970 + Self.clockSkewAllowance {
                builder.report.notes.append(
                    .init(
                        entityID: "header", reason: .headerFromTheFuture,
                        detail:
                            "message \(index + 1)'s header time \(time) is \(time - Int(now.timeIntervalSince1970)) s ahead of now; matched at now"
                    ))
                time = Int(now.timeIntervalSince1970)
            }
            // The message's trips looked up together first (on the first message after
            // opening, one by one they took most of the time); a damaged bundle is reported
            // trip by trip as the entities are read.
            let ids = message.tripIDs()
            let schedules = (try? bundle.prepareTripSchedules(ids, feed: feed)) ?? []
            if stop() { throw CancellationError() }
            let matcher = try TripMatcher(bundle: bundle, feedID: feed, messageTime: time, prepared: (ids, schedules))
            let adder = AddedTripBuilder(bundle: bundle, feedID: feed, clock: matcher.clock)
            SnapshotBuilder.read(message, matcher: matcher, adder: adder, into: &builder, stop: stop)
            if stop() { throw CancellationError() }
        }
        report = builder.report
        trips = builder.liveTrips()
        added = builder.added
        matchedBundle = bundle.contentHash
        journeyLive = JourneyLiveCache()
        alerts = builder.alerts
        tripUpdatesTime = builder.tripUpdatesTime
        vehiclesTime = builder.vehiclesTime
        alertsTime = builder.alertsTime
        maxDelay = min(builder.maxDelay, 6 * 3600)
        maxEarliness = min(builder.maxEarliness, 6 * 3600)
    }
}
