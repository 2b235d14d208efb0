import Foundation

/// Stops by cells of 0.01 degree (about 1 km), for what is within walking distance: the
/// planner's walks between stops, worked out by the compiler into `planner_walks` and by
/// the runtime for a bundle without them, and a journey's walks from and to a point.
///
/// ```swift
/// let grid = StopWalkGrid(latitude: latitudes, longitude: longitudes) { served[$0] }
/// grid.forEachPair(within: 400) { a, b, metres in print(a, b, metres) }
/// ```
package struct StopWalkGrid: Sendable {
    package static let cellDegrees = 0.01

    /// By sid, NaN for a stop without coordinates.
    package let latitude: [Double]
    package let longitude: [Double]
    /// The included stops of each cell, by sid.
    private let cells: [Int: [Int32]]

    /// The stops (sids 1 and up) with coordinates that `includes` accepts.
    package init(latitude: [Double], longitude: [Double], includes: (Int) -> Bool) {
        self.latitude = latitude
        self.longitude = longitude
        var cells: [Int: [Int32]] = [:]
        for sid in 1..<max(1, latitude.count) where !latitude[sid].isNaN && includes(sid) {
            cells[Self.cell(latitude[sid], longitude[sid]), default: []].append(Int32(sid))
        }
        self.cells = cells
    }

    /// The cell of a coordinate.
    static func cell(_ latitude: Double, _ longitude: Double) -> Int {
        let row = Int((latitude / cellDegrees).rounded(.down))
        let column = Int((longitude / cellDegrees).rounded(.down))
        return row &* 100_000 &+ column
    }

    /// Calls `body` with every included stop above sid `above` that may be within `radius`
    /// metres of a point: all that are, and a few a little farther (the caller measures).
    @inline(__always)
    package func forEachCandidate(near latitude: Double, _ longitude: Double, within radius: Double, above: Int = 0, _ body: (Int) -> Void)
    {
        guard !latitude.isNaN, radius >= 0 else { return }
        // The box around the circle (a degree of latitude is at least 111 km; a degree of
        // longitude at least its cosine at the box's edge nearer the pole), and the cells it
        // touches: no margin beyond it (a cell of margin on each side read four times the
        // stops for a 400 m walk).
        let latitudeSpan = radius / 111_000
        let cosine = max(0.01, cos(min(89, abs(latitude) + latitudeSpan) * .pi / 180))
        let longitudeSpan = radius / (111_000 * cosine)
        let rows =
            Int(
                ((latitude - latitudeSpan) / Self.cellDegrees).rounded(.down))...Int(
                ((latitude + latitudeSpan) / Self.cellDegrees).rounded(.down))
        let columns =
            Int(
                ((longitude - longitudeSpan) / Self.cellDegrees).rounded(.down))...Int(
                ((longitude + longitudeSpan) / Self.cellDegrees).rounded(.down))
        for row in rows {
            for column in columns {
                guard let cell = cells[row &* 100_000 &+ column] else { continue }
                // A cell's stops are in sid order: those above `above` from the first one.
                var (low, high) = (0, cell.count)
                while low < high {
                    let mid = (low + high) / 2
                    if Int(cell[mid]) <= above { low = mid + 1 } else { high = mid }
                }
                for sid in cell[low...] {
                    let s = Int(sid)
                    // A flat-Earth estimate (within 1 % at these distances) skips the far ones.
                    let dy = (self.latitude[s] - latitude) * 111_195
                    let dx = (self.longitude[s] - longitude) * 111_195 * cosine
                    if dx * dx + dy * dy > radius * radius * 1.05 + 100 { continue }
                    body(s)
                }
            }
        }
    }

    /// Calls `body` with every pair of included stops a < b at most `distance` metres
    /// apart and their distance (`GeoDistance` between the two `Point`s, the same to the
    /// bit from either end), by a, each a's b in the grid's order.
    package func forEachPair(within distance: Double, _ body: (_ a: Int, _ b: Int, _ metres: Double) -> Void) {
        let points = Self.points(latitude: latitude, longitude: longitude)
        for a in 1..<max(1, latitude.count) {
            let here = points[a]
            forEachCandidate(near: latitude[a], longitude[a], within: distance, above: a) { b in
                let d = GeoDistance.metres(here, points[b])
                if d <= distance { body(a, b, d) }
            }
        }
    }

    /// Each stop's coordinate with its latitude's cosine worked out once (a zero point for
    /// a stop without coordinates).
    package static func points(latitude: [Double], longitude: [Double]) -> [GeoDistance.Point] {
        (0..<latitude.count).map { sid in
            latitude[sid].isNaN ? GeoDistance.Point(0, 0) : GeoDistance.Point(latitude[sid], longitude[sid])
        }
    }
}
