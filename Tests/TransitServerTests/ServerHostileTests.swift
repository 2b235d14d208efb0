import Foundation
import TestKit
import TestSupport
import XCTest

/// Bad input of every kind sent to a running server: each gets a 4xx with the JSON error
/// (never a 5xx, a crash or a hang), the server keeps answering, its memory stays bounded,
/// and `/readyz` stays 200.
final class ServerHostileTests: XCTestCase {
    func testBadRequestsGetFourHundredsAndTheServerGoesOn() throws {
        let server = try ServerUnderTest([
            "--bundle", "demo=\(TestSupport.sampleBundlePath)", "--idle-timeout", "2", "--body-timeout", "1", "--log-level", "error",
        ])
        defer { server.kill() }
        let rssBefore = try XCTUnwrap(server.residentKilobytes)
        let long = String(repeating: "a", count: 100_000)
        let cases: [(String, Int)] = [
            ("/v1/demo/nope", 404),
            ("/v1/nope/departures?stop=CENTRAL", 404),
            ("/v1/demo/departures?stop=CENTRAL&colour=red", 400),
            ("/v1/demo/departures?stop=CENTRAL&bundle=/etc/passwd", 400),
            ("/v1/demo/departures?stop=CENTRAL&realtime=/etc/passwd", 400),
            ("/v1/demo/departures?stop=CENTRAL&json=false", 400),
            ("/v1/demo/departures", 400),
            ("/v1/demo/departures?stop=CENTRAL&at=2026-02-30T08:00", 400),
            ("/v1/demo/departures?stop=CENTRAL&at=9999999999", 400),
            ("/v1/demo/departures?stop=CENTRAL&window=99999999999999999999", 400),
            ("/v1/demo/departures?stop=CENTRAL&window=9223372036854775807", 400),
            ("/v1/demo/departures?stop=CENTRAL&limit=1000000000", 400),
            ("/v1/demo/stops?near=1e308,1e308", 400),
            ("/v1/demo/stops?near=47,8&radius=nan", 400),
            ("/v1/demo/nearest?near=47,8&count=-1", 400),
            ("/v1/demo/plan?from=CENTRAL&to=BELLEVUE&window=99999999", 400),
            ("/v1/demo/plan?from=CENTRAL&to=BELLEVUE&walk-speed=inf", 400),
            ("/v1/demo/plan?from=CENTRAL&to=BELLEVUE&wheelchair=maybe", 400),
            ("/v1/demo/stops?search=" + String(repeating: "word+", count: 40), 400),
            ("/v1/demo/stops?search=%FF%FE", 400),
            ("/v1/demo/stops?search=a%00b", 400),
            ("/v1/demo/stops?search=%G1", 400),
            ("/v1/demo/city?id=zurich&id=opera", 400),
            ("/v1/%2e%2e/demo/info", 400),
            ("/v1/demo/%2e%2e/info", 400),
            ("/../../etc/passwd", 400),
            ("/v1/demo/info/extra/segments/here", 404),
            ("/v1/demo/stops?search=" + String(repeating: "a", count: 10_000), 414),
            ("/v1/demo/batch", 405),
            ("/nothing-here", 404),
            ("/app.js/more", 404),
        ]
        for (target, status) in cases {
            let answer = RawHTTP.get(port: server.port, target)
            XCTAssertEqual(answer?.status, status, "\(target.prefix(120)): \(answer?.text.prefix(200) ?? "no answer")")
            if let answer, answer.status >= 400 {
                let body = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
                XCTAssertNotNil((body?["error"] as? [String: Any])?["code"] as? String, "\(target.prefix(120)): \(answer.text.prefix(200))")
            }
        }
        // A request line or headers past the HTTP parser's bounds (80 KB): refused by it
        // (400, no body), not read into memory.
        XCTAssertEqual(RawHTTP.get(port: server.port, "/v1/demo/stops?search=" + long)?.status, 400)
        let hugeHeader = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 200_000))\r\n\r\n"
        if let answer = RawHTTP.exchange(port: server.port, Array(hugeHeader.utf8)) { XCTAssertGreaterThanOrEqual(answer.status, 400) }
        // Not HTTP at all.
        _ = RawHTTP.exchange(port: server.port, Array("\u{0}\u{1}\u{2}garbage\r\n\r\n".utf8))
        // Bodies: too large, declared and never sent, too many lines.
        XCTAssertEqual(RawHTTP.post(port: server.port, "/v1/demo/batch", body: [UInt8](repeating: 0x20, count: 5 << 20))?.status, 413)
        let stalled = RawHTTP.exchange(
            port: server.port, Array("POST /v1/demo/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"op\"".utf8), timeout: 20)
        XCTAssertEqual(stalled?.status, 408)
        let manyLines = String(repeating: "{\"op\":\"info\"}\n", count: 10_001)
        XCTAssertEqual(RawHTTP.post(port: server.port, "/v1/demo/batch", body: Array(manyLines.utf8))?.status, 400)

        // Half-sent requests and thousands of idle connections do not stop the others.
        var sockets: [Int32] = []
        defer {
            for fd in sockets { close(fd) }
        }
        raiseOwnFileLimit()
        for index in 0..<2_000 {
            let fd = RawHTTP.connect(port: server.port)
            guard fd >= 0 else { break }
            if index % 10 == 0 { _ = "GET /healthz HTTP/1.1\r\nHo".withCString { send(fd, $0, 24, Int32(MSG_NOSIGNAL)) } }
            sockets.append(fd)
        }
        XCTAssertGreaterThan(sockets.count, 1_500)
        let meanwhile = RawHTTP.get(port: server.port, "/v1/demo/info")
        XCTAssertEqual(meanwhile?.status, 200)
        XCTAssertEqual(RawHTTP.get(port: server.port, "/readyz")?.status, 200)
        // The idle ones are closed after the idle time-out: a read gets the end of the stream.
        let first = sockets[1]
        var byte: UInt8 = 0
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(first, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        XCTAssertEqual(recv(first, &byte, 1, 0), 0, "an idle connection was not closed")
        for fd in sockets { close(fd) }
        sockets.removeAll()

        XCTAssertTrue(server.isRunning)
        XCTAssertEqual(RawHTTP.get(port: server.port, "/readyz")?.status, 200)
        let rssAfter = try XCTUnwrap(server.residentKilobytes)
        print("resident memory: \(rssBefore) kB before, \(rssAfter) kB after")
        XCTAssertLessThan(rssAfter, rssBefore + 200_000, "resident memory grew from \(rssBefore) kB to \(rssAfter) kB")
        // No 5xx was counted.
        let metrics = try XCTUnwrap(RawHTTP.get(port: server.port, "/metrics")).text
        XCTAssertFalse(metrics.contains(#"status="5"#), metrics)
    }

    private func raiseOwnFileLimit() {
        var limit = rlimit()
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
