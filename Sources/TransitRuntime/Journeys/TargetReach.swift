/// What the last rounds of a search can still use, worked out from where its journeys end:
/// its targets, or for a search whose labels alone are read (the order of ties of a range's
/// journeys) the stops those labels lead to.
///
/// A search with at most K rides answers with arrivals at its targets. In round K nothing
/// after an arrival is read (no round follows it), so only the routes through a target are
/// scanned, up to their last target, and only targets are labelled; no transfer follows
/// the round. In round K - 1 a transfer matters only when it ends where the last ride can
/// board (a stop of those routes before their last target), and an arrival only at a
/// target or where such a transfer starts; in round K - 2 likewise with the rides that
/// reach those arrivals. What is left out is read by nothing else either: a search in the
/// other direction is capped by this one's labels (`RaptorSearch.Limits.caps`) only where a
/// journey with at most K rides can pass, and the order of ties reads a search's labels of
/// the rounds before its last (`RaptorSearch+Ties`) at stops such journeys pass.
struct TargetReach {
    /// By route through a target where riders alight: one past the index of its last such
    /// stop, where round K's scan ends.
    let ends: [Int: Int]
    /// The targets: round K labels nothing else.
    let targets: BitSet
    /// The rounds before the last, latest first (round K - 1, then K - 2): what each can
    /// still use. Empty when trips the live data adds (not in the tables) can be ridden.
    let before: [Level]

    struct Level {
        /// Where the next round's ride can board: a transfer in this round ends nowhere else.
        let boardings: BitSet
        /// The stops whose arrival in this round can matter: the targets and every stop with
        /// a transfer to one of `boardings`. Nil (every stop) when the transfers are not
        /// known to be symmetric.
        let arrivals: BitSet?
    }

    /// Nil when the search has no targets (every label is then read).
    init?(tables: RouteTables, transfers: TransferGraph, targets: some Collection<Int>, stopCount: Int, addedRoutes: Bool) {
        guard !targets.isEmpty else { return nil }
        var targetSet = BitSet(count: stopCount)
        for sid in targets { targetSet.insert(sid) }
        let ends = Self.routeEnds(alightingAt: targets, tables)
        self.ends = ends
        self.targets = targetSet
        guard !addedRoutes else {
            before = []
            return
        }
        // Round K - 1; then, where its arrivals are known, round K - 2.
        let boardings = Self.boardings(before: ends, tables, stopCount)
        guard transfers.isSymmetric else {
            before = [Level(boardings: boardings, arrivals: nil)]
            return
        }
        let arrivals = Self.walkingTo(boardings, transfers, plus: targetSet)
        let earlierBoardings = Self.boardings(before: Self.routeEnds(alightingAt: arrivals, tables), tables, stopCount)
        before = [
            Level(boardings: boardings, arrivals: arrivals),
            Level(boardings: earlierBoardings, arrivals: Self.walkingTo(earlierBoardings, transfers, plus: targetSet)),
        ]
    }

    /// What the round `roundsLeft` rounds before the last can still use; nil for the last
    /// round and for earlier rounds than `before` covers (every label is read there).
    func level(roundsLeft: Int) -> Level? {
        roundsLeft >= 1 && roundsLeft <= before.count ? before[roundsLeft - 1] : nil
    }

    /// By route through one of `stops` where riders alight: one past the last such index.
    private static func routeEnds(alightingAt stops: some Sequence<Int>, _ tables: RouteTables) -> [Int: Int] {
        var ends: [Int: Int] = [:]
        for sid in stops {
            for place in tables.places(of: sid) {
                let (r, idx) = tables.place(place)
                guard tables.stopAlights[tables.stop(idx, of: tables.routes[r])] else { continue }
                ends[r] = max(ends[r] ?? 0, idx + 1)
            }
        }
        return ends
    }

    /// The stops where riders board each route of `ends` before its end's last stop.
    private static func boardings(before ends: [Int: Int], _ tables: RouteTables, _ stopCount: Int) -> BitSet {
        var boardings = BitSet(count: stopCount)
        for (r, end) in ends {
            let route = tables.routes[r]
            for idx in 0..<(end - 1) {
                let g = tables.stop(idx, of: route)
                if tables.stopBoards[g] { boardings.insert(Int(tables.stopSid[g])) }
            }
        }
        return boardings
    }

    /// `set` and the stops with a transfer to one of `stops`: with symmetric transfers, the
    /// stops each of them has a transfer to.
    private static func walkingTo(_ stops: BitSet, _ transfers: TransferGraph, plus set: BitSet) -> BitSet {
        var result = set
        for b in stops {
            for e in Int(transfers.first[b])..<Int(transfers.first[b + 1]) { result.insert(Int(transfers.targets[e])) }
        }
        return result
    }
}
