import BundleFormat
import CZlib

/// The `service_blocks.entries` column: the text ids and feeds of the services whose svs are
/// `first_sv ..< first_sv + capacity`, `first_sv` being 1 + a multiple of `capacity`. Per
/// sv, as varints: 0 for an sv no service has (a gap), else 1 + the id's length in bytes,
/// the fid, then the bytes; all of it raw-deflated (zlib, level 9).
///
/// Service ids are read by the compiler alone (`--base` keeps svs; reports name services),
/// so they are stored for size: long ids written from templates
/// ("SERVICE_00017_WEEKDAY_PATTERN_31415926") take about 11 bytes each, pages included,
/// where a dictionary row and its key took 49.
///
/// ```swift
/// let bytes = try ServiceBlock.encode([.init(serviceID: "WEEKDAY", fid: 1), nil])
/// let entries = try ServiceBlock.decode(bytes)  // the same two
/// ```
enum ServiceBlock {
    /// Svs per block: a block of 32 long ids deflates to about 300 bytes, three to a
    /// 1 KB page (64 made blocks of 560 bytes, one to a page).
    static let capacity = 32
    /// What a block may inflate to: `capacity` ids of a few kilobytes each at most.
    static let maxInflated = 1 << 20

    struct Entry: Equatable {
        var serviceID: String
        var fid: Int
    }

    /// Not a service block (the bytes are damaged).
    struct Damaged: Error {}

    /// The first sv of the block holding `sv`.
    static func firstSv(holding sv: Int) -> Int { (sv - 1) / capacity * capacity + 1 }

    static func encode(_ entries: [Entry?]) throws -> [UInt8] {
        var w = PackedWriter()
        for entry in entries {
            guard let entry else {
                w.unsigned(0)
                continue
            }
            w.unsigned(entry.serviceID.utf8.count + 1)
            w.unsigned(entry.fid)
            w.append(contentsOf: entry.serviceID.utf8)
        }
        return try deflate(w.bytes)
    }

    static func decode(_ bytes: [UInt8]) throws -> [Entry?] {
        var r = PackedReader(try inflate(bytes))
        var entries: [Entry?] = []
        while !r.isAtEnd {
            let length = try r.unsigned()
            if length == 0 {
                entries.append(nil)
                continue
            }
            let fid = try r.unsigned()
            entries.append(Entry(serviceID: String(decoding: try r.bytes(length - 1), as: UTF8.self), fid: fid))
        }
        guard entries.count <= capacity else { throw Damaged() }
        return entries
    }

    /// Raw deflate at level 9 (internal for the fuzz target, which feeds the parser through it).
    static func deflate(_ input: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(&stream, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw Damaged() }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        let rc = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                // zlib reads next_in only; its C type is not const.
                stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard rc == Z_STREAM_END else { throw Damaged() }
        return Array(output.prefix(Int(stream.total_out)))
    }

    private static func inflate(_ input: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw Damaged() }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        var rc = Z_OK
        try input.withUnsafeBufferPointer { inBuffer in
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = uInt(inBuffer.count)
            while rc == Z_OK {
                rc = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                output += chunk.prefix(chunk.count - Int(stream.avail_out))
                guard output.count <= maxInflated else { throw Damaged() }
            }
        }
        guard rc == Z_STREAM_END else { throw Damaged() }
        return output
    }
}
