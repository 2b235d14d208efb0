import Foundation

/// Great-circle distance on a sphere of the Earth's mean radius.
package enum GeoDistance {
    /// Mean Earth radius in metres (IUGG), as the city lookups specify.
    package static let earthRadius = 6_371_008.8

    /// Haversine distance in metres between two coordinates in degrees.
    package static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        metres(Point(lat1, lon1), Point(lat2, lon2))
    }

    /// A coordinate with its latitude's radians and cosine worked out once, for many
    /// distances from one place: the same bits as `metres(_:_:_:_:)` with two fewer cosines.
    package struct Point: Sendable {
        package let radians: Double
        package let cosine: Double
        package let longitude: Double

        package init(_ latitude: Double, _ longitude: Double) {
            radians = latitude * .pi / 180
            cosine = cos(radians)
            self.longitude = longitude
        }
    }

    /// Haversine distance in metres between two points. Symmetric to the bit: the
    /// differences change sign, which the squared sines drop.
    @inline(__always)
    package static func metres(_ a: Point, _ b: Point) -> Double {
        let dp = b.radians - a.radians
        let dl = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + a.cosine * b.cosine * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }
}
