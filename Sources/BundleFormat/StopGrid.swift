/// Stop coordinates as the bundle keeps them, and the grid of the `stops_by_cell` index.
///
/// Coordinates are integers in units of 1e-7 degree (`lat_e7`, `lon_e7`): about 1 cm, and
/// four bytes each. The grid has squares of 0.004 degree (`cellSize` units; 445 m north to
/// south), numbered row by row: row = lat_e7 / `cellSize` and column = lon_e7 / `cellSize`
/// in SQL's integer division (toward zero, so the row and the column at zero are twice as
/// wide), cell = row × `rowWidth` + column + `columnOffset`. Every cell number fits in four
/// bytes. The index is over that expression (`cellSQL`), so a query spells it the same way.
///
/// ```swift
/// let ranges = StopGrid.cellRanges(minLat: 48.57, maxLat: 48.59, minLon: 7.73, maxLon: 7.76)
/// // one closed range of cells per grid row of the box
/// ```
package enum StopGrid {
    /// Units of 1e-7 degree per grid square (0.004 degree).
    package static let cellSize = 40_000
    /// Added to a column to make it 0 ... 90,000.
    package static let columnOffset = 45_000
    /// Cell numbers per grid row.
    package static let rowWidth = 90_001

    /// The SQL expression `stops_by_cell` indexes, over `lat_e7` and `lon_e7`.
    package static let cellSQL = "(lat_e7 / 40000) * 90001 + lon_e7 / 40000 + 45000"

    /// A coordinate in units of 1e-7 degree, rounded to the nearest.
    package static func e7(_ degrees: Double) -> Int { Int((degrees * 10_000_000).rounded()) }

    /// A stored coordinate back in degrees (exact for coordinates given with at most seven decimals).
    package static func degrees(_ e7: Int) -> Double { Double(e7) / 10_000_000 }

    /// The cell of a coordinate, as `cellSQL` computes it.
    package static func cell(latE7: Int, lonE7: Int) -> Int {
        row(latE7) * rowWidth + column(lonE7) + columnOffset
    }

    /// The cells a box of degrees touches: one closed range per grid row, south to north.
    package static func cellRanges(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double) -> [ClosedRange<Int>] {
        let clampLat = { (v: Double) in min(900_000_000, max(-900_000_000, e7(v))) }
        let clampLon = { (v: Double) in min(1_800_000_000, max(-1_800_000_000, e7(v))) }
        let west = column(clampLon(minLon))
        let east = column(clampLon(maxLon))
        let south = row(clampLat(minLat))
        let north = row(clampLat(maxLat))
        guard south <= north, west <= east else { return [] }
        return (south...north).map { $0 * rowWidth + west + columnOffset...$0 * rowWidth + east + columnOffset }
    }

    // Swift's integer division truncates toward zero, as SQLite's does.
    private static func row(_ latE7: Int) -> Int { latE7 / cellSize }
    private static func column(_ lonE7: Int) -> Int { lonE7 / cellSize }
}
