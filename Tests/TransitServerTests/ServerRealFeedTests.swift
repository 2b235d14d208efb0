import Foundation
import GTFSCompiler
import TestKit
import TransitRuntime
import XCTest

/// Real feeds, each compiled into a bundle and served together by one `transit-server`:
/// random queries of every command (seeded: `TEST_SEED` replays), each asked of the server
/// and of `transit-query --json`, must get the same body and the same outcome.
final class ServerRealFeedTests: XCTestCase {
    static let feeds = ["ct", "cairns", "kuopio-finland", "saskatoon"]

    func testRandomQueriesOfEveryCommandMatchTheCommandLine() throws {
        let shared = try TestPaths.requireShared("feeds")
        let folder = TemporaryFolders.make()
        var paths: [String: String] = [:]
        for name in Self.feeds {
            let path = folder.appendingPathComponent(name + ".db").path
            _ = try Compiler.compile(
                CompileRequest(feeds: [.init(name: name, path: shared.appendingPathComponent("\(name).zip").path)], outputPath: path),
                log: DiagnosticLog())
            paths[name] = path
        }
        let server = try ServerUnderTest(Self.feeds.flatMap { ["--bundle", "\($0)=\(paths[$0]!)"] } + ["--log-level", "warning"])
        defer { server.kill() }
        let seed = SplitMix64.testSeed(20_261_202)
        print("ServerRealFeedTests seed \(seed) (TEST_SEED=\(seed) replays it)")
        var random = SplitMix64(state: seed)
        var asked: [String: Int] = [:]
        for name in Self.feeds {
            let path = paths[name]!
            let bundle = try TransitBundle(path: path)
            for query in try Self.queries(of: bundle, count: 45, random: &random) {
                let status = try SameAnswers.check(query, server: server, name: name, bundle: path)
                asked["\(query.command) \(status)", default: 0] += 1
            }
        }
        print("asked: \(asked.sorted { $0.key < $1.key })")
        // Every command was asked and most questions found their answer.
        for command in [
            "departures", "arrivals", "stops", "trip", "shape", "agencies", "routes", "route", "nearest", "transfers", "info", "plan",
            "fare",
        ] {
            XCTAssertTrue(asked.keys.contains { $0.hasPrefix(command + " ") }, "\(command) never asked")
        }
        let answered = asked.filter { $0.key.hasSuffix(" 200") }.values.reduce(0, +)
        XCTAssertGreaterThan(answered, asked.values.reduce(0, +) / 2, "\(asked)")
    }

    /// Random questions about `bundle`: ids, points and times drawn from its own routes,
    /// stops and trips, plus a few unknown ids and bad values.
    static func queries(of bundle: TransitBundle, count: Int, random: inout SplitMix64) throws -> [SameAnswers.Query] {
        typealias Q = SameAnswers.Query
        let info = try bundle.info()
        let routes = try bundle.routes()
        var stops: [Stop] = []
        for route in routes.prefix(30) {
            stops += try bundle.route(route.routeID).directions.flatMap(\.stops)
        }
        guard !routes.isEmpty, !stops.isEmpty, let first = info.coverage.firstServiceDate, let last = info.coverage.lastServiceDate else {
            return []
        }
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        func day() -> String {
            let span = max(0, ServiceDateSpan.days(from: first, to: last))
            return first.adding(days: Int(random.next() % UInt64(span + 1))).description
        }
        func time() -> String { day() + String(format: "T%02d:%02d", 5 + Int(random.next() % 18), Int(random.next() % 60)) }
        func point(_ stop: Stop) -> String {
            let lat = (stop.latitude ?? 0) + Double(Int(random.next() % 200) - 100) / 10_000
            let lon = (stop.longitude ?? 0) + Double(Int(random.next() % 200) - 100) / 10_000
            return String(format: "%.5f,%.5f", lat, lon)
        }
        var queries: [Q] = [
            Q(command: "info", parameters: []), Q(command: "agencies", parameters: []), Q(command: "routes", parameters: []),
        ]
        while queries.count < count {
            let stop = pick(stops)
            switch random.next() % 14 {
            case 0:
                queries.append(
                    Q(
                        command: "departures",
                        parameters: [("stop", stop.stopID), ("at", time()), ("window", "\(30 + random.next() % 200)")]))
            case 1:
                queries.append(
                    Q(command: "arrivals", parameters: [("stop", stop.stopID), ("at", time()), ("limit", "\(1 + random.next() % 30)")]))
            case 2:
                let words = stop.name.split(separator: " ").prefix(2).map { String($0.prefix(4)) }.joined(separator: " ")
                queries.append(Q(command: "stops", parameters: [("search", words.isEmpty ? "a" : words)]))
            case 3: queries.append(Q(command: "stops", parameters: [("near", point(stop)), ("radius", "\(100 + random.next() % 2000)")]))
            case 4, 5:
                let at = time()
                let board = try? bundle.departures(from: [stop.stopID], at: QueryTime.parse(at), within: 7200, limit: 5)
                if let trip = board?.first {
                    queries.append(Q(command: "trip", parameters: [("trip", trip.tripID), ("date", trip.serviceDate.description)]))
                    queries.append(Q(command: "shape", parameters: [("trip", trip.tripID)]))
                } else {
                    queries.append(Q(command: "trip", parameters: [("trip", "no-such-trip"), ("date", day())]))
                }
            case 6: queries.append(Q(command: "shape", parameters: [("route", pick(routes).routeID)]))
            case 7: queries.append(Q(command: "route", parameters: [("route", pick(routes).routeID)]))
            case 8: queries.append(Q(command: "routes", parameters: [("stop", stop.stopID)]))
            case 9: queries.append(Q(command: "nearest", parameters: [("near", point(stop)), ("count", "\(1 + random.next() % 20)")]))
            case 10: queries.append(Q(command: "transfers", parameters: [("stop", stop.stopID)]))
            case 11, 12:
                let to = pick(stops)
                var parameters = [("from", random.next() % 4 == 0 ? point(stop) : stop.stopID), ("to", to.stopID), ("at", time())]
                if random.next() % 3 == 0 { parameters.append(("window", "\(random.next() % 90)")) }
                if random.next() % 5 == 0 { parameters.append(("max-transfers", "\(random.next() % 4)")) }
                queries.append(Q(command: "plan", parameters: parameters))
            default:
                switch random.next() % 4 {
                case 0: queries.append(Q(command: "fare", parameters: [("from", stop.stopID), ("to", pick(stops).stopID), ("at", time())]))
                case 1: queries.append(Q(command: "departures", parameters: [("stop", "unknown-\(random.next() % 100)"), ("at", time())]))
                case 2: queries.append(Q(command: "departures", parameters: [("stop", stop.stopID), ("at", "2026-13-45T99:00")]))
                default: queries.append(Q(command: "plan", parameters: [("from", stop.stopID), ("to", stop.stopID), ("walk-speed", "0")]))
                }
            }
        }
        return queries
    }
}

/// Days between two service dates (the bundle's coverage).
enum ServiceDateSpan {
    static func days(from first: ServiceDate, to last: ServiceDate) -> Int {
        var count = 0
        var day = first
        while day < last && count < 3_660 {
            day = day.adding(days: 1)
            count += 1
        }
        return count
    }
}
