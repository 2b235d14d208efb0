import BundleFormat
import TransitRuntime

/// The stops of a matched trip's schedule as sids, with the bundle that names them: a
/// stop's text id is read only when an update names a stop_id to check against it (kept
/// by the bundle once read), and an update naming a stop_id alone is looked up once and
/// compared as a sid. Most producers name stops by stop_sequence, so a snapshot of theirs
/// reads no stop at all.
struct ScheduleStops {
    let stops: TripSchedule.StopColumns
    let feedID: String
    let bundle: TransitBundle

    /// The stops of `schedule`, named by `bundle`.
    init(_ schedule: TripSchedule, bundle: TransitBundle) {
        stops = schedule.stops
        feedID = schedule.feedID
        self.bundle = bundle
    }

    /// The indices of the stops whose stop_id is `stopID` (none when the feed has no such stop).
    func indices(of stopID: String) -> [Int] {
        guard let sid = bundle.sid(ofStop: stopID, feed: feedID) else { return [] }
        return stops.records.indices.filter { stops.records[$0].sid == sid }
    }

    /// The text id of the stop at `index`.
    func stopID(at index: Int) -> String {
        let sid = stops.records[index].sid
        return (try? bundle.stopID(sid: sid)) ?? "sid \(sid)"
    }
}
