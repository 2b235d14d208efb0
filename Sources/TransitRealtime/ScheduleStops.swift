import TransitRuntime

/// The stops of a matched trip's schedule as sids, with the bundle that names them: a
/// stop's text id is read only when an update names a stop_id to check against it (kept
/// by the bundle once read), and an update naming a stop_id alone is looked up once and
/// compared as a sid. Most producers name stops by stop_sequence, so a snapshot of theirs
/// reads no stop at all.
struct ScheduleStops {
    let sids: [Int]
    let feedID: String
    let bundle: TransitBundle

    /// The sid of the update's stop_id in the trip's feed, nil when the feed has no such stop.
    func sid(of stopID: String) -> Int? { bundle.sid(ofStop: stopID, feed: feedID) }

    /// The text id of the stop at `index`.
    func stopID(at index: Int) -> String { (try? bundle.stopID(sid: sids[index])) ?? "sid \(sids[index])" }
}
