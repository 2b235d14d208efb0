import Foundation

/// The great-circle distance the tests compare nearby-stop answers with, written apart from
/// the runtime's: the haversine formula on a sphere of radius 6,371,008.8 m.
public enum PlainDistance {
    public static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * r / 2), 2) + cos(lat1 * r) * cos(lat2 * r) * pow(sin((lon2 - lon1) * r / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(a)))
    }
}

extension PlainDistance {
    /// The distance from a point to the great-circle segment from `a` to `b`, by the
    /// cross-track and along-track formulas of spherical navigation (bearings and angular
    /// distances), written apart from the compiler's vector geometry.
    public static func metres(
        _ lat: Double, _ lon: Double, toSegmentFrom a: (lat: Double, lon: Double), to b: (lat: Double, lon: Double)
    ) -> Double {
        let radius = 6_371_008.8
        let toA = metres(a.lat, a.lon, lat, lon)
        let length = metres(a.lat, a.lon, b.lat, b.lon)
        guard length > 0 else { return toA }
        let turn = bearing(a, (lat, lon)) - bearing(a, b)
        // Behind the start: the start is nearest.
        if cos(turn) < 0 { return toA }
        let crossTrack = asin(max(-1, min(1, sin(toA / radius) * sin(turn))))
        let alongTrack = acos(max(-1, min(1, cos(toA / radius) / cos(crossTrack)))) * radius
        if alongTrack > length { return metres(b.lat, b.lon, lat, lon) }
        return abs(crossTrack) * radius
    }

    /// The initial bearing from `a` to `b`, radians.
    private static func bearing(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let r = Double.pi / 180
        let dLon = (b.lon - a.lon) * r
        return atan2(sin(dLon) * cos(b.lat * r), cos(a.lat * r) * sin(b.lat * r) - sin(a.lat * r) * cos(b.lat * r) * cos(dLon))
    }

    /// The distance from a point to a line of points, looking first at the segments around
    /// `near` (points of a shape follow the line) and at every segment when none of those is
    /// within `within` metres. Returns the distance and the nearest segment's index.
    public static func metres(
        _ lat: Double, _ lon: Double, toLine line: [(lat: Double, lon: Double)], near: Int, within: Double
    ) -> (metres: Double, segment: Int) {
        guard line.count > 1 else { return (line.first.map { metres($0.lat, $0.lon, lat, lon) } ?? .infinity, 0) }
        func search(_ range: Range<Int>) -> (Double, Int) {
            var best = (Double.infinity, 0)
            for i in range {
                let d = metres(lat, lon, toSegmentFrom: line[i], to: line[i + 1])
                if d < best.0 { best = (d, i) }
            }
            return best
        }
        let local = search(max(0, near - 3)..<min(line.count - 1, near + 40))
        if local.0 <= within { return local }
        return search(0..<(line.count - 1))
    }
}
