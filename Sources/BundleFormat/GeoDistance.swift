import Foundation

/// Great-circle distance on a sphere of the Earth's mean radius.
package enum GeoDistance {
    /// Mean Earth radius in metres (IUGG), as the city lookups specify.
    package static let earthRadius = 6_371_008.8

    /// Haversine distance in metres between two coordinates in degrees.
    package static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p1 = lat1 * .pi / 180
        let p2 = lat2 * .pi / 180
        let dp = p2 - p1
        let dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }
}
