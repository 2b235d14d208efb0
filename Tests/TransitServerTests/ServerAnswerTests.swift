import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Every command that reads a bundle, asked of `transit-server` and of `transit-query
/// --json` on the sample bundle: the same body byte for byte, the same outcome.
final class ServerAnswerTests: XCTestCase {
    static let server = Locked<ServerUnderTest?>(nil)

    /// One server for the class, serving the sample bundle as "demo".
    func demoServer() throws -> ServerUnderTest {
        try Self.server.withLock { server in
            if let server { return server }
            let started = try ServerUnderTest(["--bundle", "demo=\(TestSupport.sampleBundlePath)", "--now", "2026-03-30T08:00:00+02:00"])
            server = started
            return started
        }
    }

    override class func tearDown() {
        server.withLock { $0?.kill() }
        super.tearDown()
    }

    typealias Q = SameAnswers.Query

    static let queries: [Q] = [
        Q(command: "departures", parameters: [("stop", "CENTRAL"), ("at", "2026-03-28T23:50"), ("window", "120")]),
        Q(command: "departures", parameters: [("stop", "CENTRAL_1"), ("stop", "BELLEVUE"), ("at", "2026-03-30T07:55"), ("limit", "3")]),
        Q(command: "departures", parameters: [("stop", "HUB"), ("at", "2026-03-30T07:00:00Z"), ("window", "600")]),
        Q(command: "departures", parameters: [("stop", "CENTRAL"), ("at", "2026-03-30T08:00"), ("lang", "fr")]),
        Q(command: "arrivals", parameters: [("stop", "BELLEVUE"), ("at", "2026-03-30T08:00")]),
        Q(command: "stops", parameters: [("search", "zurich")]),
        Q(command: "stops", parameters: [("search", "café corner"), ("limit", "2")]),
        Q(command: "stops", parameters: [("near", "47.3779,8.5403"), ("radius", "2000")]),
        Q(command: "trip", parameters: [("trip", "T4_WK_0800"), ("date", "2026-03-30")]),
        Q(command: "shape", parameters: [("trip", "T4_WK_0800")]),
        Q(command: "shape", parameters: [("route", "T4")]),
        Q(command: "agencies", parameters: []),
        Q(command: "agencies", parameters: [("feed", "valley")]),
        Q(command: "routes", parameters: []),
        Q(command: "routes", parameters: [("stop", "CENTRAL")]),
        Q(command: "route", parameters: [("route", "T4")]),
        Q(command: "nearest", parameters: [("near", "47.37,8.54"), ("count", "3")]),
        Q(command: "transfers", parameters: [("stop", "CENTRAL")]),
        Q(command: "info", parameters: []),
        Q(command: "city", parameters: [("id", "zurich")]),
        Q(command: "cities", parameters: [("search", "lisboa")]),
        Q(command: "cities", parameters: [("near", "47.37,8.54"), ("limit", "2")]),
        Q(command: "cities", parameters: [("country", "CH")]),
        Q(command: "plan", parameters: [("from", "CENTRAL"), ("to", "BELLEVUE"), ("at", "2026-03-30T07:55")]),
        Q(command: "plan", parameters: [("from", "CENTRAL"), ("to", "BELLEVUE"), ("at", "2026-03-30T09:00"), ("arrive-by", "true")]),
        Q(
            command: "plan",
            parameters: [
                ("from", "47.3779,8.5403"), ("to", "BELLEVUE"), ("at", "2026-03-30T07:55"), ("window", "60"), ("wheelchair", "true"),
            ]),
        Q(command: "fare", parameters: [("from", "CENTRAL"), ("to", "BELLEVUE"), ("at", "2026-03-30T07:55")]),
        // Not found: exit 1, 404.
        Q(command: "departures", parameters: [("stop", "NOPE"), ("at", "2026-03-30T08:00")]),
        Q(command: "trip", parameters: [("trip", "NOPE"), ("date", "2026-03-30")]),
        Q(command: "route", parameters: [("route", "NOPE")]),
        Q(command: "city", parameters: [("id", "atlantis")]),
        // Bad input: exit 64, 400.
        Q(command: "departures", parameters: [("stop", "CENTRAL"), ("at", "yesterday")]),
        Q(command: "departures", parameters: [("stop", "CENTRAL"), ("at", "2026-03-30T08:00"), ("window", "-5")]),
        Q(command: "stops", parameters: [("search", "a b c d e f g h i j k l m n o p q r")]),
        Q(command: "plan", parameters: [("from", "CENTRAL"), ("to", "BELLEVUE"), ("at", "2026-03-30T08:00"), ("max-transfers", "99")]),
        Q(command: "plan", parameters: [("from", "CENTRAL"), ("to", "BELLEVUE"), ("at", "2026-03-30T08:00"), ("window", "100000")]),
        Q(command: "departures", parameters: [("stop", "CENTRAL"), ("at", "2026-03-30T08:00"), ("lang", "not a tag")]),
    ]

