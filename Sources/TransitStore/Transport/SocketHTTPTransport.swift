import Foundation

/// Plain `http:` downloads over a POSIX socket: HTTP/1.1 GET with Range, the body read in
/// 1 MB blocks straight into the file. FoundationNetworking hands each 16 KB to a delegate
/// queue as a new `Data`, which costs half the throughput on a fast link (README, "Offline
/// store"); this path does not. `https:` and everything else go to `URLSessionTransport`.
///
/// ```swift
/// let store = try BundleStore(directory: dir, transport: SocketHTTPTransport(timeout: 15))
/// ```
public struct SocketHTTPTransport: StoreTransport {
    public let timeout: TimeInterval
    private let fallback: URLSessionTransport

    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
        fallback = URLSessionTransport(timeout: timeout)
    }

    public func fetch(_ url: URL) async throws -> Data { try await fallback.fetch(url) }

    public func download(_ url: URL, to path: String, resumingAt offset: Int64, progress: @escaping @Sendable (Int64) -> Void)
        async throws
    {
        guard url.scheme?.lowercased() == "http", let host = url.host else {
            return try await fallback.download(url, to: path, resumingAt: offset, progress: progress)
        }
        let sink = try FileSink(path: path, offset: offset)
        let connection = try HTTPConnection(host: host, port: url.port ?? 80, timeout: timeout, url: url)
        // Blocking reads run on their own thread, not on the concurrency pool's few threads;
        // cancelling shuts the socket down, which ends a blocked read at once.
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let thread = Thread {
                    do {
                        try connection.get(url, into: sink, progress: progress)
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: connection.cancelled ? CancellationError() : error)
                    }
                }
                thread.start()
            }
        } onCancel: {
            connection.cancel()
        }
    }
}

/// One HTTP/1.1 exchange on one socket (`Connection: close`).
private final class HTTPConnection: @unchecked Sendable {
    private let fd: Int32
    private let url: URL
    private let lock = NSLock()
    private var isCancelled = false

    var cancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isCancelled
    }

    init(host: String, port: Int, timeout: TimeInterval, url: URL) throws {
        self.url = url
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let found = getaddrinfo(host, String(port), &hints, &list)
        guard found == 0, let first = list else {
            throw TransportError("\(url.absoluteString): cannot resolve \(host)", transient: true)
        }
        defer { freeaddrinfo(list) }
        var address: UnsafeMutablePointer<addrinfo>? = first
        var connected: Int32 = -1
        while let candidate = address, connected < 0 {
            let socket = Foundation.socket(candidate.pointee.ai_family, candidate.pointee.ai_socktype, candidate.pointee.ai_protocol)
            if socket >= 0 {
                var limit = timeval()
                limit.tv_sec = .init(timeout)
                limit.tv_usec = .init((timeout - Double(Int(timeout))) * 1e6)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                if connect(socket, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0 {
                    connected = socket
                } else {
                    close(socket)
                }
            }
            address = candidate.pointee.ai_next
        }
        guard connected >= 0 else {
            throw TransportError("\(url.absoluteString): cannot connect: \(String(cString: strerror(errno)))", transient: true)
        }
        fd = connected
    }

    deinit { close(fd) }

    func cancel() {
        lock.lock()
        isCancelled = true
        lock.unlock()
        shutdown(fd, Int32(SHUT_RDWR))
    }

    func get(_ url: URL, into sink: FileSink, progress: @Sendable (Int64) -> Void) throws {
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        var request = "GET \(target) HTTP/1.1\r\nHost: \(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\r\n"
        request += "User-Agent: transit-store\r\nAccept-Encoding: identity\r\nConnection: close\r\n"
        if sink.offset > 0 { request += "Range: bytes=\(sink.offset)-\r\n" }
        request += "\r\n"
        try send(Array(request.utf8))

        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var filled = 0
        var headerEnd: Int?
        while headerEnd == nil {
            guard filled < buffer.count else { throw failure("the response headers are too long", transient: false) }
            let got = try receive(into: &buffer, at: filled)
            guard got > 0 else { throw failure("the connection closed before the response", transient: true) }
            filled += got
            headerEnd = Self.endOfHeaders(buffer, filled)
        }
        let head = try Response(String(decoding: buffer[0..<headerEnd!], as: UTF8.self), url: url)
        try sink.begin(status: head.status, contentRange: head.contentRange, url: url)
        guard !head.chunked else { throw failure("chunked responses are not supported for bundle files", transient: false) }
        let end = head.contentLength.map { sink.offset + $0 }
        var body = buffer.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[headerEnd!..<filled]) }
        while true {
            if !body.isEmpty {
                try sink.write(body)
                progress(sink.offset)
            }
            if let end, sink.offset >= end { return }
            let got = try receive(into: &buffer, at: 0)
            if got == 0 {
                if let end, sink.offset < end {
                    throw failure("the connection closed after \(sink.offset) of \(end) bytes", transient: true)
                }
                return
            }
            body = buffer.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[0..<got]) }
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let wrote = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if wrote < 0 {
                if errno == EINTR { continue }
                throw failure("cannot send the request: \(String(cString: strerror(errno)))", transient: true)
            }
            sent += wrote
        }
    }

    private func receive(into buffer: inout [UInt8], at start: Int) throws -> Int {
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + start, $0.count - start, 0) }
            if got >= 0 { return got }
            if errno == EINTR { continue }
            if cancelled { throw CancellationError() }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw failure("nothing received for too long", transient: true) }
            throw failure("the connection failed: \(String(cString: strerror(errno)))", transient: true)
        }
    }

    private func failure(_ message: String, transient: Bool) -> TransportError {
        TransportError("\(url.absoluteString): \(message)", transient: transient)
    }

    private static func endOfHeaders(_ buffer: [UInt8], _ count: Int) -> Int? {
        guard count >= 4 else { return nil }
        for index in 3..<count
        where buffer[index] == 10 && buffer[index - 1] == 13 && buffer[index - 2] == 10 && buffer[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// The status line and the headers the download needs.
    struct Response {
        let status: Int
        let contentLength: Int64?
        let contentRange: String?
        let chunked: Bool

        init(_ text: String, url: URL) throws {
            let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
            let statusLine = lines.first?.split(separator: " ") ?? []
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
                throw TransportError("\(url.absoluteString): not an HTTP response", transient: true)
            }
            self.status = status
            var fields: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            contentLength = fields["content-length"].flatMap { Int64($0) }
            contentRange = fields["content-range"]
            chunked = fields["transfer-encoding"]?.lowercased().contains("chunked") == true
        }
    }
}
