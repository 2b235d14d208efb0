/// Stop coordinates as the bundle keeps them, and the grid of the `stops_by_cell` index.
///
/// Coordinates are integers in units of 1e-7 degree (`lat_e7`, `lon_e7`): about 1 cm, and
/// four bytes each. The grid's cells are 0.008 degree of latitude (890 m) by 0.002 degree of
/// longitude (220 m at the equator, 150 m at 48°), numbered row by row: row = lat_e7 /
/// `rowHeight` and column = lon_e7 / `columnWidth` in SQL's integer division (toward zero,
/// so the row and the column at zero are twice as wide), cell = row × `rowWidth` + column
/// + `columnOffset`. Tall rows make few ranges per search (one per row), narrow columns
/// keep each range close to the box; every cell number fits in four bytes. The index is
/// over that expression (`cellSQL`), so a query spells it the same way.
///
/// ```swift
/// let ranges = StopGrid.cellRanges(minLat: 48.57, maxLat: 48.59, minLon: 7.73, maxLon: 7.76)
/// // one closed range of cells per grid row of the box
/// ```
package enum StopGrid {
    /// Units of 1e-7 degree per grid row (0.008 degree).
    package static let rowHeight = 80_000
    /// Units of 1e-7 degree per grid column (0.002 degree).
    package static let columnWidth = 20_000
    /// Added to a column to make it 0 ... 180,000.
    package static let columnOffset = 90_000
    /// Cell numbers per grid row.
    package static let rowWidth = 180_001

    /// The SQL expression `stops_by_cell` indexes, over `lat_e7` and `lon_e7`.
    package static let cellSQL = "(lat_e7 / 80000) * 180001 + lon_e7 / 20000 + 90000"

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
    private static func row(_ latE7: Int) -> Int { latE7 / rowHeight }
    private static func column(_ lonE7: Int) -> Int { lonE7 / columnWidth }
}
