import Foundation
import TestKit
import XCTest

/// Where a sync test keeps riders' data: an SQLite file, or a PostgreSQL server the test
/// starts on 127.0.0.1 (Debian's, as the `postgres` user).
enum SyncBackend: String, CaseIterable {
    case sqlite, postgres

    /// A new, empty store: its `--sync-db` address and what keeps it alive.
    func make() throws -> (address: String, keeper: AnyObject?) {
        switch self {
        case .sqlite: return ("sqlite:" + TemporaryFolders.make().appendingPathComponent("sync.db").path, nil)
        case .postgres:
            let server = try PostgresServer(database: "sync")
            return (server.url, server)
        }
    }
}

/// The server's clock in every sync test (the devices' clocks are set around it).
let syncServerNow = "2026-06-01T12:00:00Z"
let syncServerMillis: Int64 = 1_780_315_200_000

/// The command lines a sync test drives: `transit-server token add`, `serve --sync-db`,
/// `transit-store` on a device folder.
enum SyncCommands {
    /// A new token for `rider` (written to a file, as `--token-file` reads it).
    static func token(_ rider: String, address: String) throws -> URL {
        let made = try SameAnswers.run("transit-server", ["token", "add", rider, "--sync-db", address])
        guard made.status == 0 else { throw ServerProcessError("token add: \(made.stderr)") }
        let text = String(decoding: made.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(text.hasPrefix("tt_") && text.count > 40, text)
        let file = TemporaryFolders.make().appendingPathComponent("token")
        try Data((text + "\n").utf8).write(to: file)
        return file
    }

    static func server(_ address: String, port: Int = 0, extra: [String] = []) throws -> ServerUnderTest {
        try ServerUnderTest(["--sync-db", address, "--now", syncServerNow] + extra, port: port)
    }

    /// `transit-store --dir DIR ARGUMENTS` with the device clock `now`.
    @discardableResult
    static func store(
        _ dir: URL, _ arguments: [String], now: String? = nil, expect status: Int32? = 0, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> (status: Int32, stdout: Data, stderr: String) {
        let clock = now.map { ["--now", $0] } ?? []
        let result = try SameAnswers.run("transit-store", ["--dir", dir.path] + arguments + clock)
        if let status {
            XCTAssertEqual(
                result.status, status, "transit-store \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// The JSON of `transit-store --json ARGUMENTS`.
    @discardableResult
    static func json(_ dir: URL, _ arguments: [String], now: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws
        -> Any
    {
        let result = try store(dir, ["--json"] + arguments, now: now, file: file, line: line)
        return try JSONSerialization.jsonObject(with: result.stdout)
    }

    @discardableResult
    static func sync(
        _ dir: URL, server: ServerUnderTest, token: URL, now: String? = nil, file: StaticString = #filePath, line: UInt = #line
    )
        throws -> [String: Any]
    {
        try json(dir, ["sync", "--server", server.base, "--token-file", token.path], now: now, file: file, line: line)
            as? [String: Any] ?? [:]
    }
}
