import CZlib
import Foundation

/// Undoes the `Content-Encoding` a server applied on the wire (gzip, x-gzip or deflate) as the
/// bytes arrive, so the file on disk holds the resource itself. zlib detects gzip and zlib
/// headers by itself (window bits 15 + 32).
final class ContentDecoder {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 18)
    private(set) var finished = false

    /// The encodings a download asks for and can undo.
    static let accepted = "gzip, deflate"

    /// A decoder for `encoding`, nil for identity (no header, or "identity").
    /// - Throws: `TransportError` for an encoding it cannot undo (permanent).
    static func make(for encoding: String?, url: URL) throws -> ContentDecoder? {
        let name = encoding?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        switch name {
        case "", "identity": return nil
        case "gzip", "x-gzip", "deflate": return try ContentDecoder(url: url)
        default:
            throw TransportError(
                "\(url.absoluteString): the server sent Content-Encoding \"\(name)\", which the store cannot decode", transient: false)
        }
    }

    private init(url: URL) throws {
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw TransportError("\(url.absoluteString): cannot start zlib", transient: false)
        }
    }

    deinit { inflateEnd(&stream) }

    /// Decodes `input`, handing each run of decoded bytes to `sink`.
    /// - Throws: `TransportError` when the bytes are not valid compressed data (transient: a
    ///   damaged transfer is worth one more try).
    func decode(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !finished, input.count > 0 else { return }
        stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(input.count)
        while stream.avail_in > 0 && !finished {
            let (status, produced) = output.withUnsafeMutableBytes { buffer -> (Int32, Int) in
                stream.next_out = buffer.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(buffer.count)
                let status = inflate(&stream, Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.avail_out))
            }
            if produced > 0 { try output.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) } }
            switch status {
            case Z_STREAM_END: finished = true
            case Z_OK: continue
            case Z_BUF_ERROR where produced > 0: continue
            default:
                throw TransportError("the compressed body is damaged (zlib \(status))", transient: true, failure: .damagedBody)
            }
        }
        stream.next_in = nil
    }
}
