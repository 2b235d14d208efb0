import Foundation

/// The file a download appends to, written with plain `write(2)` calls; the bytes of a
/// compressed response are decoded on the way in.
final class FileSink: @unchecked Sendable {
    private let fd: Int32
    let path: String
    private(set) var offset: Int64
    private var decoder: ContentDecoder?
    /// Bytes received from the wire (before decoding).
    private(set) var received: Int64 = 0

    /// Opens (creating) `path` and keeps its first `offset` bytes.
    init(path: String, offset: Int64) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSink.failure(path) }
        self.fd = fd
        self.path = path
        self.offset = offset
        guard ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            let error = FileSink.failure(path)
            close(fd)
            throw error
        }
    }

    /// Opens `path` keeping every byte it holds (a resume continues after them).
    convenience init(appendingTo path: String) throws {
        try self.init(path: path, offset: BundleFiles.stat(path)?.size ?? 0)
    }

    deinit { close(fd) }

    /// Readies the file for a response's body: a 206 must continue at `offset` (Content-Range
    /// "bytes OFFSET-...") and be sent as is; a 200 (a first request, or a server that
    /// ignored Range) starts the file over; a 416 says the server's file ends where ours does
    /// or before; any other status is the server's failure.
    func begin(status: Int, contentRange: String?, contentEncoding: String?, url: URL) throws {
        switch status {
        case 206 where offset > 0:
            guard contentRange?.hasPrefix("bytes \(offset)-") == true else {
                throw TransportError(
                    "\(url.absoluteString): answered range \"\(contentRange ?? "")\" for bytes=\(offset)-", transient: true)
            }
            guard try ContentDecoder.make(for: contentEncoding, url: url) == nil else {
                // A part of a compressed representation cannot be decoded on its own.
                throw TransportError("\(url.absoluteString): a range of a compressed body", transient: true, status: 206)
            }
        case 200:
            decoder = try ContentDecoder.make(for: contentEncoding, url: url)
            if offset > 0 { try restart() }
        case 416:
            // "bytes */LENGTH": the server's file has LENGTH bytes and we asked from `offset`.
            let length = contentRange.flatMap { $0.split(separator: "/").last.flatMap { Int64($0) } }
            throw TransportError.shorter(url, has: length ?? offset, listed: nil)
        default:
            throw TransportError.http(status, url)
        }
    }

    /// Empties the file: the server is sending the whole resource.
    private func restart() throws {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { throw Self.failure(path) }
        offset = 0
    }

    /// True when a compressed body has been decoded to its end (or the body is not compressed).
    var bodyComplete: Bool { decoder?.finished ?? true }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Writes bytes as they came off the wire (decoding them when compressed).
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        received += Int64(bytes.count)
        if let decoder {
            try decoder.decode(bytes) { try writeDecoded($0) }
        } else {
            try writeDecoded(bytes)
        }
    }

    private func writeDecoded(_ bytes: UnsafeRawBufferPointer) throws {
        var at = 0
        while at < bytes.count {
            let wrote = Foundation.write(fd, bytes.baseAddress! + at, bytes.count - at)
            if wrote < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path)
            }
            at += wrote
            offset += Int64(wrote)
        }
    }

    /// Copies a local file's bytes from `offset` on (a `file:` URL).
    func copy(from source: String, progress: @Sendable (Int64) -> Void) throws {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw TransportError("cannot read \(source)", transient: false)
        }
        defer { try? input.close() }
        try input.seek(toOffset: UInt64(offset))
        while true {
            try Task.checkCancellation()
            let chunk = input.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            try write(chunk)
            progress(offset)
        }
    }

    /// A write failure: a full disk is said in words (it is the device's storage, not the server).
    static func failure(_ path: String) -> TransportError {
        let code = errno
        if code == ENOSPC || code == EDQUOT {
            var error = TransportError("writing \(path)", transient: false)
            error.isDiskFull = true
            return error
        }
        return TransportError("cannot write \(path): \(String(cString: strerror(code)))", transient: false)
    }
}