    func testEveryCommandAnswersAsTheCommandLine() throws {
        let server = try demoServer()
        var statuses: [Int: Int] = [:]
        for query in Self.queries {
            let status = try SameAnswers.check(query, server: server, name: "demo", bundle: TestSupport.sampleBundlePath)
            statuses[status, default: 0] += 1
        }
        // The list exercises answers, not-founds and bad input.
        XCTAssertGreaterThanOrEqual(statuses[200] ?? 0, 25, "\(statuses)")
        XCTAssertEqual(statuses[404], 4, "\(statuses)")
        XCTAssertEqual(statuses[400], 7, "\(statuses)")
    }

    /// The seed's shape is the departures query at that time today (the server's clock's day
    /// in the stop's feed time zone).
    func testSeedShapeIsTodaysDepartures() throws {
        let server = try demoServer()
        let seed = try XCTUnwrap(RawHTTP.get(port: server.port, "/v1/demo/stops/CENTRAL/departures?time=07:55&limit=4"))
        let plain = try XCTUnwrap(RawHTTP.get(port: server.port, "/v1/demo/departures?stop=CENTRAL&at=2026-03-30T07:55&limit=4"))
        XCTAssertEqual(seed.status, 200, seed.text)
        XCTAssertEqual(seed.body, plain.body)
        XCTAssertGreaterThan(seed.text.count, 10)
        XCTAssertEqual(RawHTTP.get(port: server.port, "/v1/demo/stops/CENTRAL/departures?time=25:00")?.status, 400)
        XCTAssertEqual(RawHTTP.get(port: server.port, "/v1/demo/stops/NOPE/departures?time=08:00")?.status, 404)
    }

    /// Without `at`, a query asks about the server's clock (`--now`), as the command line
    /// asks about its own.
    func testTheServersClockIsTheDefaultTime() throws {
        let server = try demoServer()
        let implicit = try XCTUnwrap(RawHTTP.get(port: server.port, "/v1/demo/departures?stop=CENTRAL&limit=5"))
        let explicit = try XCTUnwrap(
            RawHTTP.get(port: server.port, "/v1/demo/departures?stop=CENTRAL&limit=5&at=2026-03-30T08:00:00%2B02:00"))
        XCTAssertEqual(implicit.status, 200)
        XCTAssertEqual(implicit.body, explicit.body)
    }

    /// A batch body is answered as `transit-query batch` answers the same lines.
    func testBatchAnswersAsTheCommandLine() throws {
        let server = try demoServer()
        let lines = [
            #"{"op":"info","id":1}"#, #"{"op":"stops","search":"zur","id":"two"}"#,
            #"{"op":"departures","stop":"CENTRAL","at":"2026-03-30T08:00","limit":3}"#, "not json", "",
            #"{"op":"plan","from":"CENTRAL","to":"BELLEVUE","at":"2026-03-30T07:55","id":9007199254740993123}"#,
            #"{"op":"nope"}"#,
        ].joined(separator: "\n")
        let http = try XCTUnwrap(RawHTTP.post(port: server.port, "/v1/demo/batch", body: Array(lines.utf8)))
        XCTAssertEqual(http.status, 200)
        let process = Process()
        process.executableURL = TestPaths.products.appendingPathComponent("transit-query")
        process.arguments = ["batch", "--bundle", TestSupport.sampleBundlePath, "--jobs", "1"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(lines.utf8))
        try input.fileHandleForWriting.close()
        let expected = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(http.text, String(decoding: expected, as: UTF8.self))
        XCTAssertEqual(http.text.split(separator: "\n").count, 6)
    }

