/// Every stop's transfers with their τ, for one set of options (change time, speed,
/// transfer distance) and one direction of the network: built once, then shared by every
/// query with those options. Edges `first[s]..<first[s + 1]` are the stops a rider who
/// alighted at s can board at with their τ, shortest first, then by sid (a search stops
/// reading them at the first that arrives too late).
final class TransferGraph: Sendable {
    /// Edge `e` leads to stop `targets[e]`, in `seconds(e)`: as two arrays, 6 bytes an edge
    /// (on 40 x Strasbourg 12.9 MB for 2.1 million edges, 17.2 MB as pairs of 32-bit
    /// integers). A τ of 65,535 s or more (a transfers.txt or pathway time of over 18
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
    /// no pathways): those are laid out for all such stops at once, by two counting sorts
    /// (by τ, then by stop) over the walks met in the order of the stops they lead to, which
    /// leaves each stop's edges by τ and then by sid without sorting any list (sorting each
    /// stop's list was 476 million instructions on 40 x Strasbourg, a fifth of its first
    /// journey). The other stops' transfers are worked out and sorted one stop at a time.
    init(_ times: TransferTimes) {
        let network = times.network
        let paths = times.footpaths
        let stopCount = network.stopCount
        // Which stops take the walks as they are, and every stop's edges: its walks and its
        // own change, or the list worked out for it.
        var plain = [Bool](repeating: false, count: stopCount)
        var others: [Int: [(sid: Int32, seconds: Int)]] = [:]
        var first = [Int32](repeating: 0, count: stopCount + 1)
        var reached: [(sid: Int, seconds: Int)] = []
        for sid in 0..<stopCount where network.serves(sid) {
            if times.walksOnly(from: sid) {
                plain[sid] = true
                first[sid + 1] = Int32(1 + paths.range(of: sid).count)
            } else {
                times.transfers(from: sid, into: &reached)
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

        // The plain stops' edges. A walk's τ (walk + change time) is the same both ways, as
        // its length is; options bound it (5 km at 0.1 m/s plus an hour: 53,600 s), so it
        // indexes a count. Walks are met by the stop they lead to, in sid order, and the
        // count by τ keeps that order: edges by (τ, target). Then each is written at its
        // origin's next place, in that order. Through pointers: checked array accesses
        // doubled the instructions.
        let change = times.changeTime
        // The longest walk's τ bounds the others' (τ grows with the length).
        let maxTau = times.walk(Double(paths.metres.max() ?? 0)) + change
        var walkTau = [Int32](repeating: 0, count: paths.sids.count)
        // byTau[t - change] is where the edges of τ = t start among `pairs`.
        var byTau = [Int32](repeating: 0, count: maxTau - change + 2)
        var pairs: [UInt64] = []
        plain.withUnsafeBufferPointer { plain in
            paths.first.withUnsafeBufferPointer { walkFirst in
                paths.sids.withUnsafeBufferPointer { walkSid in
                    walkTau.withUnsafeMutableBufferPointer { walkTau in
                        byTau.withUnsafeMutableBufferPointer { byTau in
                            paths.metres.withUnsafeBufferPointer { metres in
                                for to in 0..<stopCount {
                                    if plain[to] { byTau[1] += 1 }
                                    for i in Int(walkFirst[to])..<Int(walkFirst[to + 1]) {
                                        let tau = times.walk(Double(metres[i])) + change
                                        walkTau[i] = Int32(tau)
                                        if plain[Int(walkSid[i])] { byTau[tau - change + 1] += 1 }
                                    }
                                }
                            }
                            for t in 1..<byTau.count { byTau[t] += byTau[t - 1] }
                            // (origin, target) pairs by τ, each τ's in target order.
                            var next = Array(byTau)
                            pairs = [UInt64](unsafeUninitializedCapacity: Int(byTau[byTau.count - 1])) { out, initialized in
                                for to in 0..<stopCount {
                                    if plain[to] {
                                        out[Int(next[0])] = UInt64(to) << 32 | UInt64(to)
                                        next[0] += 1
                                    }
                                    for i in Int(walkFirst[to])..<Int(walkFirst[to + 1]) where plain[Int(walkSid[i])] {
                                        let t = Int(walkTau[i]) - change
                                        out[Int(next[t])] = UInt64(UInt32(walkSid[i])) << 32 | UInt64(to)
                                        next[t] += 1
                                    }
                                }
                                initialized = out.count
                            }
                        }
                    }
                }
            }
        }
        walkTau = []
        var cursor = first
        pairs.withUnsafeBufferPointer { pairs in
            cursor.withUnsafeMutableBufferPointer { cursor in
                targets.withUnsafeMutableBufferPointer { targets in
                    shortSeconds.withUnsafeMutableBufferPointer { shortSeconds in
                        for t in 0..<(byTau.count - 1) {
                            let seconds = UInt16(clamping: t + change)
                            for k in Int(byTau[t])..<Int(byTau[t + 1]) {
                                let from = Int(pairs[k] >> 32)
                                let e = Int(cursor[from])
                                targets[e] = Int32(truncatingIfNeeded: pairs[k])
                                shortSeconds[e] = seconds
                                cursor[from] += 1
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
}
