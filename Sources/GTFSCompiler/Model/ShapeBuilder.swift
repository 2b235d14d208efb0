import BundleFormat

/// The model's shapes: the points of each shape a kept trip names, ordered by
/// shape_pt_sequence, a point repeated at once kept once (`ShapeNetwork` splits and thins
/// them for the bundle). A sequence given twice keeps its
/// first row; a shape left with fewer than two points, or named by trips.txt but absent
/// from shapes.txt, is reported and its trips are drawn through their stops.
struct ShapeBuilder {
    let feed: FeedData
    let log: DiagnosticLog
    /// Row indexes of shapes.txt grouped by local shape id.
    private var rows: [[Int32]]

    init(feed: FeedData, log: DiagnosticLog) {
        self.feed = feed
        self.log = log
        var rows = [[Int32]](repeating: [], count: feed.shapeIDs.count)
        let points = feed.shapePoints
        for row in 0..<points.count { rows[Int(points.shape[row])].append(Int32(row)) }
        self.rows = rows
    }

    /// The points of local shape `shape`, nil (reported once, naming `tripLine`'s
    /// trip) when it has fewer than two usable points.
    func points(of shape: Int32, tripID: String, tripLine: Int) -> [ShapeBlob.Point]? {
        let columns = feed.shapePoints
        let shapeID = feed.shapeIDs.string(shape)
        let ordered = rows[Int(shape)].sorted { (columns.sequence[Int($0)], $0) < (columns.sequence[Int($1)], $1) }
        var points: [ShapeBlob.Point] = []
        points.reserveCapacity(ordered.count)
        var previous: Int32?
        for row in ordered.map(Int.init) {
            if let previous, columns.sequence[row] == columns.sequence[Int(previous)] {
                log.add(
                    Diagnostic(
                        .badShapePoint, feed: feed.name, file: "shapes.txt", line: Int(columns.line[row]), field: "shape_pt_sequence",
                        entityID: shapeID, value: String(columns.sequence[row]),
                        message: "shape_pt_sequence given twice for the shape (line \(columns.line[Int(previous)])); point dropped"))
                continue
            }
            previous = Int32(row)
            let point = ShapeBlob.Point(latE6: Int(columns.latE6[row]), lonE6: Int(columns.lonE6[row]))
            if point != points.last { points.append(point) }
        }
        guard points.count >= 2 else {
            if ordered.isEmpty {
                log.add(
                    Diagnostic(
                        .unknownReference, feed: feed.name, file: "trips.txt", line: tripLine, field: "shape_id", entityID: tripID,
                        value: shapeID, message: "shape_id names no shape in shapes.txt; its trips are drawn through their stops"))
            } else {
                log.add(
                    Diagnostic(
                        .badShapePoint, feed: feed.name, file: "shapes.txt", line: Int(columns.line[Int(ordered[0])]),
                        field: "shape_id", entityID: shapeID, value: shapeID,
                        message: "the shape has fewer than two usable points; its trips are drawn through their stops"))
            }
            return nil
        }
        return points
    }
}
