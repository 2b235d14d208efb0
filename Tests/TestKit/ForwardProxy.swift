import Foundation

/// Debian's tinyproxy on 127.0.0.1: a forward proxy for http (GET with an absolute URL) and
/// https (CONNECT), started by a test and killed when released. `log()` lists what it relayed.
public final class ForwardProxy: @unchecked Sendable {
    public let port: Int
    private let folder: URL
    private let server: ServerProcess

    public static var executable: String? {
        ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public init() throws {
        guard let tinyproxy = Self.executable else { throw ServerProcessError("tinyproxy is not installed (make deps installs it)") }
        folder = TemporaryFolders.make()
        port = try ServerProcess.freePort()
        let config = """
            Port \(port)
            Listen 127.0.0.1
            Timeout 60
            LogFile "\(folder.path)/proxy.log"
            LogLevel Info
            MaxClients 20
            Allow 127.0.0.1
            DisableViaHeader Yes
            """
        let file = folder.appendingPathComponent("tinyproxy.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        server = try ServerProcess(tinyproxy, ["-d", "-c", file.path], log: folder.appendingPathComponent("out.log"))
        try server.waitUntilListening(port: port)
    }

    public func stop() { server.stop() }

    /// The proxy's log: one line per connection and request it handled.
    public func log() -> String {
        ((try? String(contentsOf: folder.appendingPathComponent("proxy.log"), encoding: .utf8)) ?? "")
            + ((try? String(contentsOf: folder.appendingPathComponent("out.log"), encoding: .utf8)) ?? "")
    }
}
