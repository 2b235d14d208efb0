import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitCities
import TransitSQLite
import XCTest

@testable import TransitRuntime

/// The tables added since the first hostile round (pathways, fares v1 and v2, cities,
/// texts), each value pushed to an extreme in a bundle that passes every check of its
/// identity: each query answers or throws the exact error, never traps or hangs (issue:
/// no bundle, patch or batch input can crash, hang or exhaust an app).
final class HostileTablesTests: XCTestCase {
    private func crafted(_ sql: String) throws -> String { try TestSupport.sampleBundleCopy(editedBy: sql) }
    private let at = QueryTime.local(LocalDate("2026-03-30")!, secondsOfDay: 8 * 3600)

    /// The error `body` throws as a damaged bundle's reason ("answered" when it answers).
    private func refusal<T>(_ body: () throws -> T) -> String {
        do {
            _ = try body()
            return "answered"
        } catch TransitError.corruptBundle(let reason) {
            return reason
        } catch {
            return "another error: \(error)"
        }
    }

    // MARK: Pathways

    /// A pathway naming no stop, or with a time, length or stair count outside what the
    /// compiler writes, is refused by the first journey (which reads the pathways) with
    /// its row and value; boards, which do not read them, still answer.
    func testPathwayValuesOutsideTheirRangesAreRefusedByName() throws {
        try TestSupport.assertFirstJourneyRefuses([
            ("INSERT INTO pathways VALUES (90, -5, 2, 1, 1, 10, NULL, NULL)", "pathways: pathway 90 from stop -5 to stop 2 names no stop"),
            ("INSERT INTO pathways VALUES (90, 2, -7, 1, 1, 10, NULL, NULL)", "pathways: pathway 90 from stop 2 to stop -7 names no stop"),
            (
                "INSERT INTO pathways VALUES (90, 2, 4294967296, 1, 1, 10, NULL, NULL)",
                "pathways: pathway 90 from stop 2 to stop 4294967296 names no stop"
            ),
            (
                "INSERT INTO pathways VALUES (90, 2, 3, 2, 1, NULL, NULL, -2147483648)",
                "pathways: pathway 90 has stair_count -2147483648 (-10000 to 10000)"
            ),
            (
                "INSERT INTO pathways VALUES (90, 2, 3, 2, 1, NULL, NULL, -9223372036854775808)",
                "pathways: pathway 90 has stair_count -9223372036854775808 (-10000 to 10000)"
            ),
            (
                "INSERT INTO pathways VALUES (90, 2, 3, 1, 1, 9223372036854775807, NULL, NULL)",
                "pathways: pathway 90 has traversal_time 9223372036854775807 (1 to 86400)"
            ),
            ("INSERT INTO pathways VALUES (90, 2, 3, 1, 1, 0, NULL, NULL)", "pathways: pathway 90 has traversal_time 0 (1 to 86400)"),
            (
                "INSERT INTO pathways VALUES (90, 2, 3, 1, 1, NULL, 9223372036854775807, NULL)",
                "pathways: pathway 90 has length_dm 9223372036854775807 (0 to 1000000)"
            ),
            ("INSERT INTO pathways VALUES (90, 2, 3, 1, 1, NULL, -1, NULL)", "pathways: pathway 90 has length_dm -1 (0 to 1000000)"),
            (
                """
                INSERT INTO pathways SELECT 100 + i, 2, 3, 1, 1, 10, NULL, NULL FROM
                  (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000001) SELECT i FROM n)
                """,
                "pathways: 1000001 rows (at most 1000000)"
            ),
        ])
        let bundle = try TransitBundle(path: try crafted("INSERT INTO pathways VALUES (90, -5, 2, 1, 1, 10, NULL, NULL)"))
        XCTAssertFalse(try bundle.departures(from: "CENTRAL_1", at: at, within: 3600).isEmpty)
    }

