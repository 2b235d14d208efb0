import BundleFormat
import Foundation

/// Thins a shape's points (Douglas-Peucker on the sphere): the first and the last point are
/// kept and, between two kept points, the one farthest from the great-circle arc joining
/// them is kept too while it lies more than `tolerance` metres from that arc. Every dropped
/// point therefore lies within `tolerance` of the arc between the kept points around it;
/// points on a straight track add nothing and go.
///
/// ```swift
/// let kept = ShapeSimplifier.simplify(points, tolerance: 0.5)
/// ```
enum ShapeSimplifier {
    /// The bundle's tolerance, metres: under the 1 m every input point must stay within,
    /// with room for the 8 cm of rounding to 1e-6 degree.
    static let tolerance = 0.85

    static func simplify(_ points: [ShapeBlob.Point], tolerance: Double = tolerance) -> [ShapeBlob.Point] {
        guard points.count > 2 else { return points }
        let vectors = points.map(UnitVector.init)
        let limit = tolerance / GeoDistance.earthRadius
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var spans = [(0, points.count - 1)]
        while let (from, to) = spans.popLast() {
            guard to - from > 1 else { continue }
            var farthest = from
            var distance = -1.0
            for i in (from + 1)..<to {
                let d = vectors[i].angle(toArcFrom: vectors[from], to: vectors[to])
                if d > distance {
                    distance = d
                    farthest = i
                }
            }
            if distance > limit {
                keep[farthest] = true
                spans.append((from, farthest))
                spans.append((farthest, to))
            }
        }
        return zip(points, keep).compactMap { $1 ? $0 : nil }
    }

    /// A point on the unit sphere.
    struct UnitVector {
        var x, y, z: Double

        init(x: Double, y: Double, z: Double) {
            self.x = x
            self.y = y
            self.z = z
        }

        init(_ p: ShapeBlob.Point) {
            let lat = Double(p.latE6) / 1_000_000 * .pi / 180
            let lon = Double(p.lonE6) / 1_000_000 * .pi / 180
            self.init(x: cos(lat) * cos(lon), y: cos(lat) * sin(lon), z: sin(lat))
        }

        func dot(_ o: UnitVector) -> Double { x * o.x + y * o.y + z * o.z }

        func cross(_ o: UnitVector) -> UnitVector {
            UnitVector(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
        }

        var length: Double { (x * x + y * y + z * z).squareRoot() }

        /// The angle to `o`, radians (atan2 keeps it exact for points centimetres apart).
        func angle(to o: UnitVector) -> Double { atan2(cross(o).length, dot(o)) }

        /// The angle to the nearest point of the shorter great-circle arc from `a` to `b`.
        func angle(toArcFrom a: UnitVector, to b: UnitVector) -> Double {
            let normal = a.cross(b)
            let size = normal.length
            // The same point twice (or antipodes, which no shape has): no arc, only a point.
            guard size > 1e-15 else { return angle(to: a) }
            // Inside the arc when the point lies between the planes through a and b that
            // are perpendicular to it: then the distance is to the great circle itself.
            if a.cross(self).dot(normal) >= 0 && cross(b).dot(normal) >= 0 {
                return asin(min(1, abs(dot(normal)) / size))
            }
            return min(angle(to: a), angle(to: b))
        }
    }
}
