/// What the last two rounds of a search can still use, worked out from where its journeys
/// end: its targets, or for a search whose labels alone are read (the order of ties of a
/// range's journeys) the stops those labels lead to.
///
/// A search with at most K rides answers with arrivals at its targets. In round K nothing
/// after an arrival is read (no round follows it), so only the routes through a target are
/// scanned, up to their last target, and only targets are labelled; no transfer follows
/// the round. In round K - 1 a transfer matters only when it ends where the last ride can
/// board (a stop of those routes before their last target), and an arrival only at a
/// target or where such a transfer starts. What is left out is read by nothing else
/// either: a search in the other direction is capped by this one's labels
/// (`RaptorSearch.caps`) only where a journey with at most K rides can pass, and the order
/// of ties reads a search's labels of the rounds before its last (`RaptorSearch+Ties`).
/// On 40 x Strasbourg the last round relaxed a fifth of a depart-at search's transfers and
/// marked a third of its stops.
struct TargetReach {
    /// By route through a target where riders alight: one past the index of its last such
    /// stop, where round K's scan ends.
    let ends: [Int: Int]
    /// The targets: round K labels nothing else.
    let targets: BitSet
    /// Where round K's ride can board: the stops of `ends`' routes before their end. Nil
    /// (every stop) when trips the live data adds (not in the tables) can be ridden.
    let lastBoardings: BitSet?
    /// The stops whose arrival in round K - 1 can matter: the targets and every stop with a
    /// transfer to one of `lastBoardings`. Nil (every stop) when the transfers are not known
    /// to be symmetric, or with `lastBoardings` nil.
    let arrivalsBeforeLast: BitSet?

    /// Nil when the search has no targets (every label is then read).
    init?(tables: RouteTables, transfers: TransferGraph, targets: some Collection<Int>, stopCount: Int, addedRoutes: Bool) {
        guard !targets.isEmpty else { return nil }
        var targetSet = BitSet(count: stopCount)
        for sid in targets { targetSet.insert(sid) }
        var ends: [Int: Int] = [:]
        for sid in targets {
            for place in tables.places(of: sid) {
                let (r, idx) = tables.place(place)
                guard tables.stopAlights[tables.stop(idx, of: tables.routes[r])] else { continue }
                ends[r] = max(ends[r] ?? 0, idx + 1)
            }
        }
        var boardings = BitSet(count: stopCount)
        for (r, end) in ends {
            let route = tables.routes[r]
            for idx in 0..<(end - 1) {
                let g = tables.stop(idx, of: route)
                if tables.stopBoards[g] { boardings.insert(Int(tables.stopSid[g])) }
            }
        }
        var before: BitSet?
        if transfers.isSymmetric && !addedRoutes {
            // Symmetric: the stops with a transfer to b are those b has a transfer to.
            var set = targetSet
            for b in boardings {
                for e in Int(transfers.first[b])..<Int(transfers.first[b + 1]) { set.insert(Int(transfers.targets[e])) }
            }
            before = set
        }
        self.ends = ends
        self.targets = targetSet
        lastBoardings = addedRoutes ? nil : boardings
        arrivalsBeforeLast = before
    }
}
