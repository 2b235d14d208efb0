/// The `shape_edges.points` column: an edge's points in order, coordinates in units of
/// 1e-6 degree (`e6`: at most 8 cm from the input, three bits a coordinate fewer than
/// 1e-7). The first point as two zigzag varints, then each point minus the one before,
/// zigzag-mapped and Rice-coded in a bit stream (low bits first), one parameter for
/// latitudes and one for longitudes, chosen per edge as the shortest:
///
///     count  lat_0  lon_0  k_lat  k_lon  bits...
///
/// A value v with k: v >> k ones, a zero, then the k low bits of v; when v >> k is 31 or
/// more, 31 ones and then v in 33 bits. Points a few tens of metres apart take about three
/// bytes, against four as varints.
///
/// ```swift
/// let bytes = ShapeBlob.encode([.init(latE6: 48_573_400, lonE6: 7_752_100)])
/// let points = try ShapeBlob.decode(bytes)
/// ```
package enum ShapeBlob {
    /// A coordinate in units of 1e-6 degree, rounded to the nearest.
    package static func e6(_ degrees: Double) -> Int { Int((degrees * 1_000_000).rounded()) }

    /// One point of a shape, in units of 1e-6 degree.
    package struct Point: Hashable, Sendable {
        package var latE6: Int
        package var lonE6: Int

        package init(latE6: Int, lonE6: Int) {
            self.latE6 = latE6
            self.lonE6 = lonE6
        }
    }

    private static let escape = 31

    package static func encode(_ points: [Point]) -> [UInt8] {
        var w = PackedWriter()
        w.unsigned(points.count)
        guard let first = points.first else { return w.bytes }
        w.unsigned(zigzag(first.latE6))
        w.unsigned(zigzag(first.lonE6))
        let steps = zip(points, points.dropFirst()).map { (zigzag($1.latE6 - $0.latE6), zigzag($1.lonE6 - $0.lonE6)) }
        let kLat = bestParameter(steps.map(\.0))
        let kLon = bestParameter(steps.map(\.1))
        w.unsigned(kLat)
        w.unsigned(kLon)
        var bits = BitWriter()
        for (lat, lon) in steps {
            rice(lat, kLat, &bits)
            rice(lon, kLon, &bits)
        }
        w.append(contentsOf: bits.finish())
        return w.bytes
    }

    /// - Throws: `PackedReader.Damaged` for a cut or overlong value, a count the bytes
    ///   cannot hold, or a coordinate off the globe.
    package static func decode(_ bytes: [UInt8]) throws -> [Point] {
        var points: [Point] = []
        try decode(bytes, into: &points)
        return points
    }

    /// `decode(_:)` onto the end of `points`.
    static func decode(_ bytes: [UInt8], into points: inout [Point]) throws {
        var r = PackedReader(bytes)
        let count = try r.unsigned()
        guard count > 0 else { return }
        var p = Point(latE6: try unzigzag(r.unsigned64()), lonE6: try unzigzag(r.unsigned64()))
        let kLat = try r.unsigned()
        let kLon = try r.unsigned()
        guard kLat <= 32, kLon <= 32 else { throw PackedReader.Damaged() }
        var bits = BitReader(bytes, byteOffset: r.offset)
        // Every step takes at least two bits.
        guard count - 1 <= bits.remaining / 2 else { throw PackedReader.Damaged() }
        if points.capacity < points.count + count { points.reserveCapacity(max(points.count + count, 2 * points.capacity)) }
        try check(p)
        points.append(p)
        for _ in 1..<count {
            p.latE6 += try unzigzag(UInt64(unrice(kLat, &bits)))
            p.lonE6 += try unzigzag(UInt64(unrice(kLon, &bits)))
            try check(p)
            points.append(p)
        }
    }

    /// Edges by eid in the rows of `shape_edges`: 32 to a row, from 1 + a multiple of 32,
    /// each as its byte count (a varint) and its `encode`d points. Rows of a few kilobytes
    /// fill the bundle's pages where an edge a row left a quarter of them empty.
    package static let edgesPerRow = 32

    /// The `first_eid` of the row holding `eid`.
    package static func firstEid(holding eid: Int) -> Int { (eid - 1) / edgesPerRow * edgesPerRow + 1 }

    /// One row: `edges` from its `first_eid` on, consecutive.
    package static func encodeRow(_ edges: [[Point]]) -> [UInt8] {
        var w = PackedWriter()
        for edge in edges {
            let bytes = encode(edge)
            w.unsigned(bytes.count)
            w.append(contentsOf: bytes)
        }
        return w.bytes
    }

    /// A decoded row: the points of its edges one after the other.
    package struct Row: Sendable {
        package private(set) var points: [Point] = []
        /// Where each edge's points start in `points`, then where the last one ends.
        private var starts: [Int] = [0]

        /// A row without edges.
        package init() {}

        /// The number of edges.
        package var count: Int { starts.count - 1 }

        /// Where edge `i` (from the row's first, 0) lies in `points`.
        package func range(ofEdge i: Int) -> Range<Int> { starts[i]..<starts[i + 1] }

        /// Decodes an edge's bytes onto the end of `points`.
        mutating func appendEdge(decoding bytes: [UInt8]) throws {
            try ShapeBlob.decode(bytes, into: &points)
            starts.append(points.count)
        }
    }

    package static func decodeRow(_ bytes: [UInt8]) throws -> Row {
        var r = PackedReader(bytes)
        var row = Row()
        while !r.isAtEnd {
            guard row.count < edgesPerRow else { throw PackedReader.Damaged() }
            try row.appendEdge(decoding: Array(r.bytes(r.unsigned())))
        }
        return row
    }

    private static func check(_ p: Point) throws {
        guard abs(p.latE6) <= 90_000_000, abs(p.lonE6) <= 180_000_000 else { throw PackedReader.Damaged() }
    }

    private static func zigzag(_ value: Int) -> Int { value >= 0 ? value << 1 : ((-value) << 1) - 1 }

    private static func unzigzag(_ v: UInt64) throws -> Int {
        guard v < 1 << 33 else { throw PackedReader.Damaged() }
        return v & 1 == 0 ? Int(v >> 1) : -Int(v >> 1) - 1
    }

    /// The k that codes `values` in the fewest bits.
    private static func bestParameter(_ values: [Int]) -> Int {
        var best = 0
        var bestBits = Int.max
        for k in 0...32 {
            var total = 0
            for v in values { total += v >> k >= escape ? escape + 33 : (v >> k) + 1 + k }
            if total < bestBits {
                bestBits = total
                best = k
            }
        }
        return best
    }

    private static func rice(_ v: Int, _ k: Int, _ bits: inout BitWriter) {
        let q = v >> k
        if q >= escape {
            bits.write(ones: escape)
            bits.write(UInt64(v), count: 33)
        } else {
            bits.write(ones: q)
            bits.write(0, count: 1)
            bits.write(UInt64(v) & ((1 << k) - 1), count: k)
        }
    }

    private static func unrice(_ k: Int, _ bits: inout BitReader) throws -> Int {
        let q = try bits.ones(upTo: escape)
        if q == escape { return Int(try bits.read(33)) }
        return q << k | Int(try bits.read(k))
    }
}