    /// The longest pathways the compiler keeps (99,999.9 m), twenty in a row inside one
    /// station, walked at the slowest speed a query accepts: a time of about 20 million
    /// seconds, added up without overflow, and a journey that answers.
    func testTheLongestPathwaysInARowAtTheSlowestSpeedAddUp() throws {
        // Nineteen generic nodes of CENTRAL after the last stop, then a chain of pathways
        // CENTRAL_1 -> node 1 -> ... -> node 19 -> CENTRAL_2.
        let path = try crafted(
            """
            INSERT INTO stops (sid, fid, stop_id, name, location_type, parent_sid, wheelchair_boarding)
              WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 19)
              SELECT (SELECT max(sid) FROM stops) + i, 1, 'NODE' || i, 'node', 3,
                (SELECT sid FROM stops WHERE stop_id = 'CENTRAL'), 0 FROM n;
            WITH nodes(k, sid) AS (
                SELECT 0, (SELECT sid FROM stops WHERE stop_id = 'CENTRAL_1')
                UNION ALL SELECT CAST(substr(stop_id, 5) AS INTEGER), sid FROM stops WHERE stop_id LIKE 'NODE%'
                UNION ALL SELECT 20, (SELECT sid FROM stops WHERE stop_id = 'CENTRAL_2'))
            INSERT INTO pathways SELECT 200 + a.k, a.sid, b.sid, 1, 1, NULL, 999999, NULL FROM nodes a JOIN nodes b ON b.k = a.k + 1;
            """)
        let db = try SQLiteDatabase(path: path, writable: false)
        let sid = { (id: String) in try XCTUnwrap(try db.scalarInt("SELECT sid FROM stops WHERE stop_id = '\(id)'")) }
        let maxSid = try XCTUnwrap(try db.scalarInt("SELECT max(sid) FROM stops"))
        let pathways = try StationPathways(db: db, maxSid: maxSid, station: try Self.stations(db))
        var budget = StationPathways.queryBudget
        let times = try pathways.times(from: try sid("CENTRAL_1"), walkingSpeed: 0.100000001, stepFree: false, budget: &budget)
        let across = try XCTUnwrap(times[Int32(try sid("CENTRAL_2"))])
        // 20 pathways of 99,999.9 m at 0.100000001 m/s: just under a million seconds each.
        XCTAssertGreaterThan(across, 20 * 999_990)
        XCTAssertLessThanOrEqual(across, 20 * 1_000_000)
        var options = JourneyOptions()
        options.walkingSpeed = 0.100000001
        _ = try TransitBundle(path: path).journeys(from: .stop("CENTRAL_1"), to: .stop("BELLEVUE"), departingAt: at, options: options)
    }

    /// A pathway search that would take more steps than its budget is refused with the
    /// reason, not worked out for minutes.
    func testAPathwaySearchPastItsBudgetIsRefused() throws {
        let path = try crafted(
            """
            INSERT INTO pathways SELECT 100 + i, (SELECT sid FROM stops WHERE stop_id = 'CENTRAL_1'),
              (SELECT sid FROM stops WHERE stop_id = 'CENTRAL_2'), 1, 1, 10, NULL, NULL FROM
              (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) SELECT i FROM n)
            """)
        let db = try SQLiteDatabase(path: path, writable: false)
        let maxSid = try XCTUnwrap(try db.scalarInt("SELECT max(sid) FROM stops"))
        let from = try XCTUnwrap(try db.scalarInt("SELECT sid FROM stops WHERE stop_id = 'CENTRAL_1'"))
        let pathways = try StationPathways(db: db, maxSid: maxSid) { _ in 1 }
        var budget = 49
        XCTAssertThrowsError(try pathways.times(from: from, walkingSpeed: 1.2, stepFree: false, budget: &budget)) {
            XCTAssertEqual($0 as? TransitError, .corruptBundle(reason: "pathways: walking them takes more steps than a search may take"))
        }
        budget = 100
        XCTAssertEqual(try pathways.times(from: from, walkingSpeed: 1.2, stepFree: false, budget: &budget).values.sorted(), [10])
    }

    /// A pathway between stops of two stations is not walked (a change inside a station
    /// takes that station's pathways only): the search from one end reaches nothing.
    func testAPathwayBetweenTwoStationsIsNotWalked() throws {
        let path = try crafted(
            """
            INSERT INTO pathways VALUES (90, (SELECT sid FROM stops WHERE stop_id = 'CENTRAL_1'),
              (SELECT sid FROM stops WHERE stop_id = 'BELLEVUE'), 1, 1, 10, NULL, NULL)
            """)
        let db = try SQLiteDatabase(path: path, writable: false)
        let maxSid = try XCTUnwrap(try db.scalarInt("SELECT max(sid) FROM stops"))
        let from = try XCTUnwrap(try db.scalarInt("SELECT sid FROM stops WHERE stop_id = 'CENTRAL_1'"))
        let apart = try StationPathways(db: db, maxSid: maxSid) { $0 }
        var budget = 100
        XCTAssertTrue(apart.isEmpty)
        XCTAssertEqual(try apart.times(from: from, walkingSpeed: 1.2, stepFree: false, budget: &budget), [:])
        let together = try StationPathways(db: db, maxSid: maxSid) { _ in 1 }
        XCTAssertEqual(try together.times(from: from, walkingSpeed: 1.2, stepFree: false, budget: &budget).values.sorted(), [10])
    }

