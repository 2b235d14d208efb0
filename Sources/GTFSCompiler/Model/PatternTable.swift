/// Folds trips into shared stop patterns: two trips share a pattern when they visit
/// the same stops with the same stop_sequence values, offsets from their first
/// departure, pickup/drop-off types, stop headsigns and interpolation flags. A pattern
/// takes its pid from `BundleIDs.patterns` (stable across versions with `--base`).
struct PatternTable {
    /// In the order first seen.
    private(set) var patterns: [BundleModel.Pattern] = []
    private var seen: Set<Int> = []
    private var ids: IDTable<BundleIDs.PatternKey>

    init(ids: IDTable<BundleIDs.PatternKey>) { self.ids = ids }

    /// The pid for these stops of feed `feed`, adding a new pattern when unseen.
    mutating func pid(for stops: [BundleModel.PatternStop], fid: Int, feed: String) -> Int {
        let pid = ids.id(BundleIDs.PatternKey(feed: feed, stops: stops))
        if seen.insert(pid).inserted { patterns.append(.init(pid: pid, fid: fid, stops: stops)) }
        return pid
    }
}
