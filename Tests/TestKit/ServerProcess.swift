import Foundation

/// A server program a test starts (nginx, tinyproxy) and kills: free ports, waiting until it
/// accepts connections (no fixed sleep), and SIGKILL at the end.
public final class ServerProcess: @unchecked Sendable {
    private let process = Process()
    public let name: String

    /// Starts `executable` with `arguments`; its output goes to `log`.
    public init(_ executable: String, _ arguments: [String], log: URL) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    deinit { stop() }

    /// SIGKILL, then waits (by polling: `waitUntilExit` spins a run loop off the main thread).
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
    }

    /// Waits until `port` on `host` accepts a connection, up to `seconds`.
    public func waitUntilListening(host: String = "127.0.0.1", port: Int, seconds: Double = 10) throws {
        let listening = try TestClock.wait(upTo: seconds) {
            guard process.isRunning else { throw ServerProcessError("\(name) exited (status \(process.terminationStatus))") }
            return Self.accepts(host: host, port: port)
        }
        if listening { return }
        throw ServerProcessError("\(name) is not listening on \(host):\(port) after \(seconds) s")
    }

    /// True when a TCP connection to host:port succeeds.
    public static func accepts(host: String, port: Int) -> Bool {
        let v6 = host.contains(":")
        let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        func connect<Address>(_ address: inout Address) -> Bool {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Foundation.connect(fd, $0, socklen_t(MemoryLayout<Address>.size)) == 0
                }
            }
        }
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            return connect(&address)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return connect(&address)
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (the kernel's pick for port 0).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw ServerProcessError("cannot bind a port: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a tool to its end (openssl, gzip); a non-zero exit is an error.
    public static func runTool(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ServerProcessError("\(tool) \(arguments.first ?? "") failed") }
    }

    /// True when this machine has the IPv6 loopback address.
    public static var hasIPv6Loopback: Bool {
        ((try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8)) ?? "").contains("00000000000000000000000000000001")
    }
}

public struct ServerProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
