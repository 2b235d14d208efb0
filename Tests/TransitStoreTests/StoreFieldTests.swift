import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import TransitStore
import XCTest

/// The store against Debian's nginx (and tinyproxy as a forward proxy), configured the ways
/// real download servers are: redirects, gzip on the fly and precompressed, chunked bodies,
/// slow links, IPv6, names with spaces, https with a self-signed certificate, a file that is
/// shorter than the manifest says. `make deps` installs both servers.
final class StoreFieldTests: XCTestCase {
    /// The served folder: metro-1.db, valley.db, their .gz, "valley copy.db", v1.json (both),
    /// spaced.json (metro-1.db and "valley copy.db"), truncated/ (v1.json with its files cut).
    final class Site: @unchecked Sendable {
        let folder = TemporaryFolders.make()
        let nginx: NginxServer

        init() throws {
            guard NginxServer.executable != nil else { throw TestPaths.missing("nginx is not installed; make deps installs it") }
            let fixture = try StoreFixture()
            let manager = FileManager.default
            let folder = self.folder
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            for name in ["metro-1.db", "valley.db"] {
                try manager.copyItem(atPath: fixture.path(name), toPath: folder.appendingPathComponent(name).path)
            }
            try manager.copyItem(atPath: fixture.path("valley.db"), toPath: folder.appendingPathComponent("valley copy.db").path)
            try BundleManifest(bundles: [path("metro-1.db"), path("valley.db")]).write(to: path("v1.json"))
            try BundleManifest(bundles: [path("metro-1.db"), path("valley copy.db")]).write(to: path("spaced.json"))
            for name in ["metro-1.db", "valley.db", "v1.json"] {
                try ServerProcess.runTool("/bin/gzip", ["-6", "-k", "-n", "-f", path(name)])
            }
            try manager.createDirectory(at: folder.appendingPathComponent("truncated"), withIntermediateDirectories: true)
            try manager.copyItem(atPath: path("v1.json"), toPath: path("truncated/v1.json"))
            for name in ["metro-1.db", "valley.db"] {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path(name)))
                try bytes.prefix(bytes.count - 5000).write(to: URL(fileURLWithPath: path("truncated/" + name)))
            }
            nginx = try NginxServer(serving: folder)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func sha256(_ name: String) throws -> String { try StoreDownloadTests.sha256sum(path(name)) }