    /// ETag, 304, Cache-Control, the content hash, gzip.
    func testCachingHeadersAndGzip() throws {
        let server = try demoServer()
        let target = "/v1/demo/departures?stop=CENTRAL&at=2026-03-30T07:00&window=600"
        let first = try XCTUnwrap(RawHTTP.get(port: server.port, target))
        let info =
            try JSONSerialization.jsonObject(with: try XCTUnwrap(RawHTTP.get(port: server.port, "/v1/demo/info")).body) as? [String: Any]
        XCTAssertEqual(first.header("X-Bundle-Content-Hash"), info?["content_sha256"] as? String)
        XCTAssertEqual(first.header("Cache-Control"), "no-cache")
        let tag = try XCTUnwrap(first.header("ETag"))
        let again = try XCTUnwrap(RawHTTP.get(port: server.port, target, headers: ["If-None-Match": tag]))
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
        XCTAssertEqual(RawHTTP.get(port: server.port, target, headers: ["If-None-Match": "\"other\""])?.status, 200)
        let zipped = try XCTUnwrap(RawHTTP.get(port: server.port, target, headers: ["Accept-Encoding": "gzip"]))
        XCTAssertEqual(zipped.header("Content-Encoding"), "gzip")
        XCTAssertNotEqual(zipped.header("ETag"), tag)
        XCTAssertLessThan(zipped.body.count, first.body.count)
        // gunzip gives the plain body back.
        let folder = TemporaryFolders.make()
        let gz = folder.appendingPathComponent("body.json.gz")
        try zipped.body.write(to: gz)
        try ServerProcess.runTool("/usr/bin/gzip", ["-d", gz.path])
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("body.json")), first.body)
        XCTAssertEqual(RawHTTP.get(port: server.port, target, headers: ["Accept-Encoding": "gzip;q=0"])?.header("Content-Encoding"), nil)
    }

    /// healthz, readyz, metrics (counting the requests made), openapi, the bundle list.
    func testOperationsEndpoints() throws {
        let server = try demoServer()
        XCTAssertEqual(RawHTTP.get(port: server.port, "/healthz")?.status, 200)
        let ready = try XCTUnwrap(RawHTTP.get(port: server.port, "/readyz"))
        XCTAssertEqual(ready.status, 200, ready.text)
        _ = RawHTTP.get(port: server.port, "/v1/demo/info")
        _ = RawHTTP.get(port: server.port, "/v1/demo/nope")
        let metrics = try XCTUnwrap(RawHTTP.get(port: server.port, "/metrics")).text
        XCTAssertTrue(metrics.contains(#"transit_requests_total{command="info",status="200"}"#), metrics)
        XCTAssertTrue(metrics.contains(#"transit_requests_total{command="unknown",status="404"}"#), metrics)
        XCTAssertTrue(metrics.contains("transit_request_duration_seconds_bucket"), metrics)
        XCTAssertTrue(metrics.contains(#"transit_bundle_version{bundle="demo""#), metrics)
        let list = try JSONSerialization.jsonObject(with: try XCTUnwrap(RawHTTP.get(port: server.port, "/v1")).body) as? [String: Any]
        XCTAssertEqual((list?["bundles"] as? [[String: Any]])?.first?["name"] as? String, "demo")
        let document = try XCTUnwrap(RawHTTP.get(port: server.port, "/openapi.json"))
        let openAPI = try XCTUnwrap(JSONSerialization.jsonObject(with: document.body) as? [String: Any])
        XCTAssertEqual(openAPI["openapi"] as? String, "3.1.0")
        let paths = try XCTUnwrap(openAPI["paths"] as? [String: Any])
        for command in [
            "departures", "arrivals", "stops", "trip", "shape", "agencies", "routes", "route", "nearest", "transfers", "info", "city",
            "cities", "plan", "fare",
        ] {
            XCTAssertNotNil(paths["/v1/{bundle}/\(command)"], command)
        }
        try OpenAPICheck.validate(document.body)
    }
}
