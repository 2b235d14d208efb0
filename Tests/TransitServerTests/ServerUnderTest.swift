import Foundation
import TestKit
import TransitRuntime
import XCTest

/// A `transit-server` process a test starts on a free port of 127.0.0.1: its address read
/// from its stdout (`listening on http://HOST:PORT`), stopped by SIGTERM (drained) or SIGKILL.
final class ServerUnderTest: @unchecked Sendable {
    let process = Process()
    let port: Int
    let log: URL
    var base: String { "http://127.0.0.1:\(port)" }

    /// Starts `transit-server serve ARGUMENTS --port 0` and waits (up to 60 s) for its address.
    init(_ arguments: [String], port requested: Int = 0) throws {
        log = TemporaryFolders.make().appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = TestPaths.products.appendingPathComponent("transit-server")
        process.arguments = ["serve"] + arguments + ["--port", "\(requested)"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        // The first line of stdout is the address; read it on another thread with a deadline.
        let line = Locked<String?>(nil)
        let reader = out.fileHandleForReading
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var bytes: [UInt8] = []
            while true {
                let chunk = reader.readData(ofLength: 1)
                guard let byte = chunk.first else { break }
                if byte == 0x0A { break }
                bytes.append(byte)
            }
            line.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 60) == .success, let text = line.withLock({ $0 }), text.hasPrefix("listening on http://") else {
            process.terminate()
            throw ServerProcessError("transit-server did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        guard let port = Int(text.split(separator: ":").last ?? "") else { throw ServerProcessError("no port in \(text)") }
        self.port = port
    }

    deinit { kill() }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// SIGTERM, and the exit status once the process has drained and ended (up to 30 s).
    @discardableResult
    func terminate() -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        Foundation.kill(process.processIdentifier, SIGTERM)
        for _ in 0..<3000 where process.isRunning { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func hangUp() { Foundation.kill(process.processIdentifier, SIGHUP) }

    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
    }

    /// Resident memory, kB (Linux /proc).
    var residentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}

/// One HTTP exchange: status, headers (lowercased names), body.
struct HTTPAnswer {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Plain HTTP/1.1 over a socket, written and read by hand, so that a test controls every
/// byte (bad targets, half-sent requests) and no client library normalises anything.
enum RawHTTP {
    /// Sends `request` (the whole text) to 127.0.0.1:`port` and reads the answer to the end of
    /// its body (Content-Length) or of the connection; nil when the connection closed first.
    static func exchange(port: Int, _ request: [UInt8], timeout: TimeInterval = 30) -> HTTPAnswer? {
        let fd = connect(port: port)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
            if let answer = parse(received), answer.complete { return answer.answer }
        }
        return parse(received)?.answer
    }

    /// A connected TCP socket to 127.0.0.1:`port`, -1 on failure.
    static func connect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return -1
        }
        return fd
    }

    static func get(port: Int, _ target: String, headers: [String: String] = [:]) -> HTTPAnswer? {
        var text = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return exchange(port: port, Array((text + "\r\n").utf8))
    }

    static func post(port: Int, _ target: String, body: [UInt8]) -> HTTPAnswer? {
        let head = "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n"
        return exchange(port: port, Array(head.utf8) + body)
    }

    private static func parse(_ bytes: [UInt8]) -> (answer: HTTPAnswer, complete: Bool)? {
        guard
            let end = bytes.indices.dropLast(3).first(where: {
                bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
            })
        else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Data(bytes[(end + 4)...])
        let length = headers["content-length"].flatMap(Int.init)
        return (
            HTTPAnswer(status: status, headers: headers, body: length.map { Data(body.prefix($0)) } ?? body),
            length.map { body.count >= $0 } ?? false
        )
    }
}