        /// The manifest's gzip size of a bundle.
        func gzipBytes(_ name: String) throws -> Int64 {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("v1.json")))) as? [String: Any]
            let bundles = json?["bundles"] as? [[String: Any]] ?? []
            return Int64(bundles.first { $0["file"] as? String == name }?["gzip_bytes"] as? Int ?? -1)
        }
    }

    func store(
        _ folder: URL = TemporaryFolders.make(), timeout: Double = 5, retries: Int = 2, trusting: [String] = [],
        environment: [String: String] = [:]
    ) throws -> BundleStore {
        #if canImport(AsyncHTTPClient)
            let transport: any StoreTransport = HTTPClientTransport(
                timeout: timeout, trustedCertificates: trusting, environment: environment)
        #else
            let transport = BundleStore.defaultTransport(timeout: timeout, trustedCertificates: trusting)
        #endif
        return try BundleStore(
            directory: folder.path, transport: transport, retries: RetryPolicy(limit: retries, firstPause: 0.05, maxPause: 0.2))
    }

    /// Downloads both bundles of the manifest at `url`; each installed file equals the served one.
    func downloadBoth(_ store: BundleStore, manifest url: URL, site: Site, file: StaticString = #filePath, line: UInt = #line) async throws
    {
        try await store.refreshCatalogue(from: url)
        for id in ["metro", "valley"] {
            let job = try await store.download(id, explicit: true)
            let state = await job.finished()
            XCTAssertEqual(state, .done, "\(id) from \(url)", file: file, line: line)
        }
        let status = try await store.status(on: TestClock.metroDay)
        XCTAssertEqual(status.map(\.id), ["metro", "valley"], file: file, line: line)
        for bundle in status {
            XCTAssertEqual(
                try StoreDownloadTests.sha256sum(bundle.path), try site.sha256(bundle.id == "metro" ? "metro-1.db" : "valley.db"),
                file: file, line: line)
        }
    }

    func testRedirectsAreFollowedAndNamesResolveAgainstTheFinalURL() async throws {
        let site = try Site()
        for prefix in ["moved", "found", "temporary", "permanent"] {
            try await downloadBoth(try store(), manifest: site.nginx.url("\(prefix)/v1.json"), site: site)
        }
        let statuses = Set(site.nginx.log().filter { !$0.uri.hasPrefix("/files/") }.map(\.status))
        XCTAssertEqual(statuses, [301, 302, 307, 308])
        // /latest/v1.json answers 307 to /releases/v1.json: the bundles are fetched from /releases/.
        try await downloadBoth(try store(), manifest: site.nginx.url("latest/v1.json"), site: site)
        let releases = site.nginx.log().filter { $0.uri.hasPrefix("/releases/") }.map(\.uri)
        XCTAssertEqual(releases, ["/releases/v1.json", "/releases/metro-1.db", "/releases/valley.db"])
    }

    func testGzipOnTheWireCostsTheManifestsGzipBytesAndChunkedBodiesArrive() async throws {
        let site = try Site()
        // On the fly (chunked), precompressed, precompressed for everyone, chunked identity.
        for prefix in ["gzip", "gzip-static", "gzip-always", "chunked"] {
            try await downloadBoth(try store(), manifest: site.nginx.url("\(prefix)/v1.json"), site: site)
        }
        let log = site.nginx.log()
        for prefix in ["gzip", "gzip-static", "gzip-always"] {
            for name in ["metro-1.db", "valley.db"] {
                let request = try XCTUnwrap(log.first { $0.uri == "/\(prefix)/\(name)" })
                XCTAssertEqual(request.contentEncoding, "gzip", request.uri)
                let listed = try site.gzipBytes(name)
                XCTAssertLessThanOrEqual(
                    abs(Double(request.bodyBytes - listed)) / Double(listed), 0.05,
                    "\(request.uri): \(request.bodyBytes) bytes on the wire, the manifest says \(listed) gzip bytes")
            }
        }
        let chunked = try XCTUnwrap(log.first { $0.uri == "/chunked/metro-1.db" })
        XCTAssertNil(chunked.contentEncoding)
    }

    func testIPv6LiteralsAndNamesWithSpaces() async throws {
        let site = try Site()
        let manifest = try String(contentsOfFile: site.path("spaced.json"), encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"file\" : \"valley%20copy.db\""), manifest)
        let store = try store()
        try await store.refreshCatalogue(from: site.nginx.url("files/spaced.json"))
        let state = try await store.download("valley").finished()
        XCTAssertEqual(state, .done)
        XCTAssertTrue(site.nginx.log().contains { $0.uri == "/files/valley%20copy.db" && $0.status == 200 })
        // A manifest of an older compiler names the file unencoded: it is encoded on the way.
        try manifest.replacingOccurrences(of: "%20", with: " ").write(
            toFile: site.path("unencoded.json"), atomically: true, encoding: .utf8)
        let older = try self.store()
        try await older.refreshCatalogue(from: site.nginx.url("files/unencoded.json"))
        let olderState = try await older.download("valley").finished()
        XCTAssertEqual(olderState, .done)
        guard site.nginx.ipv6 else { throw XCTSkip("this machine has no IPv6 loopback") }
        try await downloadBoth(try self.store(), manifest: site.nginx.ipv6URL("files/v1.json"), site: site)
    }

    func testAnUntrustedCertificateFailsAtOnceAndATrustedOneWorks() async throws {
        let site = try Site()
        let store = try store(retries: 5)
        do {
            try await store.refreshCatalogue(from: site.nginx.httpsURL("files/v1.json"))
            XCTFail("a self-signed certificate was accepted")
        } catch StoreError.transfer(let reason, let transient, let failure) {
            XCTAssertFalse(transient, reason)
            XCTAssertTrue(reason.contains("certificate"), reason)
            XCTAssertEqual(failure, .tls)
        }
        // A transient error would be retried (five times here): a certificate error is final.
        XCTAssertFalse(site.nginx.log().contains { $0.uri == "/files/v1.json" }, "no request got past the handshake")
        try await downloadBoth(
            try self.store(trusting: [site.nginx.certificate.path]), manifest: site.nginx.httpsURL("files/v1.json"), site: site)
    }

    func testAForwardProxyCarriesHTTPAndHTTPS() async throws {
        let site = try Site()
        guard ForwardProxy.executable != nil else { throw TestPaths.missing("tinyproxy is not installed; make deps installs it") }
        let proxy = try ForwardProxy()
        let environment = ["http_proxy": "http://127.0.0.1:\(proxy.port)", "https_proxy": "http://127.0.0.1:\(proxy.port)"]
        try await downloadBoth(try store(environment: environment), manifest: site.nginx.url("files/v1.json"), site: site)
        try await downloadBoth(
            try store(trusting: [site.nginx.certificate.path], environment: environment),
            manifest: site.nginx.httpsURL("files/v1.json"), site: site)
        // AsyncHTTPClient tunnels plain http through CONNECT as well.
        let log = proxy.log()
        let tunnels = log.components(separatedBy: "\n").filter { $0.contains("Request") && $0.contains("CONNECT") }
        XCTAssertEqual(tunnels.filter { $0.contains("127.0.0.1:\(site.nginx.port) ") }.count, 3, log)
        XCTAssertEqual(tunnels.filter { $0.contains("127.0.0.1:\(site.nginx.httpsPort) ") }.count, 3, log)
        // no_proxy sends the host past the proxy.
        let direct = try store(environment: environment.merging(["no_proxy": "127.0.0.1"]) { $1 })
        try await direct.refreshCatalogue(from: site.nginx.url("files/spaced.json"))
        XCTAssertEqual(proxy.log().components(separatedBy: "\n").filter { $0.contains("Request") }.count, 6)
        XCTAssertTrue(site.nginx.log().contains { $0.uri == "/files/spaced.json" })
    }

    func testAFileShorterThanTheManifestSaysIsReportedAsSuch() async throws {
        let site = try Site()
        let store = try store(retries: 3)
        try await store.refreshCatalogue(from: site.nginx.url("truncated/v1.json"))
        let job = try await store.download("metro")
        guard case .failed(.transfer(let reason, transient: false, _)) = await job.finished() else { return XCTFail("\(job.state)") }
        XCTAssertTrue(reason.contains("shorter"), reason)
        XCTAssertTrue(
            reason.contains("manifest lists \(try Data(contentsOf: URL(fileURLWithPath: site.path("metro-1.db"))).count)"), reason)
        // Not a 416 status (the server's port, which is random, may hold those digits).
        XCTAssertFalse(reason.replacingOccurrences(of: "127.0.0.1:\(site.nginx.port)", with: "").contains("416"), reason)
        XCTAssertEqual(site.nginx.log().filter { $0.uri == "/truncated/metro-1.db" }.count, 1, "not retried")
    }

    /// `transit-store download` killed halfway through a slow download, then run again: the
    /// second run asks for the rest with Range and If-Range, and the file verifies.
    func testAKilledDownloadResumesWithARangeRequest() async throws {
        let site = try Site()
        let folder = TemporaryFolders.make()
        let manifest = site.nginx.url("slow/v1.json").absoluteString
        let first = try StoreCommandLineTests.start(folder, ["manifest", manifest])
        first.waitUntilExit()
        let download = try StoreCommandLineTests.start(folder, ["download", "metro"])
        let part = folder.appendingPathComponent("downloads")
        func partBytes() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: part.path)) ?? []
            return names.compactMap { (try? FileManager.default.attributesOfItem(atPath: part.path + "/" + $0)[.size] as? Int) ?? 0 }.max()
                ?? 0
        }
        TestClock.wait(upTo: 20, every: 0.02) { partBytes() >= 16_000 }
        kill(download.processIdentifier, SIGKILL)
        download.waitUntilExit()
        let kept = partBytes()
        XCTAssertGreaterThan(kept, 0)
        let again = try StoreCommandLineTests.start(folder, ["resume"])
        again.waitUntilExit()
        XCTAssertEqual(again.terminationStatus, 0)
        let ranged = try XCTUnwrap(site.nginx.log().last { $0.uri == "/slow/metro-1.db" })
        XCTAssertEqual(ranged.status, 206)
        // The rest, from at most the bytes the killed run left (the store may drop an unsynced tail).
        let from = try XCTUnwrap(ranged.range.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) }, "\(ranged)")
        XCTAssertTrue(ranged.range?.hasPrefix("bytes=") == true && ranged.range?.hasSuffix("-") == true, "\(ranged)")
        XCTAssertTrue((1...kept).contains(from), "resumed from \(from) of \(kept) bytes kept")
        let whole = try XCTUnwrap(site.nginx.log().first { $0.uri == "/slow/metro-1.db" })
        XCTAssertNil(whole.ifRange, "the first request asks for the whole file")
        let validator = try XCTUnwrap(ranged.ifRange, "the resumed request carries If-Range")
        XCTAssertFalse(validator.isEmpty)
        XCTAssertEqual(
            try StoreDownloadTests.sha256sum(folder.appendingPathComponent("bundles/metro.db").path), try site.sha256("metro-1.db"))
    }
}
