/// The order in which a feed's new stops take their integer ids (sids): along a Hilbert
/// curve over the whole Earth, so stops near each other get near ids.
///
/// The journey planner keeps its labels in arrays indexed by sid and, after each round,
/// walks from every stop it reached to the stops around it; a route's stops and a stop's
/// walks then read neighbouring parts of those arrays instead of places scattered over
/// them (a large network's arrays are megabytes). The
/// patterns' sids, stored as differences, also shrink.
///
/// The curve runs over a grid of 2^24 x 2^24 cells (about 2.4 m wide at the equator), the
/// same for every feed, so one far-away stop does not coarsen the others. A stop without
/// coordinates (a node or boarding area may have none) takes its parent's, or its
/// grandparent's; stops with none at all come last. Ties, and those last stops, keep the
/// byte order of their stop_id, so the order is deterministic.
enum StopOrder {
    /// Bits per axis of the grid.
    static let bits = 24

    /// The feed's stops (local indexes) in the order they take ids.
    static func spatial(_ feed: FeedData) -> [Int32] {
        let byText = feed.stopIDs.idsInByteOrder()
        var keys = [UInt64](repeating: .max, count: feed.stops.count)
        for local in feed.stops.indices {
            var stop = feed.stops[local]
            // Own coordinates, else the parent's, else the grandparent's.
            for _ in 0..<2 where stop.lat == nil || stop.lon == nil {
                guard stop.parent >= 0 else { break }
                stop = feed.stops[Int(stop.parent)]
            }
            if let lat = stop.lat, let lon = stop.lon { keys[local] = key(latitude: lat, longitude: lon) }
        }
        // The standard library's sort is stable: stops of one key stay in text order.
        return byText.sorted { keys[Int($0)] < keys[Int($1)] }
    }

    /// The position of a coordinate along the curve (latitude -90...90, longitude
    /// -180...180; values outside are clamped to the grid's edge).
    static func key(latitude: Double, longitude: Double) -> UInt64 {
        let side = Double(1 << bits)
        let x = UInt64(min(side - 1, max(0, ((longitude + 180) / 360 * side).rounded(.down))))
        let y = UInt64(min(side - 1, max(0, ((latitude + 90) / 180 * side).rounded(.down))))
        return hilbertIndex(x: x, y: y)
    }

    /// The index of cell (x, y) along the Hilbert curve that fills a grid of 2^`bits` x
    /// 2^`bits` cells: from the largest quadrant down, add the cells of the quadrants the
    /// curve passes first, then turn the frame so the chosen quadrant is walked like the
    /// whole square.
    static func hilbertIndex(x: UInt64, y: UInt64, bits: Int = Self.bits) -> UInt64 {
        let last = (UInt64(1) << UInt64(bits)) - 1
        var (x, y) = (x & last, y & last)
        var index: UInt64 = 0
        var half = UInt64(1) << UInt64(bits - 1)
        while half > 0 {
            let right: UInt64 = x & half != 0 ? 1 : 0
            let up: UInt64 = y & half != 0 ? 1 : 0
            index += half * half * ((3 * right) ^ up)
            if up == 0 {
                if right == 1 {
                    x = last - x
                    y = last - y
                }
                (x, y) = (y, x)
            }
            half >>= 1
        }
        return index
    }
}
