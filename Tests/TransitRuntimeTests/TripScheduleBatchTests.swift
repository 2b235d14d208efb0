import Foundation
import TestKit
import TestSupport
import TransitSQLite
import XCTest

@testable import GTFSCompiler
@testable import TransitRuntime

/// `prepareTripSchedules(_:feed:)`, the lookup of a live message's trips all at once: every
/// trip it keeps has the stops, times, route and headsign the feed gave it (read from the
/// feed text written here, not from the bundle), ids the feed does not have are kept for
/// none, and it gives what the lookup one trip at a time gives, in a bundle whose tids are in
/// text order and in one compiled on an earlier version (tids no longer in text order).
final class TripScheduleBatchTests: XCTestCase {
    struct GeneratedTrip {
        var id: String
        var route: String
        /// Empty for one trip in five: its schedule's headsign is then its last stop's name.
        var headsign: String
        /// Departure of the first stop, seconds; the trip calls at `stops` every 5 minutes.
        var start: Int
        var stops: [String]

        /// The headsign its schedule must have (stop `S<n>` is named `Stop <n>`).
        var expectedHeadsign: String { headsign.isEmpty ? "Stop " + stops.last!.dropFirst() : headsign }
    }

    /// Ids of varied shapes: alike long ids differing inside, short numbers, prefixes of
    /// one another, bytes beyond ASCII.
    static func generatedTrips(count: Int, random: inout SplitMix64) -> [GeneratedTrip] {
        var ids = Set<String>()
        while ids.count < count {
            let n = Int.random(in: 0..<1_000_000, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: ids.insert("\(n)-25SEPB-UPKBus-Semaine-0\(n % 7)")
            case 1: ids.insert("\(n % 5000)")
            case 2: ids.insert("T\(n % 300)" + String(repeating: "x", count: n % 3))
            default: ids.insert("trajet-é\(n)")
            }
        }
        let stops = (1...6).map { "S\($0)" }
        return ids.sorted().shuffled(using: &random).map { id in
            let first = Int.random(in: 0..<3, using: &random)
            let length = Int.random(in: 2...(6 - first), using: &random)
            return GeneratedTrip(
                id: id, route: "R\(Int.random(in: 1...4, using: &random))",
                headsign: Int.random(in: 0..<5, using: &random) == 0 ? "" : "To \(Int.random(in: 1...9, using: &random))",
                start: 5 * 3600 + Int.random(in: 0..<(18 * 60), using: &random) * 60, stops: Array(stops[first..<(first + length)]))
        }
    }

