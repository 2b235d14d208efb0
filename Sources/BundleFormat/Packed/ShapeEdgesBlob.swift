/// The `shapes.edges` column: the edges (`shape_edges`) a shape runs along, in order, each
/// as one signed varint: twice its eid minus the eid before (the first: minus 0), plus 1
/// when the shape runs the edge backwards. Consecutive edges share their end point.
///
/// ```swift
/// let bytes = ShapeEdgesBlob.encode([.init(eid: 7, reversed: false), .init(eid: 8, reversed: true)])
/// ```
package enum ShapeEdgesBlob {
    /// One edge of a shape and the way the shape runs it.
    package struct Step: Hashable, Sendable {
        package var eid: Int
        package var reversed: Bool

        package init(eid: Int, reversed: Bool) {
            self.eid = eid
            self.reversed = reversed
        }
    }

    package static func encode(_ steps: [Step]) -> [UInt8] {
        var w = PackedWriter()
        var previous = 0
        for s in steps {
            w.signed((s.eid - previous) * 2 + (s.reversed ? 1 : 0))
            previous = s.eid
        }
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws -> [Step] {
        var r = PackedReader(bytes)
        var steps: [Step] = []
        steps.reserveCapacity(bytes.count)  // a step takes a byte or more
        var eid = 0
        while !r.isAtEnd {
            let v = try r.signed()
            eid += v >> 1
            guard eid >= 1 else { throw PackedReader.Damaged() }
            steps.append(Step(eid: eid, reversed: v & 1 != 0))
        }
        return steps
    }
}