/// Bits appended low bit first into bytes.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingCount = 0

    mutating func write(_ value: UInt64, count: Int) {
        var value = value
        var left = count
        while left > 0 {
            let take = min(left, 8)
            pending |= (value & ((1 << take) - 1)) << pendingCount
            pendingCount += take
            value >>= take
            left -= take
            while pendingCount >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                pendingCount -= 8
            }
        }
    }

    mutating func write(ones count: Int) {
        var left = count
        while left > 0 {
            let take = min(left, 32)
            write((1 << take) - 1, count: take)
            left -= take
        }
    }

    mutating func finish() -> [UInt8] {
        if pendingCount > 0 { bytes.append(UInt8(truncatingIfNeeded: pending)) }
        pending = 0
        pendingCount = 0
        return bytes
    }
}

/// Reads what `BitWriter` wrote; reading past the end is damage. Bits are taken from a
/// 64-bit window over the bytes (at least 57 of its bits are the stream's), not one by one.
struct BitReader {
    private let bytes: [UInt8]
    private var bit: Int

    init(_ bytes: [UInt8], byteOffset: Int) {
        self.bytes = bytes
        bit = byteOffset * 8
    }

    var remaining: Int { bytes.count * 8 - bit }

    /// The stream from `bit` on, low bit first; bits past the end read as 0.
    private func window() -> UInt64 {
        let byte = bit >> 3
        return bytes.withUnsafeBufferPointer { b -> UInt64 in
            var word: UInt64 = 0
            if b.count - byte >= 8 {
                word = UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + byte).loadUnaligned(as: UInt64.self))
            } else {
                for i in 0..<max(0, b.count - byte) { word |= UInt64(b[byte + i]) << (8 * i) }
            }
            return word >> UInt64(bit & 7)
        }
    }

    /// The next `count` bits (at most 56) as a number, the first the lowest.
    mutating func read(_ count: Int) throws -> UInt64 {
        precondition(count <= 56)
        guard count <= remaining else { throw PackedReader.Damaged() }
        guard count > 0 else { return 0 }
        let value = window() & (1 << UInt64(count) - 1)
        bit += count
        return value
    }

    /// How many one bits come next, up to `limit` (at most 56); the zero that ends a shorter
    /// run is read too.
    mutating func ones(upTo limit: Int) throws -> Int {
        let run = min((~window()).trailingZeroBitCount, limit)
        let used = run < limit ? run + 1 : run
        guard used <= remaining else { throw PackedReader.Damaged() }
        bit += used
        return run
    }
}
