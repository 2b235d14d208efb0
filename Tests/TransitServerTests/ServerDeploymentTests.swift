import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// The server as deployed: bundles replaced under load, SIGTERM draining, and Debian's nginx
/// in front of two replicas, one of them killed under load.
final class ServerDeploymentTests: XCTestCase {
    static let query = "/v1/metro/departures?stop=CENTRAL&at=2026-03-30T08:30&window=60"

    /// Two versions of the metro sample (the second moves a trip, so boards differ).
    func versions() throws -> (v1: String, v2: String, hash1: String, hash2: String) {
        let v1 = try TestFeeds.compileMetro(TestSupport.samples + "/metro")
        let v2 = try TestFeeds.compileMetro(try TestFeeds.metroNextVersion())
        func hash(_ path: String) throws -> String {
            let info = try SameAnswers.run("transit-query", ["info", "--bundle", path, "--json"])
            let object = try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any]
            return try XCTUnwrap(object?["content_sha256"] as? String)
        }
        return (v1, v2, try hash(v1), try hash(v2))
    }

    /// Installs `source` at `path` as a new version would be: a copy beside it renamed over it.
    func install(_ source: String, at path: String) throws {
        let staging = path + ".new"
        try? FileManager.default.removeItem(atPath: staging)
        try FileManager.default.copyItem(atPath: source, toPath: staging)
        XCTAssertEqual(rename(staging, path), 0)
    }

    /// Requests from `threads` threads until `stop` is set: each thread's statuses and
    /// content hashes in order.
    final class Load: @unchecked Sendable {
        let results = Locked<[[(status: Int, hash: String?)]]>([])
        let stopping = Locked(false)
        let group = DispatchGroup()

        init(threads: Int, port: Int, target: String) {
            results.withLock { $0 = Array(repeating: [], count: threads) }
            for thread in 0..<threads {
                group.enter()
                Thread.detachNewThread { [self] in
                    while !stopping.withLock({ $0 }) {
                        let answer = RawHTTP.get(port: port, target)
                        results.withLock { $0[thread].append((answer?.status ?? 0, answer?.header("X-Bundle-Content-Hash"))) }
                    }
                    group.leave()
                }
            }
        }

        var count: Int { results.withLock { $0.reduce(0) { $0 + $1.count } } }

        func stop() -> [[(status: Int, hash: String?)]] {
            stopping.withLock { $0 = true }
            group.wait()
            return results.withLock { $0 }
        }

        /// Waits until `condition` holds for the answers so far (up to 30 s).
        func wait(until condition: @escaping ([[(status: Int, hash: String?)]]) -> Bool) -> Bool {
            TestClock.wait(upTo: 30, every: 0.01) { self.results.withLock { condition($0) } }
        }
    }

    func testANewVersionIsSwappedInUnderLoadWithoutAFailedRequest() throws {
        let (v1, v2, hash1, hash2) = try versions()
        XCTAssertNotEqual(hash1, hash2)
        let path = TemporaryFolders.make().appendingPathComponent("metro.db").path
        try install(v1, at: path)
        let server = try ServerUnderTest(["--bundle", "metro=\(path)", "--bundle-check-interval", "0.2", "--log-level", "warning"])
        defer { server.kill() }
        let load = Load(threads: 4, port: server.port, target: Self.query)
        XCTAssertTrue(load.wait { $0.allSatisfy { $0.count >= 20 } })
        try install(v2, at: path)
        XCTAssertTrue(
            load.wait { threads in threads.allSatisfy { $0.suffix(20).count == 20 && $0.suffix(20).allSatisfy { $0.hash == hash2 } } })
        let results = load.stop()
        let all = results.flatMap { $0 }
        print("swap under load: \(all.count) requests, \(all.filter { $0.hash == hash1 }.count) on v1")
        XCTAssertEqual(all.filter { $0.status != 200 }.count, 0, "failed requests during the swap")
        for thread in results {
            // Once a thread has an answer of the new version, it never gets the old one again.
            if let first = thread.firstIndex(where: { $0.hash == hash2 }) {
                XCTAssertFalse(thread[first...].contains { $0.hash == hash1 })
            }
        }
        // The new version's answer, as the command line gives it from the new file.
        let expected = try SameAnswers.run(
            "transit-query", ["departures", "--bundle", v2, "--stop", "CENTRAL", "--at", "2026-03-30T08:30", "--window", "60", "--json"])
        XCTAssertEqual(RawHTTP.get(port: server.port, Self.query)?.body, expected.stdout)

        // SIGHUP checks at once (a longer interval would not have noticed yet).
        let slow = try ServerUnderTest(["--bundle", "metro=\(path)", "--bundle-check-interval", "3600", "--log-level", "warning"])
        defer { slow.kill() }
        try install(v1, at: path)
        slow.hangUp()
        XCTAssertTrue(TestClock.wait(upTo: 20) { RawHTTP.get(port: slow.port, Self.query)?.header("X-Bundle-Content-Hash") == hash1 })
        // A damaged new version is refused; the old one goes on serving.
        try Data("not a bundle".utf8).write(to: URL(fileURLWithPath: path + ".bad"))
        XCTAssertEqual(rename(path + ".bad", path), 0)
        slow.hangUp()
        XCTAssertTrue(TestClock.wait(upTo: 20) { slow.logText.contains("new version refused") }, slow.logText)
        XCTAssertEqual(RawHTTP.get(port: slow.port, Self.query)?.header("X-Bundle-Content-Hash"), hash1)
    }

    /// SIGTERM: the request in flight is answered in full, then the process exits 0.
    func testSigtermDrainsTheRequestInFlight() throws {
        let server = try ServerUnderTest(["--bundle", "demo=\(TestSupport.sampleBundlePath)", "--log-level", "warning"])
        defer { server.kill() }
        let fd = RawHTTP.connect(port: server.port)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let line = #"{"op":"info"}"# + "\n"
        let head = "POST /v1/demo/batch HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(line.utf8.count)\r\n\r\n"
        _ = head.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        // The head is sent and the body is not: the request is in flight (its handler waits for
        // the body). A request answered on another connection after it proves the server has
        // read what came before.
        XCTAssertEqual(RawHTTP.get(port: server.port, "/healthz")?.status, 200)
        kill(server.pid, SIGTERM)
        // New connections are refused once the drain starts.
        XCTAssertTrue(TestClock.wait(upTo: 10) { RawHTTP.get(port: server.port, "/healthz") == nil })
        _ = line.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200"), text)
        XCTAssertTrue(text.contains(#"{"info":{"bundle_id""#), text)
        XCTAssertEqual(server.terminate(), 0, server.logText)
    }

    /// nginx in front of two replicas sharing one bundle file; under load the file gets a new
    /// version and one replica is killed: no request fails, and the answers after the swap
    /// carry the new version's content hash.
    func testTwoReplicasBehindNginxLoseNoRequest() throws {
        guard let nginx = NginxServer.executable else {
            if TestPaths.mustNotSkip { throw TestPaths.missing("nginx") }
            throw XCTSkip("nginx is not installed (make deps installs it)")
        }
        let (v1, v2, _, hash2) = try versions()
        let path = TemporaryFolders.make().appendingPathComponent("metro.db").path
        try install(v1, at: path)
        let arguments = ["--bundle", "metro=\(path)", "--bundle-check-interval", "0.2", "--log-level", "warning"]
        let replicas = [try ServerUnderTest(arguments), try ServerUnderTest(arguments)]
        defer {
            for replica in replicas { replica.kill() }
        }
        let balancer = try NginxBalancer(nginx: nginx, upstreams: replicas.map(\.port))
        defer { balancer.stop() }
        let load = Load(threads: 4, port: balancer.port, target: Self.query)
        XCTAssertTrue(load.wait { $0.allSatisfy { $0.count >= 20 } })
        try install(v2, at: path)
        replicas[0].kill()
        XCTAssertTrue(
            load.wait { threads in threads.allSatisfy { $0.suffix(30).count == 30 && $0.suffix(30).allSatisfy { $0.hash == hash2 } } })
        let results = load.stop().flatMap { $0 }
        print("behind nginx: \(results.count) requests, \(results.filter { $0.status != 200 }.count) failed")
        XCTAssertEqual(results.filter { $0.status != 200 }.count, 0, "failed requests: \(Set(results.map(\.status)))")
        XCTAssertEqual(RawHTTP.get(port: balancer.port, Self.query)?.header("X-Bundle-Content-Hash"), hash2)
    }
}

/// Debian's nginx as a load balancer: `upstream` over the replicas, idempotent requests
/// retried on the next one when a peer fails (docs/deployment.md shows the same configuration).
final class NginxBalancer {
    let port: Int
    private let server: ServerProcess

    init(nginx: String, upstreams: [Int]) throws {
        let folder = TemporaryFolders.make()
        port = try ServerProcess.freePort()
        let temp = folder.path
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(temp)/error.log warn;
            pid \(temp)/nginx.pid;
            events { worker_connections 1024; }
            http {
              access_log off;
              client_body_temp_path \(temp)/body; proxy_temp_path \(temp)/proxy; fastcgi_temp_path \(temp)/fastcgi;
              uwsgi_temp_path \(temp)/uwsgi; scgi_temp_path \(temp)/scgi;
              upstream transit {
                \(upstreams.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=10s;" }.joined(separator: "\n    "))
                keepalive 32;
              }
              server {
                listen 127.0.0.1:\(port);
                location / {
                  proxy_pass http://transit;
                  proxy_http_version 1.1;
                  proxy_set_header Connection "";
                  proxy_next_upstream error timeout http_502 http_503;
                  proxy_next_upstream_tries 3;
                  proxy_connect_timeout 2s;
                  proxy_read_timeout 30s;
                }
              }
            }
            """
        let file = folder.appendingPathComponent("nginx.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        server = try ServerProcess(
            nginx, ["-c", file.path, "-p", temp, "-e", "\(temp)/error.log"], log: folder.appendingPathComponent("out.log"))
        try server.waitUntilListening(port: port)
    }

    func stop() { server.stop() }
}

/// `--store DIR`: every installed bundle of a store folder, served by its catalogue id; an
/// update the store installs from a new manifest (a patch), and a bundle it installs later,
/// are served within the check interval.
final class ServerStoreTests: XCTestCase {
    func testAStoresUpdateIsServedWithoutARestart() async throws {
        let site = try StoreFixture()
        let folder = TemporaryFolders.make()
        let store = try site.store(in: folder)
        _ = try await store.refreshCatalogue(from: site.server.url("v1.json"))
        let first = try await store.download("metro", explicit: true).finished()
        XCTAssertEqual(first, .done)
        let server = try ServerUnderTest(["--store", folder.path, "--bundle-check-interval", "0.2", "--log-level", "warning"])
        defer { server.kill() }
        func hash(_ path: String) throws -> String? {
            let info = try SameAnswers.run("transit-query", ["info", "--bundle", path, "--json"])
            return (try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])?["content_sha256"] as? String
        }
        let target = "/v1/metro/departures?stop=CENTRAL&at=2026-03-30T08:30&window=60"
        XCTAssertEqual(RawHTTP.get(port: server.port, target)?.header("X-Bundle-Content-Hash"), try hash(site.path("metro-1.db")))
        _ = try await store.refreshCatalogue(from: site.server.url("v2.json"))
        let update = try await store.update("metro")
        let updated = await update?.finished()
        XCTAssertEqual(updated, .done)
        let second = try XCTUnwrap(try hash(site.path("metro-2.db")))
        XCTAssertTrue(
            TestClock.wait(upTo: 20) { RawHTTP.get(port: server.port, target)?.header("X-Bundle-Content-Hash") == second }, server.logText)
        let installed = try await store.status(on: TestClock.metroDay).first { $0.id == "metro" }
        let expected = try SameAnswers.run(
            "transit-query",
            [
                "departures", "--bundle", try XCTUnwrap(installed?.path), "--stop", "CENTRAL", "--at", "2026-03-30T08:30", "--window", "60",
                "--json",
            ])
        XCTAssertEqual(RawHTTP.get(port: server.port, target)?.body, expected.stdout)

        // A bundle the store installs after the server started is served too, and named in
        // the OpenAPI document's bundle names.
        XCTAssertEqual(RawHTTP.get(port: server.port, "/v1/valley/info")?.status, 404)
        let valley = await (try store.download("valley", explicit: true)).finished()
        XCTAssertEqual(valley, .done)
        XCTAssertTrue(TestClock.wait(upTo: 20) { RawHTTP.get(port: server.port, "/v1/valley/info")?.status == 200 }, server.logText)
        let info = try SameAnswers.run("transit-query", ["info", "--bundle", site.path("valley.db"), "--json"])
        XCTAssertEqual(RawHTTP.get(port: server.port, "/v1/valley/info")?.body, info.stdout)
        let document = try XCTUnwrap(RawHTTP.get(port: server.port, "/openapi.json")).text
        XCTAssertTrue(document.contains(#""enum":["metro","valley"]"#), String(document.prefix(600)))
    }
}
