/// The `stop_patterns.entries` column: where a stop appears, as `(pid, idx)` pairs sorted
/// by pid then idx, as varints: pid minus the previous pair's pid (the first: minus 0),
/// then idx. It replaces an index over every pattern stop (about 12 bytes each) with 2 to
/// 4 bytes each.
package enum StopPatternsBlob {
    package struct Occurrence: Hashable, Sendable {
        package var pid: Int
        /// The position of the stop in the pattern, from 0.
        package var idx: Int

        package init(pid: Int, idx: Int) {
            self.pid = pid
            self.idx = idx
        }
    }

    /// Writes `occurrences` sorted by pid, then idx (the order the format needs).
    package static func encode(_ occurrences: [Occurrence]) -> [UInt8] {
        var w = PackedWriter()
        var previous = 0
        for o in occurrences.sorted(by: { ($0.pid, $0.idx) < ($1.pid, $1.idx) }) {
            w.unsigned(o.pid - previous)
            w.unsigned(o.idx)
            previous = o.pid
        }
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws -> [Occurrence] {
        var r = PackedReader(bytes)
        var result: [Occurrence] = []
        // An occurrence takes at least 2 bytes: one allocation, never regrown.
        result.reserveCapacity(bytes.count / 2)
        var pid = 0
        while !r.isAtEnd {
            pid += try r.unsigned()
            result.append(Occurrence(pid: pid, idx: try r.unsigned()))
        }
        return result
    }
}
