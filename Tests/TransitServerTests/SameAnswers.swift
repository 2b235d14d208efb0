import Foundation
import TestKit
import XCTest

/// One query asked both ways: of `transit-query COMMAND --bundle PATH --json` and of
/// `GET /v1/NAME/COMMAND?...`. The command line is the reference: the server's body must be
/// its stdout byte for byte, and its status the HTTP reading of the exit status.
struct SameAnswers {
    /// Flags and positional arguments, written here as the command line's help shows them
    /// (not read from the server's code).
    static let flags: Set<String> = ["wheelchair", "arrive-by"]
    static let positional: [String: String] = ["city": "id", "route": "route"]

    struct Query: CustomStringConvertible {
        var command: String
        var parameters: [(String, String)]
        var description: String { command + "?" + parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&") }
    }

    /// The exit status the command line gives for an HTTP status.
    static func exitStatus(forHTTP status: Int) -> Int32? {
        switch status {
        case 200: return 0
        case 404: return 1
        case 400: return 64
        case 503: return 65
        default: return nil
        }
    }

    static func commandLine(_ query: Query, bundle: String, extra: [String] = []) -> [String] {
        var arguments = [query.command, "--bundle", bundle, "--json"]
        for (name, value) in query.parameters {
            if flags.contains(name) {
                if value == "true" { arguments.append("--\(name)") }
            } else if positional[query.command] == name {
                arguments.append(value)
            } else {
                // The = form: a value that starts with a minus is read as the value.
                arguments.append("--\(name)=\(value)")
            }
        }
        return arguments + extra
    }

    /// Runs a tool of this build; stdout and the status.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent(tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TRANSIT_BUNDLE"] = nil
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
    }

    /// Asks `query` both ways and compares; returns the HTTP status.
    @discardableResult
    static func check(
        _ query: Query, server: ServerUnderTest, name: String, bundle: String, cliExtra: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Int {
        let cli = try run("transit-query", commandLine(query, bundle: bundle, extra: cliExtra))
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let parameters = query.parameters.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }
        let target = "/v1/\(name)/\(query.command)" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        guard let http = RawHTTP.get(port: server.port, target) else {
            XCTFail("\(query): no answer from the server", file: file, line: line)
            return 0
        }
        XCTAssertEqual(
            exitStatus(forHTTP: http.status), cli.status,
            "\(query): HTTP \(http.status) but exit \(cli.status) (\(cli.stderr.prefix(300)))", file: file, line: line)
        if http.body != cli.stdout {
            let same = jsonEqual(http.body, cli.stdout)
            XCTFail(
                "\(query): bodies differ\(same ? " (equal as JSON values)" : ""):\n server \(http.text.prefix(400))\n cli    \(String(decoding: cli.stdout.prefix(400), as: UTF8.self))",
                file: file, line: line)
        }
        return http.status
    }

    static func jsonEqual(_ a: Data, _ b: Data) -> Bool {
        guard let x = try? JSONSerialization.jsonObject(with: a, options: [.fragmentsAllowed]),
            let y = try? JSONSerialization.jsonObject(with: b, options: [.fragmentsAllowed])
        else { return false }
        return (x as? NSObject)?.isEqual(y) ?? false
    }
}
