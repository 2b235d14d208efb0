import BundleFormat
import TransitRuntime

/// A trip's scheduled calls on one day, read from its pattern's stops where they lie: the
/// instant of each is worked out when asked, so matching a trip makes no array of its
/// calls (10,000 trips of a message made 10,000 arrays to read each once).
///
/// ```swift
/// let calls = ScheduledCalls(trip.stops.records, start: dayStart + trip.base)
/// print(calls.first?.departure ?? 0, calls.count)
/// ```
struct ScheduledCalls: RandomAccessCollection, Sendable {
    /// The pattern's stops, shared with its other trips.
    let records: [PatternStopRecord]
    /// The Unix time the stops' offsets count from.
    let start: Int

    init(_ records: [PatternStopRecord], start: Int) {
        self.records = records
        self.start = start
    }

    var startIndex: Int { 0 }
    var endIndex: Int { records.count }

    subscript(index: Int) -> DelayPropagation.ScheduledCall {
        let stop = records[index]
        return DelayPropagation.ScheduledCall(
            stopSequence: stop.stopSequence, arrival: start + stop.arrivalOffset, departure: start + stop.departureOffset)
    }
}
