import BundleFormat
import Foundation

/// k-nearest search over the one-degree `city_cells` grid: squares of cells around the
/// point grow (1, 3, 5, 9, 17 ... cells wide) until the k-th best distance is no more
/// than a lower bound on the distance to anything outside the square.
struct NearestCitySearch {
    struct Hit {
        let cid: Int
        let distance: Double
    }

    let lat: Double
    let lon: Double
    let limit: Int

    /// `fetch(firstCell, lastCell)` returns the cities of a contiguous cell range.
    func run(fetch: (Int, Int) throws -> [(cid: Int, lat: Double, lon: Double)]) throws -> [Hit] {
        let row0 = min(179, Int((lat + 90).rounded(.down)))
        let column0 = min(359, Int((lon + 180).rounded(.down)))
        var hits: [Hit] = []
        var radius = 0
        var previous = -1
        while true {
            for row in max(0, row0 - radius)...min(179, row0 + radius) {
                let inPrevious = previous >= 0 && abs(row - row0) <= previous
                for (first, last) in columnRanges(center: column0, radius: radius, skipping: inPrevious ? previous : -1) {
                    for city in try fetch(BundleSchema.cityCell(row: row, column: first), BundleSchema.cityCell(row: row, column: last)) {
                        hits.append(Hit(cid: city.cid, distance: GeoDistance.metres(lat, lon, city.lat, city.lon)))
                    }
                }
            }
            hits.sort { ($0.distance, $0.cid) < ($1.distance, $1.cid) }
            let coversGlobe = row0 - radius <= 0 && row0 + radius >= 179 && 2 * radius + 1 >= 360
            if coversGlobe
                || (hits.count >= limit && hits[limit - 1].distance <= outsideBound(row0: row0, column0: column0, radius: radius))
            {
                return Array(hits.prefix(limit))
            }
            previous = radius
            radius = radius == 0 ? 1 : radius * 2
        }
    }

    /// Column ranges (wrapping at 360) covering center ± radius, minus center ± skipping.
    private func columnRanges(center: Int, radius: Int, skipping: Int) -> [(Int, Int)] {
        if skipping < 0 { return wrap(center - radius, center + radius) }
        if 2 * skipping + 1 >= 360 { return [] }
        if 2 * radius + 1 >= 360 { return wrap(center + skipping + 1, center - skipping - 1 + 360) }
        return wrap(center - radius, center - skipping - 1) + wrap(center + skipping + 1, center + radius)
    }

    /// Splits a column range that may pass 0 or 359 into in-range pieces.
    private func wrap(_ first: Int, _ last: Int) -> [(Int, Int)] {
        guard first <= last else { return [] }
        if last - first + 1 >= 360 { return [(0, 359)] }
        let a = ((first % 360) + 360) % 360
        let b = ((last % 360) + 360) % 360
        return a <= b ? [(a, b)] : [(a, 359), (0, b)]
    }

    /// Metres from the point to the nearest place outside the searched square.
    private func outsideBound(row0: Int, column0: Int, radius: Int) -> Double {
        let degrees = Double.pi / 180
        let r = GeoDistance.earthRadius
        var bound = Double.infinity
        let north = Double(row0 + radius + 1) - 90
        let south = Double(row0 - radius) - 90
        if north < 90 { bound = min(bound, (north - lat) * degrees * r) }
        if south > -90 { bound = min(bound, (lat - south) * degrees * r) }
        if 2 * radius + 1 < 360 {
            let east = Double(column0 + radius + 1) - 180 - lon
            let west = lon - (Double(column0 - radius) - 180)
            for delta in [east, west] {
                let toMeridian = delta < 90 ? asin(min(1, sin(delta * degrees) * cos(lat * degrees))) : (90 - abs(lat)) * degrees
                bound = min(bound, toMeridian * r)
            }
        }
        return max(0, bound)
    }
}