    static func files(_ trips: [GeneratedTrip]) -> [String: String] {
        var files = TestSupport.minimalFeed
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\n" + (1...6).map { "S\($0),Stop \($0),48.0\($0),7.0\($0)\n" }.joined()
        files["routes.txt"] = "route_id,route_short_name,route_type\n" + (1...4).map { "R\($0),\($0),3\n" }.joined()
        files["trips.txt"] =
            "route_id,service_id,trip_id,trip_headsign\n" + trips.map { "\($0.route),D,\($0.id),\($0.headsign)\n" }.joined()
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for trip in trips {
            for (k, stop) in trip.stops.enumerated() {
                let t = trip.start + k * 300
                let text = String(format: "%02d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
                times += "\(trip.id),\(text),\(text),\(stop),\(k + 1)\n"
            }
        }
        files["stop_times.txt"] = times
        return files
    }

    func testAMessagesTripsLookedUpTogetherAreTheFeedsTrips() throws {
        let seed = SplitMix64.testSeed(4107)
        var random = SplitMix64(state: seed)
        let trips = Self.generatedTrips(count: 3_000, random: &random)
        let (log, path) = TestSupport.compile(Self.files(Array(trips.prefix(2_400))))
        let first = try XCTUnwrap(path, log.summaryText())
        // The next version adds trips whose ids fall between the others' (new tids at the end).
        let directory = TemporaryFolders.make()
        let next = TestSupport.writeFeed(Self.files(trips), in: directory)
        let based = directory.appendingPathComponent("based.db").path
        var request = CompileRequest(feeds: [.init(name: "f", path: next)], outputPath: based)
        request.basePath = first
        _ = try Compiler.compile(request, log: DiagnosticLog())
        let all = Set(trips.map(\.id))
        let missing = ["", "0", "T", "T1000", "trajet-", "zzz", "\u{10FFFF}", "1-25SEPB-UPKBus-Semaine-0"].filter { !all.contains($0) }
        for (path, present) in [(first, Array(trips.prefix(2_400))), (based, trips)] {
            let byID = Dictionary(uniqueKeysWithValues: present.map { ($0.id, $0) })
            let absent = missing + trips.map(\.id).filter { byID[$0] == nil }
            // A message names a subset of the trips in any order, twice some, and ids of no trip.
            var asked = (present.filter { _ in Bool.random(using: &random) }.map(\.id) + absent).shuffled(using: &random)
            asked += asked.prefix(50)
            // Entities without a trip id have nil in their place.
            let holes = asked.indices.map { $0 % 7 == 3 ? nil : asked[$0] }
            let together = try TransitBundle(path: path)
            let answer = try together.prepareTripSchedules(holes, feed: nil)
            XCTAssertEqual(answer.count, holes.count, "seed \(seed)")
            XCTAssertEqual(
                answer.indices.filter { answer[$0] != nil }, holes.indices.filter { holes[$0].flatMap { byID[$0] } != nil }, "seed \(seed)")
            var prepared: [String: TripSchedule] = [:]
            for (id, schedule) in zip(holes, answer) { if let id, let schedule { prepared[id] = schedule } }
            // Asked again: the same trips, now from those kept, and the ones left out before.
            let again = try together.prepareTripSchedules(asked, feed: nil)
            XCTAssertEqual(again.indices.filter { again[$0] != nil }, asked.indices.filter { byID[asked[$0]] != nil }, "seed \(seed)")
            for (id, schedule) in zip(asked, again) {
                if let schedule, let before = prepared[id] { XCTAssertEqual(schedule.base, before.base, "seed \(seed): \(id)") }
                if let schedule { prepared[id] = schedule }
            }
            let alone = try TransitBundle(path: path)
            for id in asked {
                // Kept by the batch (not looked up by the one-by-one way below).
                let kept = together.liveCaches.tripSchedules.cached(TripScheduleKey(feed: nil, tripID: id))
                XCTAssertEqual(kept != nil, byID[id] != nil, "seed \(seed): \(id)")
                XCTAssertEqual(kept?.base, prepared[id]?.base, "seed \(seed): \(id)")
                guard let trip = byID[id] else {
                    XCTAssertThrowsError(try together.tripSchedule(id), "seed \(seed): \(id)") {
                        XCTAssertEqual($0 as? TransitError, .unknownTrip(id))
                    }
                    continue
                }
                let schedule = try XCTUnwrap(kept)
                XCTAssertEqual(try together.names(of: schedule).routeID, trip.route, "seed \(seed): \(id)")
                XCTAssertEqual(try together.names(of: schedule).headsign, trip.expectedHeadsign, "seed \(seed): \(id)")
                XCTAssertEqual(schedule.departureSecs, trip.stops.indices.map { trip.start + $0 * 300 }, "seed \(seed): \(id)")
                XCTAssertEqual(try schedule.sids.map { try together.stopID(sid: $0) }, trip.stops, "seed \(seed): \(id)")
                XCTAssertEqual(schedule.stopSequences, Array(1...trip.stops.count), "seed \(seed): \(id)")
                let one = try alone.tripSchedule(id)
                XCTAssertEqual(
                    [schedule.service.int, schedule.base, schedule.count, schedule.tid.int, schedule.pid.int],
                    [one.service.int, one.base, one.count, one.tid.int, one.pid.int], "seed \(seed): \(id)")
            }
            // On a bundle whose patterns and trip blocks a lookup decoded first (as boards
            // do), the batch takes those kept: the same schedules.
            let warmed = try TransitBundle(path: path)
            for id in asked where byID[id] != nil { _ = try warmed.tripSchedule(id) }
            warmed.liveCaches.tripSchedules.removeAll()
            let fromKept = try warmed.prepareTripSchedules(asked, feed: nil)
            for (id, schedule) in zip(asked, fromKept) {
                XCTAssertEqual(schedule != nil, byID[id] != nil, "seed \(seed): \(id)")
                guard let schedule, let trip = byID[id] else { continue }
                XCTAssertEqual(try warmed.names(of: schedule).routeID, trip.route, "seed \(seed): \(id)")
                XCTAssertEqual(try warmed.names(of: schedule).headsign, trip.expectedHeadsign, "seed \(seed): \(id)")
                XCTAssertEqual(schedule.departureSecs, trip.stops.indices.map { trip.start + $0 * 300 }, "seed \(seed): \(id)")
                XCTAssertEqual(try schedule.sids.map { try warmed.stopID(sid: $0) }, trip.stops, "seed \(seed): \(id)")
            }
        }
    }

    /// A damaged trip block met by the lookups of many trips together (on both threads):
    /// the batch is refused as a damaged bundle, and one by one each trip is either its
    /// feed's schedule or that error, never a crash or another trip's schedule.
    func testADamagedTripBlockIsReportedNotKept() throws {
        let seed = SplitMix64.testSeed(4111)
        var random = SplitMix64(state: seed)
        let trips = Self.generatedTrips(count: 600, random: &random)
        let (log, path) = TestSupport.compile(Self.files(trips))
        let copy = TemporaryFolders.make().appendingPathComponent("damaged.db").path
        try FileManager.default.copyItem(atPath: try XCTUnwrap(path, log.summaryText()), toPath: copy)
        try SQLiteDatabase(path: copy, writable: true).execute("UPDATE trip_blocks SET entries = x'0009' WHERE first_tid = 65")
        let bundle = try TransitBundle(path: copy)
        XCTAssertThrowsError(try bundle.prepareTripSchedules(trips.map(\.id), feed: nil), "seed \(seed)") {
            guard case .corruptBundle(let reason)? = $0 as? TransitError else { return XCTFail("seed \(seed): \($0)") }
            XCTAssertTrue(reason.contains("damaged") || reason.contains("missing"), "seed \(seed): \(reason)")
        }
        var found = 0
        var refused = 0
        for trip in trips {
            do {
                let schedule = try bundle.tripSchedule(trip.id)
                XCTAssertEqual(schedule.departureSecs, trip.stops.indices.map { trip.start + $0 * 300 }, "seed \(seed): \(trip.id)")
                XCTAssertEqual(try bundle.names(of: schedule).routeID, trip.route, "seed \(seed): \(trip.id)")
                found += 1
            } catch TransitError.corruptBundle {
                refused += 1
            }
        }
        XCTAssertGreaterThan(found, 0, "seed \(seed)")
        XCTAssertGreaterThan(refused, 0, "seed \(seed)")
    }

    func testAFeedNamedThatTheBundleLacksIsRefused() throws {
        XCTAssertThrowsError(try TestSupport.sampleBundle.prepareTripSchedules(["T1"], feed: "nowhere")) {
            XCTAssertEqual($0 as? TransitError, .unknownFeed("nowhere"))
        }
    }
}
