import CZlib
import Foundation

/// How many bytes a file takes gzip-compressed (level 6, as servers send it), computed by
/// streaming it through zlib without keeping the output.
enum GzipSize {
    static func of(path: String) throws -> Int {
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw FatalDiagnostic(.unreadableInput, file: path, message: "cannot open the bundle")
        }
        defer { try? input.close() }
        var stream = z_stream()
        // 15 + 16: a gzip header and trailer, as `Content-Encoding: gzip` carries.
        guard
            deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw FatalDiagnostic(.outputFailed, file: path, message: "zlib cannot start") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        var finished = false
        while !finished {
            let chunk = try input.read(upToCount: 1 << 20) ?? Data()
            finished = chunk.isEmpty
            try chunk.withUnsafeBytes { (inBuffer: UnsafeRawBufferPointer) in
                // zlib reads next_in only; its C type is not const.
                stream.next_in = UnsafeMutablePointer(mutating: inBuffer.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(inBuffer.count)
                repeat {
                    let produced = output.withUnsafeMutableBufferPointer { out -> Int32 in
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        return deflate(&stream, finished ? Z_FINISH : Z_NO_FLUSH)
                    }
                    guard produced != Z_STREAM_ERROR else {
                        throw FatalDiagnostic(.outputFailed, file: path, message: "zlib failed while compressing")
                    }
                    total += output.count - Int(stream.avail_out)
                } while stream.avail_out == 0
            }
        }
        return total
    }
}
