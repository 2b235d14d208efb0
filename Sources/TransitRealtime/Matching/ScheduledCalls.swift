import BundleFormat
import TransitRuntime

/// A trip's scheduled calls on one day, read from its pattern's stops where they lie: the
/// instant of each is worked out when asked, so matching a trip makes no array of its
/// calls (a message's thousands of trips would make as many arrays to read each once).
/// Its stops are sids: a stop's text id is read only when an update names a stop_id to
/// check against it (kept by the bundle once read), and an update naming a stop_id alone
/// is looked up once and compared as a sid; most producers name stops by stop_sequence,
/// so a snapshot of theirs reads no stop at all. The bundle that names the stops is passed
/// in, not held: both threads holding the one bundle object, a count for each trip, shared
/// a cache line between the cores.
///
/// ```swift
/// let calls = ScheduledCalls(trip.stops.records, start: dayStart + trip.base, feedID: trip.feedID)
/// print(calls.first?.departure ?? 0, calls.count)
/// ```
struct ScheduledCalls: RandomAccessCollection, Sendable {
    /// The pattern's stops, shared with its other trips.
    let records: [PatternStopRecord]
    /// The Unix time the stops' offsets count from.
    let start: Int
    /// The feed of the trip, whose stop ids `indices(of:in:)` looks up.
    let feedID: String

    init(_ records: [PatternStopRecord], start: Int, feedID: String) {
        (self.records, self.start, self.feedID) = (records, start, feedID)
    }

    /// The indices of the stops whose stop_id is `stopID` (none when the feed has no such
    /// stop), in `bundle`.
    func indices(of stopID: String, in bundle: TransitBundle) -> [Int] {
        guard let sid = bundle.sid(ofStop: stopID, feed: feedID) else { return [] }
        return records.indices.filter { records[$0].sid == sid.int }
    }

    /// The text id of the stop at `index`, in `bundle`.
    func stopID(at index: Int, in bundle: TransitBundle) -> String {
        let sid = StopNumber(records[index].sid)
        return (try? bundle.stopID(sid: sid)) ?? "sid \(sid)"
    }

    var startIndex: Int { 0 }
    var endIndex: Int { records.count }

    subscript(index: Int) -> DelayPropagation.ScheduledCall {
        let stop = records[index]
        return DelayPropagation.ScheduledCall(
            stopSequence: stop.stopSequence, arrival: start + stop.arrivalOffset, departure: start + stop.departureOffset)
    }
}
