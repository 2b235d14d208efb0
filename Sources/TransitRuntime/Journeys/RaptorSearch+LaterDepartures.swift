/// A range query's searches run latest departure first (`JourneyPlanner.rangeSearch`).
/// A rider who left the origin later and stood at a stop at instant t with k rides can go
/// on exactly as an earlier rider at that stop would, and arrive as early with no more
/// rides: every journey through a label no earlier than that is beaten
/// (journey-semantics.md, "Range"). So a search for an earlier departure sets only labels
/// that beat every later departure's with as many rides or fewer (the self-pruning of
/// rRAPTOR, Delling, Pajor and Werneck 2012).
///
/// Round 0's ready labels (the origin's access) are left out: they board only inside the
/// window, a later round's labels board anything.
struct LaterDepartures {
    /// Round k's entry for stop s at k * stride + s: the earliest arrival (alighting), and
    /// the earliest ready label (after a transfer), of any later departure's search with
    /// at most k rides; empty while no range query runs.
    fileprivate(set) var arrival: [Int] = []
    fileprivate(set) var ready: [Int] = []

    var isEmpty: Bool { arrival.isEmpty }
}

extension LaterDepartures {
    /// Keeps the last run of `search` as that of a later departure for the runs that follow
    /// (each for an earlier departure than every run kept before it).
    mutating func keepLastRun(of search: RaptorSearch) {
        let arrivals = search.labels.lastRunArrivals
        let count = arrivals.values.count
        guard count > 0 else { return }
        if arrival.count != count {
            arrival = [Int](repeating: RaptorSearch.never, count: count)
            ready = arrival
        }
        let stride = search.stride
        Self.keep(arrivals.set, of: arrivals.values, into: &arrival, stride: stride)
        let readies = search.labels.lastRunReadies
        Self.keep(readies.set.lazy.filter { $0 >= stride }, of: readies.values, into: &ready, stride: stride)
    }

    /// Sets `bound` at each round from the label's own upward to at most the label: with
    /// at most k rides includes every label with fewer. The bounds never increase with the
    /// round, so the first round already as early stops the walk up.
    private static func keep<S: Sequence<Int>>(_ indexes: S, of values: [Int], into bound: inout [Int], stride: Int) {
        bound.withUnsafeMutableBufferPointer { bound in
            for i in indexes {
                let t = values[i]
                var j = i
                while j < bound.count && bound[j] > t {
                    bound[j] = t
                    j += stride
                }
            }
        }
    }
}