    /// Each stop's station as the stops table says (a stop without a parent is its own).
    private static func stations(_ db: SQLiteDatabase) throws -> (Int) -> Int {
        var parent: [Int: Int] = [:]
        let q = try db.prepare("SELECT sid, parent_sid FROM stops WHERE parent_sid IS NOT NULL")
        while try q.step() { parent[q.int(0)] = q.int(1) }
        return { parent[$0] ?? $0 }
    }

    // MARK: Planner and patterns

    /// Counts that would size the planner's arrays past the rows present: a route of more
    /// trips than the bundle has (refused before its trips are decoded) and more frequency
    /// windows than a bundle may hold.
    func testPlannerCountsPastTheRowsPresentAreRefused() throws {
        let trips = PlannerRoutesBlob.encodeTrips(
            (1...1000).map { PlannerRoutesBlob.Entry(tid: $0, start: 3600 + $0, pid: 1, accessible: false) }, templates: [])
        let hex = "x'" + trips.map { String(format: "%02x", $0) }.joined() + "'"
        try TestSupport.assertFirstJourneyRefuses([
            ("UPDATE planner_routes SET trips = \(hex) WHERE prid = 1", "the planner's routes: more trips than the bundle's"),
            (
                """
                INSERT OR IGNORE INTO frequencies SELECT 1 + i % 100, 200000 + i / 100 * 10, 200000 + i / 100 * 10 + 600, 60, 0 FROM
                  (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000001) SELECT i FROM n)
                """,
                "rows (at most 1000000)"
            ),
        ])
    }

    /// The last trip block's first tid at the largest integer (found by
    /// tools/hostile_bundles.py: the bound on the planner's trips overflowed and trapped):
    /// the first journey answers or refuses, never traps.
    func testTheLastTripBlockAtTheLargestIdDoesNotTrapTheFirstJourney() throws {
        let bundle = try TransitBundle(
            path: try crafted(
                "UPDATE trip_blocks SET first_tid = 9223372036854775807 WHERE first_tid = (SELECT max(first_tid) FROM trip_blocks)"))
        let reason = refusal { try bundle.journeys(from: .stop("CENTRAL_1"), to: .stop("BELLEVUE"), departingAt: at) }
        XCTAssertFalse(reason.hasPrefix("another error"), reason)
    }

    /// A stop's pattern index naming another stop of a pattern (the index of another
    /// stop copied to it) is refused by the board, which never shows trips calling
    /// elsewhere.
    func testAStopsPatternIndexIsCheckedAgainstThePattern() throws {
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        let central = try XCTUnwrap(try db.scalarInt("SELECT sid FROM stops WHERE stop_id = 'CENTRAL_1'"))
        let bellevue = try XCTUnwrap(try db.scalarInt("SELECT sid FROM stops WHERE stop_id = 'BELLEVUE'"))
        let bundle = try TransitBundle(
            path: try crafted(
                "UPDATE stop_patterns SET entries = (SELECT entries FROM stop_patterns WHERE sid = \(central)) WHERE sid = \(bellevue)"))
        let reason = refusal { try bundle.departures(from: "BELLEVUE", at: at, within: 3600) }
        XCTAssertTrue(reason.hasPrefix("stop \(bellevue) names stop "), reason)
        XCTAssertTrue(reason.hasSuffix(", which is stop \(central)"), reason)
        XCTAssertFalse(try bundle.departures(from: "CENTRAL_1", at: at, within: 3600).isEmpty)
    }

    // MARK: Cities

