import BundleFormat
import Foundation

/// The time τ(A, B) a rider needs between alighting at stop A and boarding at stop B, as
/// journey-semantics.md states it: `transfers.txt` rows first (3 and 5 forbid, 2 gives its
/// minimum time at any distance, 1 is timed: nothing at the same stop, the walk alone to
/// another), else the change time at the same stop and walk + change time to stops within
/// the transfer distance.
struct TransferTimes {
    /// The stops within the transfer distance of each stop (sid, metres), without itself,
    /// by sid: `paths[sid]`. In three flat arrays (on 40 x Strasbourg 2.1 million walks in
    /// 17 MB, where an array per stop took 26 MB).
    struct Footpaths: Sendable {
        /// Stop s's walks are `sids[first[s]..<first[s + 1]]`, their lengths in `metres`.
        let first: [Int32]
        let sids: [Int32]
        let metres: [Float]

        subscript(sid: Int) -> [(sid: Int32, distance: Float)] {
            (Int(first[sid])..<Int(first[sid + 1])).map { (sids[$0], metres[$0]) }
        }

        /// The walks from `sid`: indexes into `sids` and `metres`.
        @inline(__always)
        func range(of sid: Int) -> Range<Int> { Int(first[sid])..<Int(first[sid + 1]) }

        /// Whether `sid` has a walk to `to`.
        func contains(_ sid: Int, _ to: Int) -> Bool { range(of: sid).contains { Int(sids[$0]) == to } }
    }

    let network: RoutingNetwork
    let footpaths: Footpaths
    let changeTime: Int
    let walkingSpeed: Double
    /// A wheelchair search: changes inside a station take step-free pathways only.
    var stepFree = false

    /// Seconds to walk `metres` at the query's speed, rounded up.
    func walk(_ metres: Double) -> Int { Int((metres / walkingSpeed).rounded(.up)) }

    /// Every stop reachable from `from` by one transfer, with its τ, into `result`.
    func transfers(from: Int, into result: inout [(sid: Int, seconds: Int)]) {
        result.removeAll(keepingCapacity: true)
        let ownRules = network.transferRules[Int32(from)]
        if ownRules == nil && network.pathways.isEmpty {
            // No transfers.txt row and no pathways (most stops): the change at the stop and
            // the walks, without the rules' and the pathways' closures below.
            result.append((from, changeTime))
            for i in footpaths.range(of: from) {
                result.append((Int(footpaths.sids[i]), walk(Double(footpaths.metres[i])) + changeTime))
            }
            return
        }
        let rules = ownRules ?? []
        func rule(to: Int) -> RoutingNetwork.TransferRule? {
            rules.isEmpty ? nil : rules.first { Int($0.to) == to }
        }
        // Inside a station with pathways, its nodes are reached along them.
        let inside = network.pathways.times(from: from, walkingSpeed: walkingSpeed, stepFree: stepFree)
        /// The walk to `to`: along the pathways between two of a station's nodes (none
        /// step-free: no walk), else the straight line.
        func walkTo(_ to: Int, metres: Double) -> Int? {
            if network.walksInside(from: from, to: to) {
                if let seconds = inside[Int32(to)] { return seconds }
                if stepFree { return nil }
            }
            return walk(metres)
        }
        func apply(_ rule: RoutingNetwork.TransferRule?, to: Int, metres: Double) {
            if rule?.kind == .notPossible || rule?.kind == .inSeatNotAllowed { return }
            if rule?.kind == .minimumTime {
                result.append((to, max(0, rule?.minTime ?? 0)))
                return
            }
            let walked = to == from ? 0 : walkTo(to, metres: metres)
            guard let walked else { return }
            if rule?.kind == .timed {
                result.append((to, walked))
            } else {
                result.append((to, to == from ? changeTime : walked + changeTime))
            }
        }
        apply(rule(to: from), to: from, metres: 0)
        for i in footpaths.range(of: from) {
            let to = Int(footpaths.sids[i])
            apply(rule(to: to), to: to, metres: Double(footpaths.metres[i]))
        }
        // A station's platforms beyond the transfer distance, reached along its pathways.
        for (node, _) in inside where Int(node) != from && Int(node) < network.stopCount && network.serves(Int(node)) {
            let to = Int(node)
            guard network.walksInside(from: from, to: to), !footpaths.contains(from, to),
                !rules.contains(where: { Int($0.to) == to && ($0.kind == .timed || $0.kind == .minimumTime) })
            else { continue }
            apply(rule(to: to), to: to, metres: network.metres(between: from, to))
        }
        // Rows to stops beyond the transfer distance (timed and minimum-time rows only
        // connect them).
        for r in rules where Int(r.to) != from && (r.kind == .timed || r.kind == .minimumTime) {
            let to = Int(r.to)
            guard !footpaths.contains(from, to), to < network.stopCount else { continue }
            apply(r, to: to, metres: network.metres(between: from, to))
        }
    }

