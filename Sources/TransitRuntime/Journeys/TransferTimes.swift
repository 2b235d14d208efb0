import BundleFormat
import Foundation

/// The time τ(A, B) a rider needs between alighting at stop A and boarding at stop B, as
/// journey-semantics.md states it: `transfers.txt` rows first (3 and 5 forbid, 2 gives its
/// minimum time at any distance, 1 is timed: nothing at the same stop, the walk alone to
/// another), else the change time at the same stop and walk + change time to stops within
/// the transfer distance.
struct TransferTimes {
    /// The stops within the transfer distance of each stop (sid, metres), without itself,
    /// by sid: `paths[sid]`. In three flat arrays (an array per stop took half as
    /// much again).
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
    @inline(__always)
    func walk(_ metres: Double) -> Int {
        let seconds = metres / walkingSpeed
        // Rounded up without a call to libm's `ceil` (x86-64 before SSE 4.1 has no
        // instruction for it; a transfer graph rounds two million walks): the same value.
        guard seconds >= 0, seconds < 1e15 else { return Int(seconds.rounded(.up)) }
        let whole = Int(seconds)
        return Double(whole) < seconds ? whole + 1 : whole
    }

    /// Whether the transfers from `sid` are only the change at the stop and the walks, each
    /// walk's τ its walk plus the change time: no transfers.txt row names it and the network
    /// has no pathways (most stops; `TransferGraph` lays theirs out together).
    func walksOnly(from sid: Int) -> Bool {
        network.pathways.isEmpty && (network.transferRules.isEmpty || network.transferRules[Int32(sid)] == nil)
    }

    /// Every stop reachable from `from` by one transfer, with its τ, into `result`; the
    /// pathway search takes its steps from `budget` (`StationPathways.times`).
    func transfers(from: Int, into result: inout [(sid: Int, seconds: Int)], budget: inout Int) throws {
        result.removeAll(keepingCapacity: true)
        let rules = network.transferRules[Int32(from)] ?? []
        func rule(to: Int) -> RoutingNetwork.TransferRule? {
            rules.isEmpty ? nil : rules.first { Int($0.to) == to }
        }
        // Inside a station with pathways, its nodes are reached along them.
        let inside = try network.pathways.times(from: from, walkingSpeed: walkingSpeed, stepFree: stepFree, budget: &budget)
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
        for (node, _) in inside where Int(node) != from && network.serves(Int(node)) {
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
    /// each stop's latitude cosine worked out once, then laid out by stop. The pairs are
    /// those the compiler stored (`planner_walks`) when they reach as far (searching the
    /// grid for them was a fifth of a large bundle's first journey), else those the grid finds; the same either way.
    static func footpaths(_ network: RoutingNetwork, within distance: Double) -> Footpaths {
        let count = network.stopCount
        // The pairs (a < b), and how many walks each stop has.
        var pairs: [(a: Int32, b: Int32, metres: Float)] = []
        if let stored = network.storedWalks, stored.metres >= distance, let measured = try? measured(stored, network, within: distance) {
            pairs = measured
        } else {
            network.grid.forEachPair(within: distance) { a, b, d in pairs.append((Int32(a), Int32(b), Float(d))) }
        }
        // Laid out by stop through pointers (checked accesses were a fifth of the work).
        var first = [Int32](repeating: 0, count: count + 1)
        var sids = [Int32](repeating: 0, count: 2 * pairs.count)
        var metres = [Float](repeating: 0, count: 2 * pairs.count)
        pairs.withUnsafeBufferPointer { pairs in
            first.withUnsafeMutableBufferPointer { first in
                for (a, b, _) in pairs {
                    first[Int(a) + 1] += 1
                    first[Int(b) + 1] += 1
                }
                for s in 0..<count { first[s + 1] += first[s] }
                var next = Array(first)
                sids.withUnsafeMutableBufferPointer { sids in
                    metres.withUnsafeMutableBufferPointer { metres in
                        for (a, b, d) in pairs {
                            sids[Int(next[Int(a)])] = b
                            metres[Int(next[Int(a)])] = d
                            next[Int(a)] += 1
                            sids[Int(next[Int(b)])] = a
                            metres[Int(next[Int(b)])] = d
                            next[Int(b)] += 1
                        }
                    }
                }
            }
        }
        pairs = []
        return Footpaths(first: first, sids: sids, metres: metres)
    }

    /// The stored pairs of served stops with coordinates at most `distance` metres apart,
    /// with their length: each row's pairs measured as it is decoded (not copied first).
    private static func measured(
        _ stored: RoutingNetwork.StoredWalks, _ network: RoutingNetwork, within distance: Double
    ) throws -> [(a: Int32, b: Int32, metres: Float)] {
        let points = StopWalkGrid.points(latitude: network.stopLatitude, longitude: network.stopLongitude)
        let walkable = (0..<network.stopCount).map { network.serves($0) && !network.stopLatitude[$0].isNaN }
        var pairs: [(a: Int32, b: Int32, metres: Float)] = []
        // Each stored pair takes a byte at least.
        pairs.reserveCapacity(stored.rows.reduce(0) { $0 + $1.walks.count })
        try walkable.withUnsafeBufferPointer { walkable in
            try points.withUnsafeBufferPointer { points in
                for row in stored.rows {
                    let decoded = try PlannerWalksBlob.decode(row.walks, firstSid: row.firstSid, maxSid: network.stopCount - 1)
                    for pair in decoded.pairs {
                        let (a, b) = (Int(pair >> 32), Int(pair & 0xFFFF_FFFF))
                        guard walkable[a], walkable[b] else { continue }
                        let d = GeoDistance.metres(points[a], points[b])
                        if d <= distance { pairs.append((Int32(a), Int32(b), Float(d))) }
                    }
                }
            }
        }
        return pairs
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