    /// A city's numbers outside their ranges (not finite, or beyond what the compiler
    /// keeps) are unknown; a city off the globe is a damaged bundle.
    func testACitysNumbersOutOfRangeAreUnknown() throws {
        let sample = try TransitBundle(path: TestSupport.sampleBundlePath)
        let id = try XCTUnwrap(sample.cities(matching: "lisboa").first?.id)
        let bundle = try TransitBundle(
            path: try crafted(
                "UPDATE cities SET cost_of_living = 1e999, internet_speed = 1e300, safety_rating = -1, population = 9223372036854775807 WHERE city_id = '\(id)'"
            ))
        let city = try bundle.city(id: id)
        XCTAssertNil(city.costOfLiving)
        XCTAssertNil(city.internetSpeed)
        XCTAssertNil(city.safetyRating)
        XCTAssertEqual(city.population, Int.max)
        // The JSON has no null where a number was: the unknown values are left out.
        let json = String(decoding: try JSONEncoder().encode(city), as: UTF8.self)
        XCTAssertFalse(json.contains("cost_of_living"), json)

        let offTheGlobe = try TransitBundle(path: try crafted("UPDATE cities SET lat = 1e999 WHERE city_id = '\(id)'"))
        let cid = try XCTUnwrap(
            try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false).scalarInt(
                "SELECT cid FROM cities WHERE city_id = '\(id)'"))
        XCTAssertEqual(refusal { try offTheGlobe.city(id: id) }, "cities: city \(cid) lies at inf,\(city.lon), off the globe")
        // Nearest: a city off the globe is nobody's nearest; the others still are.
        let nearest = try offTheGlobe.nearestCities(to: Coordinate(latitude: city.lat, longitude: city.lon), limit: 3)
        XCTAssertFalse(nearest.contains { $0.id == id })
        XCTAssertFalse(nearest.isEmpty)
    }

    /// A search of more words or bytes than a query may have is refused before any work.
    func testLongSearchesAreRefusedBeforeAnyWork() throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let manyWords = Array(repeating: "a", count: 100_000).joined(separator: " ")
        XCTAssertThrowsError(try bundle.cities(matching: manyWords)) {
            XCTAssertEqual($0 as? TransitError, .badArgument("a search of 199999 bytes (at most 1000)"))
        }
        let seventeen = Array(repeating: "zu", count: 17).joined(separator: " ")
        XCTAssertThrowsError(try bundle.stops(matching: seventeen)) {
            XCTAssertEqual($0 as? TransitError, .badArgument("a search of 17 words (at most 16)"))
        }
        XCTAssertThrowsError(try bundle.cities(matching: seventeen)) {
            XCTAssertEqual($0 as? TransitError, .badArgument("a search of 17 words (at most 16)"))
        }
        // Sixteen words and a huge limit are a query like any other (the same stops; ranked
        // otherwise, as no name starts with the sixteen words).
        XCTAssertEqual(
            try bundle.stops(matching: Array(repeating: "zurich", count: 16).joined(separator: " "), limit: .max).map(\.id).sorted(),
            try bundle.stops(matching: "zurich").map(\.id).sorted())
        XCTAssertFalse(try bundle.cities(matching: "lisboa", limit: .max).isEmpty)
    }

    // MARK: Fares

    /// 300,000 fare_rules rows for one fare (each its own origin) group in linear time and
    /// the one catch-all rule among them prices the ride; more fare classes than a feed may
    /// have, and bytes the compiler cannot have written, are refused as damage.
    func testAFareOfManyRulesPricesAndTooManyFaresAreRefused() throws {
        func hex(_ bytes: [UInt8]) -> String { "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'" }
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        let fid = try XCTUnwrap(try db.scalarInt("SELECT fid FROM feeds WHERE feed_id = 'metro'"))
        let stored = try db.prepare("SELECT fares FROM fare_classes WHERE fid = ?1")
        stored.bind([fid])
        XCTAssertTrue(try stored.step())
        var fares = try FareClassesBlob.decode(stored.blob(0), maxFares: 10, maxRules: 10)
        XCTAssertEqual(fares.map(\.fareID), ["zone_ticket"])
        fares[0].rules = (1...300_000).map { .init(rid: nil, origin: 1000 + $0, destination: nil, contains: nil) }
        fares[0].rules.insert(.init(rid: nil, origin: nil, destination: nil, contains: nil), at: 0)
        let many = try TransitBundle(
            path: try crafted(
                """
                INSERT INTO fare_zone_names SELECT 1000 + i, \(fid), 'z' || i
                  FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) SELECT i FROM n);
                UPDATE fare_classes SET fares = \(hex(FareClassesBlob.encode(fares))) WHERE fid = \(fid);
                """))
        let journey = try XCTUnwrap(many.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at).first)
        XCTAssertEqual(journey.fare?.amount, Decimal(string: "2.80"))
        XCTAssertEqual(journey.fare?.components.map(\.fareID), ["zone_ticket"])

        let one = fares[0]
        let tooMany = FareClassesBlob.encode(
            (0...200_000).map { _ in
                .init(
                    fareID: "f", units: 100, currency: one.currency, paymentMethod: 0, transfers: nil, aid: nil, transferDuration: nil,
                    rules: [])
            })
        for blob in [hex(tooMany), "x'01'", "x'0101ff'", hex(FareClassesBlob.encode([one]) + [0])] {
            let damaged = try TransitBundle(path: try crafted("UPDATE fare_classes SET fares = \(blob) WHERE fid = \(fid)"))
            XCTAssertEqual(
                refusal { try damaged.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at) },
                "the fare classes of feed \(fid) is damaged in the bundle", String(blob.prefix(20)))
        }
    }

    /// Fares v2: 100,000 rows of one product named by 3,000 leg rules price in one pass
    /// over the product (its price for the rider worked out once), and the cheapest row
    /// the rider may use wins; a total below zero is no fare.
    func testManyProductRowsPriceOnceAndNoTotalIsBelowZero() throws {
        // Fare id 1 is the product "p", 2 + i the leg groups; currency 1 is the samples' CHF
        // (exponent 2).
        let rules = """
            INSERT INTO fare_ids SELECT 1 + i, 1, CASE WHEN i = 0 THEN 'p' ELSE 'g' || i END FROM
              (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) SELECT i FROM n);
            INSERT INTO fare_products SELECT NULL, 1, 1, NULL, NULL, NULL, (2 + i % 1000) * 100, 1 FROM
              (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT i FROM n);
            INSERT INTO fare_leg_rules SELECT NULL, 1, 1 + i, NULL, NULL, NULL, NULL, NULL, 1, NULL FROM
              (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) SELECT i FROM n);
            """
        let bundle = try TransitBundle(path: try crafted(rules))
        let journey = try XCTUnwrap(bundle.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at).first)
        XCTAssertEqual(journey.rides, 1)
        // The product's cheapest row: 2 + 0 (i = 1000, 2000 ...).
        XCTAssertEqual(journey.fare?.amount, Decimal(2))

        let negative = try TransitBundle(
            path: try crafted(rules + "INSERT INTO fare_products VALUES (NULL, 1, 1, NULL, NULL, NULL, -99999999900, 1);"))
        let priced = try XCTUnwrap(negative.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at).first)
        XCTAssertNil(priced.fare)
        XCTAssertNil(try negative.fare(of: priced))
    }

    // MARK: Texts

    /// A name, headsign or translation longer than a text may be is refused with its row
    /// and size, before it is copied into an answer.
    func testTextsLongerThanTheLimitAreRefused() throws {
        let name = try TransitBundle(
            path: try crafted("UPDATE stops SET name = printf('%.*c', 50000000, 'x') WHERE stop_id = 'BELLEVUE'"))
        let bellevue = try XCTUnwrap(
            try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false).scalarInt(
                "SELECT sid FROM stops WHERE stop_id = 'BELLEVUE'"))
        XCTAssertEqual(
            refusal { try name.departures(from: "BELLEVUE", at: at, within: 3600) },
            "stops: stop \(bellevue) has a name of 50000000 bytes (at most 10000)")

        let headsign = try TransitBundle(
            path: try crafted(
                """
                INSERT OR REPLACE INTO translations SELECT \(TranslationField.headsign.rawValue), hid, 'de', printf('%.*c', 10000001, 'y')
                  FROM headsigns
                """),
            language: "de")
        XCTAssertTrue(
            refusal { try headsign.departures(from: "CENTRAL_1", at: at, within: 3600) }.hasSuffix(
                "'s de has a translation of 10000001 bytes (at most 10000)"))
        // Without the language the feed's own headsigns answer.
        let plain = try TransitBundle(path: headsign.path)
        XCTAssertFalse(try plain.departures(from: "CENTRAL_1", at: at, within: 3600).isEmpty)

        let huge = try TransitBundle(
            path: try crafted("UPDATE stops SET name = printf('%.*c', 70000000, 'x') WHERE stop_id = 'BELLEVUE'"))
        XCTAssertEqual(
            refusal { try huge.departures(from: "BELLEVUE", at: at, within: 3600) }, "a value of the bundle is larger than 67108864 bytes")
    }
}
