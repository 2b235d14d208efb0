import CZlib

/// `Content-Encoding: gzip` for answers (zlib, level 5: JSON shrinks about tenfold).
enum Gzip {
    /// Answers smaller than this go as they are (the header would eat the gain).
    static let minimumBytes = 1024

    /// `bytes` compressed with a gzip header and trailer; nil if zlib fails.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 + 16: a gzip header and trailer.
        guard
            deflateInit2_(&stream, 5, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out -> Int32 in
                // zlib reads next_in only; its C type is not const.
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    /// True when an `Accept-Encoding` value accepts gzip (`gzip`, `gzip;q=0.5`, `*`; not `q=0`).
    static func isAccepted(by acceptEncoding: String) -> Bool {
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "*" else { continue }
            let zero = parts.dropFirst().contains {
                $0.replacingOccurrences(of: " ", with: "").hasPrefix("q=0") && !$0.contains(where: { "123456789".contains($0) })
            }
            if !zero { return true }
        }
        return false
    }
}
