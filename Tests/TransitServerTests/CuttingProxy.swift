import Foundation
import TestKit
import TransitRuntime

/// An HTTP/1.1 relay on 127.0.0.1 in front of a server, for the sync tests: it forwards each
/// request whole, reads the server's whole answer, then relays it or, as `dropsAnswer`
/// decides, closes the client's connection instead (the server applied the push, the device
/// never heard). It logs every exchange the server answered, in the order answered: what
/// reached the server. An upstream that is down (restarting) closes the client's connection.
final class CuttingProxy: @unchecked Sendable {
    struct Exchange {
        var path: String
        var requestBody: Data
        var status: Int
        var responseBody: Data
        var dropped: Bool
    }

    let port: Int
    private let listener: Int32
    private let state = Locked<(upstream: Int, drop: (String) -> Bool, log: [Exchange], stopped: Bool)>(
        (0, { _ in false }, [], false))
    private let threads = DispatchGroup()

    init(upstream: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { throw ServerProcessError("the proxy cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        state.withLock { $0.upstream = upstream }
        threads.enter()
        Thread.detachNewThread { [self] in
            acceptLoop()
            threads.leave()
        }
    }

    deinit { stop() }

    /// Where requests go (a restarted server may listen elsewhere).
    func setUpstream(_ port: Int) { state.withLock { $0.upstream = port } }

    /// Decides, for each answered request (by its path), whether its answer is dropped.
    func setDrop(_ decide: @escaping (String) -> Bool) { state.withLock { $0.drop = decide } }

    /// The exchanges the server answered, in order.
    var log: [Exchange] { state.withLock { $0.log } }

    func stop() {
        let already = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !already else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        threads.wait()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            threads.enter()
            Thread.detachNewThread { [self] in
                serve(client)
                close(client)
                threads.leave()
            }
        }
    }

    /// Answers requests on one client connection until it closes or an answer is dropped.
    private func serve(_ client: Int32) {
        var tv = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var pending: [UInt8] = []
        while let request = Self.readMessage(client, buffer: &pending) {
            if state.withLock({ $0.stopped }) { return }
            let upstream = RawHTTP.connect(port: state.withLock { $0.upstream })
            guard upstream >= 0 else { return }
            setsockopt(upstream, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var rest: [UInt8] = []
            let sent = Self.sendAll(upstream, request.raw)
            let answer = sent ? Self.readMessage(upstream, buffer: &rest) : nil
            close(upstream)
            guard let answer else { return }
            let status = Int(String(decoding: answer.head.split(separator: 0x20).dropFirst().first ?? [], as: UTF8.self)) ?? 0
            let path = String(decoding: request.head.split(separator: 0x20).dropFirst().first ?? [], as: UTF8.self)
            let dropped = state.withLock { state -> Bool in
                let dropped = state.drop(path)
                state.log.append(
                    Exchange(path: path, requestBody: Data(request.body), status: status, responseBody: Data(answer.body), dropped: dropped)
                )
                return dropped
            }
            if dropped || !Self.sendAll(client, answer.raw) { return }
        }
    }

    private struct Message {
        var raw: [UInt8]
        var head: [UInt8]
        var body: [UInt8]
    }

    /// One message (head and a Content-Length body) from `fd`; nil at the end of the stream.
    private static func readMessage(_ fd: Int32, buffer: inout [UInt8]) -> Message? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let end = headEnd(buffer) {
                let head = Array(buffer[..<end])
                let text = String(decoding: head, as: UTF8.self).lowercased()
                let length =
                    text.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                let total = end + 4 + length
                if buffer.count >= total {
                    let raw = Array(buffer[..<total])
                    buffer.removeFirst(total)
                    return Message(raw: raw, head: head, body: Array(raw[(end + 4)...]))
                }
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }
}
