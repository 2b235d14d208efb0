/// Every stop's transfers with their τ, for one set of options (change time, speed,
/// transfer distance) and one direction of the network: built once, then shared by every
/// query with those options. Edges `first[s]..<first[s + 1]` are the stops a rider who
/// alighted at s can board at with their τ, shortest first, then by sid (a search stops
/// reading them at the first that arrives too late).
final class TransferGraph: Sendable {
    /// Edge `e` leads to stop `targets[e]`, in `seconds(e)`: as two arrays, 6 bytes an edge
    /// (8 as pairs of 32-bit integers). A τ of 65,535 s or more (a transfers.txt or pathway time of over 18
    /// hours) is kept aside by edge.
    let first: [Int32]
    let targets: [Int32]
    private let shortSeconds: [UInt16]
    private let longSeconds: [Int: Int]
    /// Whether a transfer from A to B has one from B to A of the same τ: the walks and the
    /// change at a stop are, transfers.txt rows and pathways need not be.
    let isSymmetric: Bool

    /// The seconds of edge `e`'s transfer (τ).
    @inline(__always)
    func seconds(_ e: Int) -> Int {
        let short = shortSeconds[e]
        return short != .max ? Int(short) : longSeconds[e] ?? Int(Int32.max)
    }

    /// Most stops' transfers are the change at the stop and the walks (no transfers.txt row,
    /// no pathways): each such stop's edges are made as integers (τ, then target) and put in
    /// order where they lie, by insertion, by counting them per τ or by sorting
    /// (`write(_:inSidOrder:at:targets:seconds:counts:)`); sorting lists of tuples with a
    /// closure cost far more, and two counting sorts over
    /// all edges then spent most of their time in cache misses. The other stops' transfers
    /// are worked out and sorted one stop at a time, their pathway searches taking at most
    /// `StationPathways.graphBudget` steps in all (a damaged bundle past it).
    init(_ times: TransferTimes) throws {
        let network = times.network
        let paths = times.footpaths
        let stopCount = network.stopCount
        // Which stops take the walks as they are, and every stop's edges: its walks and its
        // own change, or the list worked out for it.
        var plain = [Bool](repeating: false, count: stopCount)
        var others: [Int: [(sid: Int32, seconds: Int)]] = [:]
        var first = [Int32](repeating: 0, count: stopCount + 1)
        var reached: [(sid: Int, seconds: Int)] = []
        var budget = StationPathways.graphBudget
        for sid in 0..<stopCount where network.serves(sid) {
            if times.walksOnly(from: sid) {
                plain[sid] = true
                first[sid + 1] = Int32(1 + paths.range(of: sid).count)
            } else {
                try times.transfers(from: sid, into: &reached, budget: &budget)
                let sorted = reached.map { (sid: Int32($0.sid), seconds: Int(Int32(clamping: $0.seconds))) }
                    .sorted { ($0.seconds, $0.sid) < ($1.seconds, $1.sid) }
                others[sid] = sorted
                first[sid + 1] = Int32(sorted.count)
            }
        }
        for s in 0..<stopCount { first[s + 1] += first[s] }
        let edgeCount = Int(first[stopCount])
        var targets = [Int32](repeating: 0, count: edgeCount)
        var shortSeconds = [UInt16](repeating: 0, count: edgeCount)
        var longSeconds: [Int: Int] = [:]
        for (sid, edges) in others {
            for (i, edge) in edges.enumerated() {
                let e = Int(first[sid]) + i
                targets[e] = edge.sid
                shortSeconds[e] = UInt16(clamping: edge.seconds)
                if edge.seconds >= Int(UInt16.max) { longSeconds[e] = edge.seconds }
            }
        }

        // The plain stops' edges: each stop's own change and its walks, each walk's τ its
        // walk plus the change time (options bound it: 5 km at 0.1 m/s plus an hour, 53,600
        // s), as τ << 32 | target, put in order stop by stop and written where the stop's
        // edges go: a stop's edges are read and written in one place (on 40 x Strasbourg,
        // 2.1 million edges, 35-45 % less time than the counting sorts over all edges).
        let change = times.changeTime
        // Room for the most edges a stop has, reused from stop to stop.
        var most = 0
        for sid in 0..<stopCount where plain[sid] { most = max(most, paths.range(of: sid).count + 1) }
        var room = [UInt64](repeating: 0, count: most)
        var counts: [Int32] = []
        // The walks and the edges through pointers (checked accesses doubled the
        // instructions); the stops' flags and first edges are read once a stop.
        paths.first.withUnsafeBufferPointer { walkFirst in
            paths.sids.withUnsafeBufferPointer { walkSid in
                paths.metres.withUnsafeBufferPointer { metres in
                    targets.withUnsafeMutableBufferPointer { targets in
                        shortSeconds.withUnsafeMutableBufferPointer { shortSeconds in
                            room.withUnsafeMutableBufferPointer { room in
                                for from in 0..<stopCount where plain[from] {
                                    // The stop's own change among its walks in sid order (the
                                    // order the walks are laid out in, checked).
                                    let own = UInt64(UInt32(clamping: change)) << 32 | UInt64(from)
                                    var n = 0
                                    var ownPlaced = false
                                    var inSidOrder = true
                                    var previous = -1
                                    for i in Int(walkFirst[from])..<Int(walkFirst[from + 1]) {
                                        let to = Int(walkSid[i])
                                        if !ownPlaced && to > from {
                                            room[n] = own
                                            n += 1
                                            ownPlaced = true
                                        }
                                        inSidOrder = inSidOrder && to > previous
                                        previous = to
                                        let tau = times.walk(Double(metres[i])) + change
                                        room[n] = UInt64(UInt32(clamping: tau)) << 32 | UInt64(UInt32(to))
                                        n += 1
                                    }
                                    if !ownPlaced {
                                        room[n] = own
                                        n += 1
                                    }
                                    Self.write(
                                        UnsafeMutableBufferPointer(rebasing: room[0..<n]), inSidOrder: inSidOrder, at: Int(first[from]),
                                        targets: targets, seconds: shortSeconds, counts: &counts)
                                }
                            }
                        }
                    }
                }
            }
        }
        self.first = first
        self.targets = targets
        self.shortSeconds = shortSeconds
        self.longSeconds = longSeconds
        isSymmetric = network.transferRules.isEmpty && network.pathways.isEmpty
    }

