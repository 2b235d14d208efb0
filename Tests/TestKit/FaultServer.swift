import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fault-injecting HTTP server (Tests/Server/fault_server.py) on 127.0.0.1, serving one
/// folder; started by a test and stopped when the value is released or `stop()` is called.
///
/// ```swift
/// let server = try FaultServer(serving: folder)
/// try await server.inject(["path": "/demo.db", "drop_after": 20_000, "times": 1])
/// let url = server.url("manifest.json")
/// ```
public final class FaultServer: @unchecked Sendable {
    public let port: Int
    private let process: Process

    public init(serving folder: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.repository.appendingPathComponent("Tests/Server/fault_server.py").path, folder.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw NSError(domain: "FaultServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "the server did not start: \(text)"])
        }
        self.port = port
    }

    deinit { stop() }

    /// SIGKILL (a child of a test may inherit a blocked SIGTERM), then waits up to 5 s for the
    /// exit by polling: `waitUntilExit` spins its run loop off the main thread on Linux.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Sets the fault for one path (see the script's documentation for the keys).
    public func inject(_ fault: [String: Any]) async throws {
        var request = URLRequest(url: url("_faults"))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: fault)
        _ = try await URLSession.shared.data(for: request)
    }

    public func clearFaults() async throws {
        var request = URLRequest(url: url("_faults"))
        request.httpMethod = "DELETE"
        _ = try await URLSession.shared.data(for: request)
    }

    /// The requests served so far.
    public struct Request: Sendable, Equatable {
        public let path: String
        public let range: String?
        public let status: Int
        public let sent: Int
        /// When the request arrived, seconds on the server's monotonic clock.
        public let at: Double
    }

    public func log() async throws -> [Request] {
        let (data, _) = try await URLSession.shared.data(from: url("_log"))
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return list.map {
            Request(
                path: $0["path"] as? String ?? "", range: $0["range"] as? String, status: $0["status"] as? Int ?? 0,
                sent: $0["sent"] as? Int ?? 0, at: $0["at"] as? Double ?? 0)
        }
    }
}
