import Foundation
import TestKit
import TestSupport
import TransitClient
import TransitRealtime
import TransitRuntime
import XCTest

/// The app's online-first board: from the server while it answers, from the installed bundle
/// when it is stopped or hangs past the time-out, the server's refusals passed on.
final class OnlineFirstTests: XCTestCase {
    let at = QueryTime.local(LocalDate("2026-03-30")!, secondsOfDay: 7 * 3600 + 55 * 60)

    func testTheServerAnswersAndTheBundleWhenItCannot() async throws {
        let bundle = TestSupport.sampleBundle
        let expected = try await bundle.departures(from: ["CENTRAL"], at: at, within: 3600, limit: 6)
        XCTAssertFalse(expected.isEmpty)
        let server = try ServerUnderTest(["--bundle", "demo=\(TestSupport.sampleBundlePath)", "--log-level", "warning"])
        let url = URL(string: server.base)!
        let source = OnlineFirstDepartures(client: TransitClient(server: url, bundle: "demo", timeout: 2), bundle: bundle)

        // Online: the server's answer, decoded into the runtime's values, equal to the bundle's.
        let stop = try await bundle.stop("CENTRAL")
        let hash = try await bundle.info().contentHash
        let online = try await source.departures(from: stop, at: at, limit: 6)
        XCTAssertEqual(online.source, .server)
        XCTAssertEqual(online.departures.map(\.scheduled), expected)
        XCTAssertEqual(online.contentHash, hash)
        let byRef = try await source.departures(from: StopRef(feedID: "metro", stopID: "CENTRAL"), at: at, limit: 6)
        XCTAssertEqual(byRef.departures.map(\.scheduled), expected)

        // The other questions, decoded into the runtime's values, equal to the bundle's.
        let client = TransitClient(server: url, bundle: "demo")
        let found = try await client.stops(matching: "zur")
        let local = try await bundle.stops(matching: "zur")
        XCTAssertEqual(found, local)
        let day = LocalDate("2026-03-30")!
        let trip = try await client.trip("T4_WK_0800", on: day)
        let localTrip = try await bundle.trip("T4_WK_0800", on: day)
        XCTAssertEqual(trip, localTrip)
        let journeys = try await client.journeys(from: "CENTRAL", to: "BELLEVUE", departingAt: at)
        let localJourneys = try await bundle.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at)
        XCTAssertFalse(journeys.isEmpty)
        XCTAssertEqual(journeys, localJourneys)
        let arrivals = try await client.arrivals(to: ["BELLEVUE"], at: at, limit: 4)
        let localArrivals = try await bundle.arrivals(to: ["BELLEVUE"], at: at, limit: 4)
        XCTAssertEqual(arrivals.departures.map(\.scheduled), localArrivals)

        // The server's refusal is the answer (the bundle would refuse the same).
        do {
            _ = try await source.departures(from: ["NOPE"], at: at)
            XCTFail("an unknown stop was answered")
        } catch TransitClientError.refused(let status, let code, _) {
            XCTAssertEqual(status, 404)
            XCTAssertEqual(code, "unknown_stop")
        }

        // The server stopped: the bundle answers, and says why.
        XCTAssertEqual(server.terminate(), 0)
        let offline = try await source.departures(from: stop, at: at, limit: 6)
        guard case .bundle(let reason) = offline.source else { return XCTFail("answered by \(offline.source)") }
        print("offline because: \(reason)")
        XCTAssertEqual(offline.departures.map(\.scheduled), expected)
        XCTAssertTrue(offline.departures.allSatisfy { $0.state == .scheduled && !$0.isRealtime })
    }

    /// A server that accepts the connection and never answers: the board comes from the
    /// bundle once the client's time-out has passed.
    func testAServerThatHangsFallsBackAfterTheTimeout() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        XCTAssertEqual(listen(listener, 16), 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let client = TransitClient(server: URL(string: "http://127.0.0.1:\(port)")!, bundle: "demo", timeout: 0.5)
        let source = OnlineFirstDepartures(client: client, bundle: TestSupport.sampleBundle)
        let clock = ContinuousClock()
        let started = clock.now
        let board = try await source.departures(from: ["CENTRAL"], at: at, limit: 6)
        let elapsed = clock.now - started
        print("hung server: answered from the bundle after \(elapsed)")
        guard case .bundle = board.source else { return XCTFail("answered by \(board.source)") }
        let expected = try await TestSupport.sampleBundle.departures(from: ["CENTRAL"], at: at, within: 3600, limit: 6)
        XCTAssertEqual(board.departures.map(\.scheduled), expected)
        // Not a speed target: a guard against waiting for the hung server.
        XCTAssertLessThan(elapsed, .seconds(15))
    }
}

/// `Examples/TransitApp`'s board with a server: from the server while it runs, from the
/// installed bundle once it is gone.
extension OnlineFirstTests {
    func testTheExampleAppsBoardIsOnlineFirst() throws {
        let site = try StoreFixture()
        let metro = try TestFeeds.compileMetro(TestSupport.samples + "/metro")
        let server = try ServerUnderTest(["--bundle", "metro=\(metro)", "--log-level", "warning"])
        func board(_ url: String) throws -> [String] {
            let process = Process()
            process.executableURL = TestPaths.products.appendingPathComponent("transit-app-example")
            process.arguments = [
                site.server.url("v1.json").absoluteString, TemporaryFolders.make().appendingPathComponent("store").path, "metro",
                "CENTRAL", "Tiefenbrunnen", "2026-03-30T08:00",
            ]
            var environment = ProcessInfo.processInfo.environment
            environment["TRANSIT_SERVER"] = url
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, text)
            let lines = text.split(separator: "\n").map(String.init)
            guard let start = lines.firstIndex(where: { $0.hasPrefix("board at CENTRAL") }) else { return lines }
            return Array(lines[start...].prefix(3))
        }
        let online = try board(server.base)
        XCTAssertEqual(online.first, "board at CENTRAL (from the server):", "\(online)")
        XCTAssertEqual(online.dropFirst().first, "  08:00  4  Tiefenbrunnen (platform 1)")
        XCTAssertEqual(server.terminate(), 0)
        let offline = try board(server.base)
        XCTAssertTrue(offline.first?.hasPrefix("board at CENTRAL (offline: ") == true, "\(offline)")
        XCTAssertEqual(Array(offline.dropFirst()), Array(online.dropFirst()))
    }
}