    /// Writes one stop's edges (`keys`: τ << 32 | target) at `start` of `targets` and
    /// `seconds`, by τ then target. Up to 32 are put in order by insertion; more, when they
    /// come in target order and their τ span at most 8 seconds an edge, by counting them
    /// per τ (`counts`: room reused from stop to stop), which keeps the target order within
    /// a τ (insertion alone took most of the graph's time where many stops have more than
    /// 32 edges); else by the standard library's sort.
    private static func write(
        _ keys: UnsafeMutableBufferPointer<UInt64>, inSidOrder: Bool, at start: Int, targets: UnsafeMutableBufferPointer<Int32>,
        seconds: UnsafeMutableBufferPointer<UInt16>, counts: inout [Int32]
    ) {
        func writeInOrder() {
            for (k, key) in keys.enumerated() {
                targets[start + k] = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)
                seconds[start + k] = UInt16(clamping: key >> 32)
            }
        }
        let n = keys.count
        guard n > 32 else {
            for i in keys.indices.dropFirst() {
                let key = keys[i]
                var j = i
                while j > 0 && keys[j - 1] > key {
                    keys[j] = keys[j - 1]
                    j -= 1
                }
                keys[j] = key
            }
            return writeInOrder()
        }
        var (low, high) = (UInt64.max, UInt64(0))
        for key in keys {
            low = min(low, key >> 32)
            high = max(high, key >> 32)
        }
        let span = Int(high - low) + 1
        guard inSidOrder, span <= 8 * n else {
            var inPlace = keys  // the same memory: sorted where it lies
            inPlace.sort()
            return writeInOrder()
        }
        if counts.count < span + 1 { counts = [Int32](repeating: 0, count: 2 * (span + 1)) }
        counts.withUnsafeMutableBufferPointer { counts in
            UnsafeMutableBufferPointer(rebasing: counts[0...span]).update(repeating: 0)
            for key in keys { counts[Int((key >> 32) - low) + 1] += 1 }
            for t in 0..<span { counts[t + 1] += counts[t] }
            for key in keys {
                let t = Int((key >> 32) - low)
                let e = start + Int(counts[t])
                counts[t] += 1
                targets[e] = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)
                seconds[e] = UInt16(clamping: key >> 32)
            }
        }
    }
}