    /// Footpaths between every pair of served stops at most `distance` metres apart: each
    /// pair measured once (the distance is symmetric to the bit) from its lower sid, with
    /// each stop's latitude cosine worked out once (on 40 x Strasbourg, 2.1 million walks,
    /// measuring every pair from both ends was a fifth of the first journey), then laid out
    /// by stop: a stop's lower neighbours by sid, then its higher ones in the grid's order
    /// (the transfer graph sorts them by τ; sorting them by sid here took 25-35 ms of the
    /// first journey on 40 x Strasbourg).
    static func footpaths(_ network: RoutingNetwork, within distance: Double) -> Footpaths {
        let count = network.stopCount
        var points = [GeoDistance.Point](repeating: GeoDistance.Point(0, 0), count: count)
        for sid in 0..<count where !network.stopLatitude[sid].isNaN {
            points[sid] = GeoDistance.Point(network.stopLatitude[sid], network.stopLongitude[sid])
        }
        // The pairs (a < b) and how many walks each stop has.
        var pairs: [(a: Int32, b: Int32, metres: Float)] = []
        var first = [Int32](repeating: 0, count: count + 1)
        for a in 1..<max(1, count) where network.serves(a) {
            let here = points[a]
            network.forEachCandidate(near: network.stopLatitude[a], network.stopLongitude[a], within: distance, above: a) { b in
                let d = GeoDistance.metres(here, points[b])
                if d <= distance {
                    pairs.append((Int32(a), Int32(b), Float(d)))
                    first[a + 1] += 1
                    first[b + 1] += 1
                }
            }
        }
        for s in 0..<count { first[s + 1] += first[s] }
        var next = first
        var sids = [Int32](repeating: 0, count: 2 * pairs.count)
        var metres = [Float](repeating: 0, count: 2 * pairs.count)
        for (a, b, d) in pairs {
            sids[Int(next[Int(a)])] = b
            metres[Int(next[Int(a)])] = d
            next[Int(a)] += 1
            sids[Int(next[Int(b)])] = a
            metres[Int(next[Int(b)])] = d
            next[Int(b)] += 1
        }
        pairs = []
        return Footpaths(first: first, sids: sids, metres: metres)
    }
}

/// Every stop's transfers with their τ, for one set of options (change time, speed,
/// transfer distance) and one direction of the network: built once, then shared by every
/// query with those options. Edges `first[s]..<first[s + 1]` are the stops a rider who
/// alighted at s can board at with their τ, shortest first (a search stops reading them at
/// the first that arrives too late).
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

    init(_ times: TransferTimes) {
        var first: [Int32] = [0]
        first.reserveCapacity(times.network.stopCount + 1)
        // Each stop's walks and its own change, and a few more for transfers.txt rows and
        // pathways: reserved at once, the edges are not copied as they grow, and are kept
        // in buffers of their size.
        let expected = times.network.stopCount + times.footpaths.sids.count
        var targets: [Int32] = []
        var shortSeconds: [UInt16] = []
        var longSeconds: [Int: Int] = [:]
        targets.reserveCapacity(expected)
        shortSeconds.reserveCapacity(expected)
        var reached: [(sid: Int, seconds: Int)] = []
        var keys: [Int] = []
        for sid in 0..<times.network.stopCount {
            if times.network.serves(sid) {
                // By τ, then sid: as one integer each, τ in the high half (sids are below
                // 2^31, `BundleCheck`), sorted without a comparison closure.
                keys.removeAll(keepingCapacity: true)
                times.transfers(from: sid, into: &reached)
                for (to, tau) in reached { keys.append(Int(Int32(clamping: tau)) << 32 | to) }
                keys.sort()
                for key in keys {
                    let tau = key >> 32
                    if tau >= Int(UInt16.max) { longSeconds[targets.count] = tau }
                    targets.append(Int32(truncatingIfNeeded: key))
                    shortSeconds.append(UInt16(clamping: tau))
                }
            }
            first.append(Int32(targets.count))
        }
        self.first = first
        self.targets = targets.trimmedToCount()
        self.shortSeconds = shortSeconds.trimmedToCount()
        self.longSeconds = longSeconds
        isSymmetric = times.network.transferRules.isEmpty && times.network.pathways.isEmpty
    }
}

/// What a `TransferGraph` depends on.
struct TransferGraphKey: Hashable, Sendable {
    let mirrored: Bool
    let changeTime: Int
    let walkingSpeed: Double
    let transferDistance: Double
    /// Whether changes take step-free pathways only (a wheelchair search on a network with
    /// pathways).
    var stepFree = false
}
