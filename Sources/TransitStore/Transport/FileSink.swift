import Foundation

/// The file a download appends to, written with plain `write(2)` calls.
final class FileSink: @unchecked Sendable {
    private let fd: Int32
    let path: String
    private(set) var offset: Int64

    /// Opens (creating) `path` and keeps its first `offset` bytes.
    init(path: String, offset: Int64) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TransportError("cannot write \(path): \(String(cString: strerror(errno)))", transient: false) }
        self.fd = fd
        self.path = path
        self.offset = offset
        guard ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            close(fd)
            throw TransportError("cannot write \(path): \(String(cString: strerror(errno)))", transient: false)
        }
    }

    deinit { close(fd) }

    /// Readies the file for a response's body, the same for every transport: a 206 must
    /// continue at `offset` (Content-Range "bytes OFFSET-..."); a 200 (a first request, or a
    /// server that ignored Range) starts the file over; any other status is the server's failure.
    func begin(status: Int, contentRange: String?, url: URL) throws {
        switch status {
        case 206 where offset > 0:
            guard contentRange?.hasPrefix("bytes \(offset)-") == true else {
                try restart()
                throw TransportError(
                    "\(url.absoluteString): answered range \"\(contentRange ?? "")\" for bytes=\(offset)-", transient: true)
            }
        case 200:
            if offset > 0 { try restart() }
        default:
            throw TransportError.http(status, url)
        }
    }

    /// Empties the file: the server is sending the whole resource.
    private func restart() throws {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { throw failure() }
        offset = 0
    }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var at = 0
        while at < bytes.count {
            let wrote = Foundation.write(fd, bytes.baseAddress! + at, bytes.count - at)
            if wrote < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            at += wrote
        }
        offset += Int64(bytes.count)
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

    private func failure() -> TransportError {
        TransportError("cannot write \(path): \(String(cString: strerror(errno)))", transient: false)
    }
}
