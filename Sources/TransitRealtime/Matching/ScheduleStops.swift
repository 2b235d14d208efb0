import BundleFormat
import TransitRuntime

/// The stops of a matched trip's schedule as sids: a stop's text id is read only when an
/// update names a stop_id to check against it (kept by the bundle once read), and an
/// update naming a stop_id alone is looked up once and compared as a sid. Most producers
/// name stops by stop_sequence, so a snapshot of theirs reads no stop at all. The bundle
/// that names the stops is passed in, not held: both threads holding the one bundle
/// object, a count for each trip, shared a cache line between the cores.
struct ScheduleStops {
    /// The pattern's stops, shared with its other trips.
    let records: [PatternStopRecord]
    let feedID: String

    /// The stops `records` of a pattern of feed `feedID`.
    init(_ records: [PatternStopRecord], feedID: String) {
        self.records = records
        self.feedID = feedID
    }

    /// The indices of the stops whose stop_id is `stopID` (none when the feed has no such
    /// stop), in `bundle`.
    func indices(of stopID: String, in bundle: TransitBundle) -> [Int] {
        guard let sid = bundle.sid(ofStop: stopID, feed: feedID) else { return [] }
        return records.indices.filter { records[$0].sid == sid }
    }

    /// The text id of the stop at `index`, in `bundle`.
    func stopID(at index: Int, in bundle: TransitBundle) -> String {
        let sid = records[index].sid
        return (try? bundle.stopID(sid: sid)) ?? "sid \(sid)"
    }
}
