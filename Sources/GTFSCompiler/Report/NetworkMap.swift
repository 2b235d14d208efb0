import BundleFormat

/// What the report's map draws: the bundle's stops and each shape as one line in its route's
/// colour, in degrees, thinned to fit a page (at most `maximumStops` stops and
/// `maximumPoints` shape points in all, every shape keeping its ends).
///
/// ```swift
/// let map = report.facts?.map
/// print(map?.shapes.count ?? 0, "shapes")
/// ```
public struct NetworkMap: Sendable, Encodable, Equatable {
    /// One shape: its feed and id, its route's colour (hex, nil when the feed gives none),
    /// and its points as [latitude, longitude].
    public struct Line: Sendable, Encodable, Equatable {
        /// The feed's id in the bundle.
        public let feed: String
        /// The shape's id in its feed.
        public let shapeID: String
        /// Its route's colour, six hex digits, nil when the feed gives none.
        public let color: String?
        /// Its points as [latitude, longitude], thinned.
        public let points: [[Double]]

        private enum CodingKeys: String, CodingKey {
            case feed
            case shapeID = "shape_id"
            case color, points
        }
    }

    /// [south, west, north, east] of the stops and shapes, nil when there is nothing to draw.
    public let bounds: [Double]?
    /// Stops (and stations) with a position, as [latitude, longitude].
    public let stops: [[Double]]
    /// The stops the feeds have, before any thinning.
    public let stopCount: Int
    /// One line per shape a kept trip follows.
    public let shapes: [Line]

    /// The most stops drawn (every n-th beyond it).
    public static let maximumStops = 40_000
    /// The most shape points drawn, all shapes together.
    public static let maximumPoints = 120_000

    init(model: BundleModel) {
        let feedOf = Dictionary(model.feeds.map { ($0.fid, $0.feedID) }, uniquingKeysWith: { a, _ in a })
        let placed = model.stops.compactMap { stop -> [Double]? in
            guard let lat = stop.record.lat, let lon = stop.record.lon, (-90...90).contains(lat), (-180...180).contains(lon) else {
                return nil
            }
            return [Self.round(lat), Self.round(lon)]
        }
        let stride = max(1, (placed.count + Self.maximumStops - 1) / Self.maximumStops)
        stops = placed.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
        stopCount = placed.count
        var colorOfShape: [Int: String] = [:]
        let colorOfRoute = Dictionary(model.routes.map { ($0.rid, $0.record.color) }, uniquingKeysWith: { a, _ in a })
        for trip in model.trips {
            guard let shp = trip.shp, colorOfShape[shp] == nil, let color = colorOfRoute[trip.rid] ?? nil else { continue }
            colorOfShape[shp] = color
        }
        let perShape = max(2, Self.maximumPoints / max(1, model.shapes.count))
        shapes = model.shapes.map { shape in
            let points = shape.points
            let step = max(1, (points.count + perShape - 1) / perShape)
            var kept = points.enumerated().filter { $0.offset % step == 0 }.map(\.element)
            if let last = points.last, kept.last != last { kept.append(last) }
            return Line(
                feed: feedOf[shape.fid] ?? "", shapeID: shape.shapeID, color: colorOfShape[shape.shp],
                points: kept.map { [Double($0.latE6) / 1e6, Double($0.lonE6) / 1e6] })
        }
        var south = 90.0
        var west = 180.0
        var north = -90.0
        var east = -180.0
        for point in stops + shapes.flatMap(\.points) {
            south = min(south, point[0])
            north = max(north, point[0])
            west = min(west, point[1])
            east = max(east, point[1])
        }
        bounds = south <= north ? [south, west, north, east] : nil
    }

    /// Five decimals: about a metre, and a short page.
    private static func round(_ degrees: Double) -> Double { (degrees * 1e5).rounded() / 1e5 }

    private enum CodingKeys: String, CodingKey {
        case bounds, stops
        case stopCount = "stop_count"
        case shapes
    }
}
