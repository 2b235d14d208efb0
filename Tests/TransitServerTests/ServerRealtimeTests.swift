import Foundation
import GTFSCompiler
import TestKit
import TransitClient
import TransitRuntime
import XCTest

/// Live data fetched by the server from a plain file server (Debian's nginx on loopback,
/// with its ETag and Last-Modified), changed while the server runs: the live boards and plans
/// must be what `transit-query --realtime FILE --now` prints at the same instant.
final class ServerRealtimeTests: XCTestCase {
    static let now = "2019-08-07T10:46:00-07:00"

    func testLiveBoardsFollowTheMessageTheServerFetches() throws {
        let realtime = try TestPaths.requireShared("realtime")
        guard NginxServer.executable != nil else {
            if TestPaths.mustNotSkip { throw TestPaths.missing("nginx") }
            throw XCTSkip("nginx is not installed (make deps installs it)")
        }
        let folder = TemporaryFolders.make()
        let bundle = folder.appendingPathComponent("bart.db").path
        _ = try Compiler.compile(
            CompileRequest(feeds: [.init(name: "bart", path: realtime.appendingPathComponent("bart-rt.zip").path)], outputPath: bundle),
            log: DiagnosticLog())
        let site = folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let served = site.appendingPathComponent("rt.pb")
        func publish(_ name: String) throws {
            // A rename, as a producer publishes: nginx never serves half a file.
            let staging = site.appendingPathComponent(".staging")
            try? FileManager.default.removeItem(at: staging)
            try FileManager.default.copyItem(at: realtime.appendingPathComponent(name), to: staging)
            _ = rename(staging.path, served.path)
        }
        try publish("bart-alerts.pb")
        let nginx = try NginxServer(serving: site)
        defer { nginx.stop() }
        let server = try ServerUnderTest([
            "--bundle", "bart=\(bundle)", "--realtime", "bart=\(nginx.url("files/rt.pb").absoluteString)", "--realtime-interval", "0.5",
            "--now", Self.now, "--log-level", "warning",
        ])
        defer { server.kill() }
        XCTAssertTrue(
            TestClock.wait(upTo: 20) { RawHTTP.get(port: server.port, "/readyz")?.status == 200 }, server.logText)

        typealias Q = SameAnswers.Query
        let queries = [
            Q(command: "departures", parameters: [("stop", "MONT"), ("at", "2019-08-07T10:40"), ("window", "45")]),
            Q(command: "arrivals", parameters: [("stop", "24TH"), ("at", "2019-08-07T10:45"), ("limit", "8")]),
            Q(command: "departures", parameters: [("stop", "WOAK"), ("stop", "CIVC"), ("at", "2019-08-07T10:50")]),
            Q(command: "plan", parameters: [("from", "DALY"), ("to", "MONT"), ("at", "2019-08-07T10:45")]),
        ]
        func compare(with file: String) throws {
            for query in queries {
                let status = try SameAnswers.check(
                    query, server: server, name: "bart", bundle: bundle,
                    cliExtra: ["--realtime", realtime.appendingPathComponent(file).path, "--now", Self.now])
                XCTAssertEqual(status, 200, "\(query)")
                let http = try XCTUnwrap(
                    RawHTTP.get(
                        port: server.port, "/v1/bart/\(query.command)?" + query.parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
                )
                XCTAssertEqual(http.header("Cache-Control"), "max-age=1", "\(query)")
            }
        }
        // Alerts only: live boards (with the alert) whose times are not changed.
        try compare(with: "bart-alerts.pb")
        let alerts = try XCTUnwrap(RawHTTP.get(port: server.port, "/v1/bart/departures?stop=MONT&at=2019-08-07T10:40"))
        XCTAssertEqual(alerts.header("X-Realtime-Not-Applied"), "the snapshot has no trip updates")
        // Unchanged, the message is asked for again conditionally: nginx answers 304.
        XCTAssertTrue(
            TestClock.wait(upTo: 20, every: 0.05) { nginx.log().contains { $0.uri == "/files/rt.pb" && $0.status == 304 } },
            "no conditional fetch: \(nginx.log().map { "\($0.uri) \($0.status)" }) \(server.logText.suffix(1500))")
        let before = try report(server)
        // The message changes: the server notices on its next fetch and swaps the snapshot.
        let clock = ContinuousClock()
        let published = clock.now
        try publish("bart-trip-updates.pb")
        XCTAssertTrue(
            TestClock.wait(upTo: 20, every: 0.05) {
                ((try? self.report(server))?["sources"] as? [[String: Any]])?.first?["entities"] as? Int == 91
            },
            "the new message was not applied: \(server.logText.suffix(2000))")
        // Reported, not asserted (speed targets live in make bench): the interval is 0.5 s.
        print("the changed message was applied \(clock.now - published) after it was published (interval 0.5 s)")
        try compare(with: "bart-trip-updates.pb")
        let after = try report(server)
        XCTAssertEqual((before["sources"] as? [[String: Any]])?.first?["entities"] as? Int, 1)
        XCTAssertEqual((after["snapshot"] as? [String: Any])?["trip_updates"] as? Int, 91)
        // The app's client decodes the live board into the runtime's live calls.
        let client = TransitClient(server: URL(string: server.base)!, bundle: "bart")
        let board = try awaitResult {
            try await client.departures(from: ["MONT"], at: try QueryTime.parse("2019-08-07T10:40"), within: 2700)
        }
        XCTAssertTrue(board.departures.contains { $0.isRealtime }, "no live call in \(board.departures.count)")
        XCTAssertEqual(board.realtimeNotApplied, nil)
        // The source fails: the last good message stays applied; readiness says why once it is stale.
        try FileManager.default.removeItem(at: served)
        XCTAssertTrue(
            TestClock.wait(upTo: 20, every: 0.05) { RawHTTP.get(port: server.port, "/readyz")?.status == 503 }, "readyz never went 503")
        let failing = try report(server)
        XCTAssertEqual((failing["sources"] as? [[String: Any]])?.first?["last_error"] as? String, "HTTP 404")
        try compare(with: "bart-trip-updates.pb")
        try publish("bart-trip-updates.pb")
        XCTAssertTrue(
            TestClock.wait(upTo: 30, every: 0.05) { RawHTTP.get(port: server.port, "/readyz")?.status == 200 }, "readyz did not recover")
    }

    private func report(_ server: ServerUnderTest) throws -> [String: Any] {
        let answer = try XCTUnwrap(RawHTTP.get(port: server.port, "/v1/bart/realtime"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    }

    /// The result of an async call, from synchronous test code.
    private func awaitResult<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let value = try await body()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }
}
