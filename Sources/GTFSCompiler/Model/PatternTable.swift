/// Folds trips into shared stop patterns: two trips share a pattern when they visit
/// the same stops with the same stop_sequence values, offsets from their first
/// departure, pickup/drop-off types, stop headsigns and interpolation flags. A pattern
/// takes its pid from `BundleIDs.patterns` (stable across versions with `--base`).
///
/// A feed's new patterns are numbered once the feed is read, route by route (the route of
/// the first trip met, then the order met): the patterns through one stop are mostly
/// those of a few routes, so a board's first read of them finds their rows together in
/// the bundle. Numbered in the order met, trips taken in byte order of their ids
/// ("12~0", "12~1", ...) spread one route's patterns over the whole table.
struct PatternTable {
    /// Numbered, in pid order feed by feed.
    private(set) var patterns: [BundleModel.Pattern] = []
    /// The feed being read: its patterns in the order met, with the route of their first trip.
    private var pending: [(stops: [BundleModel.PatternStop], rid: Int)] = []
    private var pendingIndex: [BundleIDs.PatternKey: Int] = [:]
    private var ids: IDTable<BundleIDs.PatternKey>

    init(ids: IDTable<BundleIDs.PatternKey>) { self.ids = ids }

    /// The index, among the patterns of the feed being read, of these stops' pattern (met
    /// on a trip of route `rid`), adding it when unseen; `numberFeed` gives its pid.
    mutating func index(for stops: [BundleModel.PatternStop], feed: String, rid: Int) -> Int {
        let key = BundleIDs.PatternKey(feed: feed, stops: stops)
        if let index = pendingIndex[key] { return index }
        pendingIndex[key] = pending.count
        pending.append((stops, rid))
        return pending.count - 1
    }

    /// Numbers the patterns of the feed just read (feed `feed`, `fid`) and returns the pid
    /// of each index: those the base bundle has keep theirs, new ones take the next ids by
    /// route, then in the order met.
    mutating func numberFeed(fid: Int, feed: String) -> [Int] {
        var pidOf = [Int](repeating: 0, count: pending.count)
        for i in pending.indices.sorted(by: { (pending[$0].rid, $0) < (pending[$1].rid, $1) }) {
            pidOf[i] = ids.id(BundleIDs.PatternKey(feed: feed, stops: pending[i].stops))
        }
        for i in pending.indices.sorted(by: { pidOf[$0] < pidOf[$1] }) {
            patterns.append(.init(pid: pidOf[i], fid: fid, stops: pending[i].stops))
        }
        pending = []
        pendingIndex = [:]
        return pidOf
    }
}
