import BundleFormat

/// shapes.txt: the points of each shape, read into columns with coordinates as integers
/// (1e-6 degree, `ShapeBlob.e6`). Points are put in order and thinned when the model is built.
enum ShapesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let id = t.column("shape_id")
        let lat = t.column("shape_pt_lat")
        let lon = t.column("shape_pt_lon")
        let sequence = t.column("shape_pt_sequence")
        var points = FeedData.ShapePoints()
        while try t.next() {
            guard let key = t.requiredID(id, "shape_id") else { continue }
            guard let la = FieldParser.double(t.bytes(lat)), let lo = FieldParser.double(t.bytes(lon)),
                (-90...90).contains(la), (-180...180).contains(lo), !(la == 0 && lo == 0)
            else {
                t.warn(
                    .badShapePoint, column: lat, entity: String(decoding: key, as: UTF8.self),
                    message: "shape_pt_lat/shape_pt_lon missing, not a number, out of range or 0,0; point dropped")
                continue
            }
            guard let index = FieldParser.integer(t.bytes(sequence)), index >= 0, index <= Int(Int32.max) else {
                t.warn(
                    .badShapePoint, column: sequence, entity: String(decoding: key, as: UTF8.self),
                    message: "shape_pt_sequence must be a non-negative integer; point dropped")
                continue
            }
            points.shape.append(feed.shapeIDs.intern(key).id)
            points.sequence.append(Int32(index))
            points.latE6.append(Int32(ShapeBlob.e6(la)))
            points.lonE6.append(Int32(ShapeBlob.e6(lo)))
            points.line.append(Int32(clamping: t.line))
        }
        feed.shapePoints = points
    }
}
