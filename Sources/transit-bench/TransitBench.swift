import BundleFormat
import Foundation
import TestKit
import TransitCities
import TransitRuntime
import TransitSQLite

/// Times queries in-process on one thread and prints medians and 99th percentiles.
///
///     transit-bench departures BUNDLE [QUERIES]   random stop/time departures (60 min, limit 20), stop search
///     transit-bench cities BUNDLE [QUERIES]       city lookup by id, search and nearest
///     transit-bench batch-input BUNDLE N          writes N departure queries as JSON lines to stdout
///     transit-bench realtime BUNDLE N [CAPTURE]   a capture's decode + match, or N synthetic trip updates and live boards
///     transit-bench journeys BUNDLE [QUERIES]     journeys between random stops: first query, depart-at, arrive-by, range
///     transit-bench open BUNDLE [N]              opening the bundle, and the value check (`BundleCheck`) alone
@main
enum TransitBench {
    static func main() {
        do {
            try run(CommandLine.arguments)
        } catch {
            FileHandle.standardError.write(Data("transit-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ args: [String]) throws {
        guard args.count >= 3 else {
            print("usage: transit-bench departures|cities|shapes|lines|batch-input|realtime|journeys|open|cancel BUNDLE [N] [CAPTURE.pb]")
            exit(2)
        }
        let count = args.count > 3 ? Int(args[3]) ?? 10_000 : 10_000
        switch args[1] {
        case "departures": try departures(args[2], count)
        case "cities": try cities(args[2], count)
        case "shapes": try shapes(args[2], count)
        case "lines": try lines(args[2], count)
        case "batch-input": try batchInput(args[2], count)
        case "realtime": try realtime(args[2], count, capture: args.count > 4 ? args[4] : nil)
        case "journeys": try journeys(args[2], count)
        case "open": try opening(args[2], count)
        case "cancel": try cancelling(args[2], count)
        default:
            print("unknown benchmark \(args[1])")
            exit(2)
        }
    }

    /// Microseconds per call: median and 99th percentile.
    static func measure(_ label: String, _ count: Int, _ body: (Int) throws -> Int) rethrows {
        var samples: [Double] = []
        samples.reserveCapacity(count)
        var results = 0
        for i in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            results += try body(i)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
        print(String(format: "%-34@ n=%6d  median %8.1f us  p99 %8.1f us  (%d results)", label as NSString, count, median, p99, results))
    }

    /// Every route's lines, first on a freshly opened bundle (nothing decoded yet), then
    /// again; and `count` trips' lines, warm.
    static func shapes(_ path: String, _ count: Int) throws {
        let routes = try SQLiteDatabase(path: path, writable: false).prepare("SELECT route_id FROM dict_route ORDER BY route_id")
        var routeIDs: [String] = []
        while try routes.step() { routeIDs.append(routes.string(0)) }
        // A feed with few routes is asked on several freshly opened bundles, for 100 samples or more.
        let opens = max(1, (100 + routeIDs.count - 1) / routeIDs.count)
        let fresh = try (0..<opens).map { _ in try TransitBundle(path: path) }
        try measure("route lines, cold", routeIDs.count * opens) { i in
            try fresh[i / routeIDs.count].shapes(route: routeIDs[i % routeIDs.count]).reduce(0) { $0 + $1.points.count }
        }
        let cold = fresh[0]
        try measure("route lines, warm", routeIDs.count) { try cold.shapes(route: routeIDs[$0]).reduce(0) { $0 + $1.points.count } }
        // Every trip id, from the trip blocks.
        let db = try SQLiteDatabase(path: path, writable: false)
        let blocks = try db.prepare("SELECT first_tid, entries FROM trip_blocks")
        var tripIDs: [String] = []
        while try blocks.step() {
            tripIDs += try TripBlock.decode(firstTid: blocks.int(0), blocks.blob(1)).entries.compactMap { $0?.tripID }
        }
        var generator = seededRandom()
        let sample = (0..<count).map { _ in tripIDs.randomElement(using: &generator)! }
        try measure("trip line, warm", sample.count) { try cold.shape(trip: sample[$0]).points.count }
    }

    /// Routes at random stops, the 10 nearest stops to random points near them, and a
    /// route's stops, each on a freshly opened bundle and then warm.
    static func lines(_ path: String, _ count: Int) throws {
        let bundle = try TransitBundle(path: path)
        let stops = try randomStopsAndTimes(bundle, count).map { ($0.0, $0.1) }
        let located = try SQLiteDatabase(path: path, writable: false).prepare(
            "SELECT lat_e7, lon_e7 FROM stops WHERE lat_e7 IS NOT NULL AND lon_e7 IS NOT NULL")
        var points: [Coordinate] = []
        while try located.step() {
            points.append(Coordinate(latitude: StopGrid.degrees(located.int(0)), longitude: StopGrid.degrees(located.int(1))))
        }
        var generator = seededRandom()
        let places = (0..<count).map { _ in points.randomElement(using: &generator)! }
        let cold = try TransitBundle(path: path)
        try measure("routes at a stop, cold", stops.count) { try cold.routes(servingStop: stops[$0].0, feed: stops[$0].1).count }
        try measure("routes at a stop, warm", stops.count) { try cold.routes(servingStop: stops[$0].0, feed: stops[$0].1).count }
        try measure("10 nearest stops", places.count) { i in
            let p = places[i]
            return try cold.nearestStops(to: Coordinate(latitude: p.latitude + 0.001, longitude: p.longitude - 0.001), count: 10).count
        }
        let routes = try bundle.routes()
        try measure("a route's stops by direction", routes.count) {
            try cold.route(routes[$0].routeID, feed: routes[$0].feedID).directions.count
        }
    }

    /// The random draws of every benchmark: the same queries on every run (`BENCH_SEED`
    /// draws others), so that two builds are compared on the same work.
    static func seededRandom() -> SplitMix64 {
        SplitMix64(state: ProcessInfo.processInfo.environment["BENCH_SEED"].flatMap { UInt64($0) } ?? 7)
    }

    static func randomStopsAndTimes(_ bundle: TransitBundle, _ count: Int) throws -> [(String, String, Date)] {
        let info = try bundle.info()
        var generator = seededRandom()
        var stops: [(String, String)] = []
        for feed in info.feeds {
            for word in ["a", "e", "i", "o", "u", "r", "s", "t", "n", "l", "c", "d", "m", "p", "g", "b"] {
                stops += try bundle.stops(matching: word, limit: 400).filter { $0.feedID == feed.feedID }.map { ($0.stopID, $0.feedID) }
            }
        }
        stops = Array(Set(stops.map { "\($0.0)\u{1}\($0.1)" })).sorted().map {
            let parts = $0.split(separator: "\u{1}")
            return (String(parts[0]), String(parts[1]))
        }
        // Each stop's moment inside its own feed's timetable (a bundle's feeds may cover
        // different years).
        let formatter = ISO8601DateFormatter()
        var ranges: [String: Range<Double>] = [:]
        for feed in info.feeds {
            guard let first = feed.firstServiceDate, let last = feed.lastServiceDate else { continue }
            let start = formatter.date(from: first.description + "T00:00:00Z")!.timeIntervalSince1970
            let end = formatter.date(from: last.description + "T00:00:00Z")!.timeIntervalSince1970
            ranges[feed.feedID] = start..<max(end, start + 1)
        }
        return (0..<count).map { _ in
            let stop = stops.randomElement(using: &generator)!
            return (stop.0, stop.1, Date(timeIntervalSince1970: Double.random(in: ranges[stop.1]!, using: &generator)))
        }
    }

    static func departures(_ path: String, _ count: Int) throws {
        let bundle = try TransitBundle(path: path)
        let queries = try randomStopsAndTimes(bundle, count)
        // Opening a bundle and answering its first departures query, with a fresh instance each time.
        var openings: [Double] = []
        for q in queries.prefix(21) {
            let start = DispatchTime.now().uptimeNanoseconds
            let fresh = try TransitBundle(path: path)
            _ = try fresh.departures(from: q.0, feed: q.1, at: .instant(q.2))
            openings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        print(
            String(
                format: "open + first departures  n=%6d  median %8.2f ms  max %8.2f ms", openings.count,
                openings.sorted()[openings.count / 2], openings.max()!))
        // The same queries twice: first on a freshly opened bundle (each stop's patterns
        // read from the file on first use), then with those rows cached, as in a running app.
        for pass in ["cold", "warm"] {
            try measure("departures (60 min, limit 20) \(pass)", queries.count) { i in
                try bundle.departures(from: queries[i].0, feed: queries[i].1, at: .instant(queries[i].2), within: 60 * 60, limit: 20)
                    .count
            }
        }
        let preloadStart = DispatchTime.now().uptimeNanoseconds
        let preloaded = try TransitBundle(path: path)
        try preloaded.preload()
        print(
            String(
                format: "open + preload (for servers, batch)      %8.2f ms",
                Double(DispatchTime.now().uptimeNanoseconds - preloadStart) / 1e6))
        try measure("departures (60 min, limit 20) preloaded", queries.count) { i in
            try preloaded.departures(from: queries[i].0, feed: queries[i].1, at: .instant(queries[i].2), within: 60 * 60, limit: 20).count
        }
        let words = ["gare", "homme", "place", "rue", "pont", "université", "hauptb", "st", "centre", "parc", "école", "route", "mairie"]
        try measure("stop search", 5_000) { i in try bundle.stops(matching: words[i % words.count], limit: 20).count }
        try measure("stops near (500 m)", 5_000) { i in
            try bundle.stops(
                near: Coordinate(latitude: 48.58 + Double(i % 100) / 2000, longitude: 7.70 + Double(i % 37) / 500), within: 500
            ).count
        }
    }

    static func cities(_ path: String, _ count: Int) throws {
        let bundle = try TransitBundle(path: path)
        let all = try bundle.cities(filter: CityFilter(), limit: 170_000)
        guard !all.isEmpty else {
            print("no cities in \(path)")
            return
        }
        var generator = seededRandom()
        let ids = (0..<count).map { _ in all.randomElement(using: &generator)!.id }
        try measure("city by id", count) { i in try bundle.city(id: ids[i]).alternateNames.count }
        let names = (0..<count).map { _ in all.randomElement(using: &generator)!.name }
        try measure("city search (full names)", count) { i in try bundle.cities(matching: names[i], limit: 10).count }
        let prefixes = names.map { String($0.prefix(4)) }
        try measure("city search (4-letter prefixes)", count) { i in try bundle.cities(matching: prefixes[i], limit: 10).count }
        let points = (0..<count).map { _ in
            (Double.random(in: -60...70, using: &generator), Double.random(in: -180...180, using: &generator))
        }
        try measure("nearest 10 cities", count) { i in
            try bundle.nearestCities(to: Coordinate(latitude: points[i].0, longitude: points[i].1), limit: 10).count
        }
    }

    static func batchInput(_ path: String, _ count: Int) throws {
        let bundle = try TransitBundle(path: path)
        let formatter = ISO8601DateFormatter()
        var out = ""
        for (i, q) in try randomStopsAndTimes(bundle, count).enumerated() {
            out +=
                "{\"id\":\(i),\"op\":\"departures\",\"stop\":\"\(q.0)\",\"feed\":\"\(q.1)\",\"at\":\"\(formatter.string(from: q.2))\",\"window\":60,\"limit\":20}\n"
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}
