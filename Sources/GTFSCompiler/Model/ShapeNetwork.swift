import BundleFormat

/// Splits the model's shapes into the edges they share, so that a stretch of street or
/// track that many shapes run along (both ways) is stored once: the points of all shapes
/// form a graph, and a point is a junction where a shape starts or ends or where its
/// neighbours are not exactly two. The points between two junctions are an edge; every
/// shape is the chain of its edges, and each distinct edge is thinned
/// (`ShapeSimplifier`) with its end points kept. On wmata 173,486 shape points are 2,329
/// distinct points.
///
/// Edge ids (eids) follow the order edges are first met in the model's shapes.
enum ShapeNetwork {
    static func split(_ model: inout BundleModel) {
        guard !model.shapes.isEmpty else { return }
        var nodeOf: [ShapeBlob.Point: Int32] = [:]
        var points: [ShapeBlob.Point] = []
        var neighbours: [[Int32]] = []
        var isJunction: [Bool] = []
        func node(_ p: ShapeBlob.Point) -> Int32 {
            if let n = nodeOf[p] { return n }
            let n = Int32(points.count)
            nodeOf[p] = n
            points.append(p)
            neighbours.append([])
            isJunction.append(false)
            return n
        }
        func link(_ a: Int32, _ b: Int32) {
            // Three neighbours already make a junction; more are not needed.
            if neighbours[Int(a)].count < 3 && !neighbours[Int(a)].contains(b) { neighbours[Int(a)].append(b) }
        }
        let paths = model.shapes.map { shape in shape.points.map(node) }
        for path in paths {
            isJunction[Int(path[0])] = true
            isJunction[Int(path[path.count - 1])] = true
            for (a, b) in zip(path, path.dropFirst()) {
                link(a, b)
                link(b, a)
            }
        }
        for n in neighbours.indices where neighbours[n].count != 2 { isJunction[n] = true }

        var eidOf: [[Int32]: Int] = [:]
        for (s, path) in paths.enumerated() {
            var steps: [ShapeEdgesBlob.Step] = []
            var start = 0
            for i in 1..<path.count where isJunction[Int(path[i])] {
                let piece = Array(path[start...i])
                let backwards = Array(piece.reversed())
                let reversed = backwards.lexicographicallyPrecedes(piece)
                let key = reversed ? backwards : piece
                let eid: Int
                if let known = eidOf[key] {
                    eid = known
                } else {
                    model.shapeEdges.append(ShapeSimplifier.simplify(key.map { points[Int($0)] }))
                    eid = model.shapeEdges.count
                    eidOf[key] = eid
                }
                steps.append(.init(eid: eid, reversed: reversed))
                start = i
            }
            model.shapes[s].edges = steps
        }
    }
}
