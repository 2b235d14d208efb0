import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

/// Bundles that are valid SQLite with the right application id, tables and schema version
/// (so they pass the checks of a bundle's identity) but whose values would make the runtime
/// trap, hang or allocate without bound: each is refused when opened, as
/// `TransitError.corruptBundle` naming the table and value (docs: `BundleCheck`).
final class HostileBundleTests: XCTestCase {
    /// A copy of the sample bundle (metro, valley, cities) edited by `sql`.
    private func crafted(_ sql: String) throws -> String { try TestSupport.sampleBundleCopy(editedBy: sql) }

    /// The reason the bundle at `path` is refused as damaged ("opened" when it opens).
    private func refusal(_ path: String) -> String {
        do {
            _ = try TransitBundle(path: path)
            return "opened"
        } catch TransitError.corruptBundle(let reason) {
            return reason
        } catch {
            return "another error: \(error)"
        }
    }

    /// One crafted row each, with the exact reason it is refused for.
    func testEachCraftedValueIsRefusedWithItsReason() throws {
        let cases: [(sql: String, reason: String)] = [
            ("UPDATE stops SET fid = 9 WHERE sid = 1", "stops: fid 9 names no feed"),
            ("UPDATE stops SET fid = 0 WHERE sid = 1", "stops: fid 0 names no feed"),
            ("UPDATE frequencies SET headway_secs = 0", "frequencies: trip"),
            ("UPDATE frequencies SET headway_secs = -60", "frequencies: trip"),
            ("UPDATE frequencies SET end_time_secs = 9223372036854775807", "frequencies: trip"),
            ("UPDATE feeds SET max_time_secs = 9223372036854775807 WHERE fid = 1", "feeds: feed 1 has max_time_secs 9223372036854775807"),
            ("UPDATE feeds SET max_time_secs = 1000000000000 WHERE fid = 1", "feeds: feed 1 has max_time_secs 1000000000000"),
            ("UPDATE feeds SET max_time_secs = -1 WHERE fid = 1", "feeds: feed 1 has max_time_secs -1"),
            ("UPDATE feeds SET fid = 7 WHERE fid = 2", "feeds: fid runs from 1 to 7 for 2 feeds"),
            ("UPDATE feeds SET timezone = 'Mars/Olympus' WHERE fid = 1", "feeds: feed 1 has time zone \"Mars/Olympus\""),
            ("INSERT INTO transfers VALUES (1, 999999, 2, 60)", "transfers: the row from stop 1 to stop 999999"),
            ("INSERT INTO transfers VALUES (-3, 1, 0, NULL)", "transfers: the row from stop -3 to stop 1"),
            ("INSERT INTO transfers VALUES (1, 2, 2, -5)", "transfers: the row from stop 1 to stop 2"),
            ("INSERT INTO transfers VALUES (1, 2, 77, NULL)", "transfers: the row from stop 1 to stop 2 (type 77)"),
            ("UPDATE stops SET parent_sid = 999999 WHERE sid = 1", "stops: parent_sid 999999 names no stop"),
            ("UPDATE stops SET parent_sid = -1 WHERE sid = 1", "stops: parent_sid -1 names no stop"),
            ("UPDATE stops SET sid = -5 WHERE sid = (SELECT max(sid) FROM stops)", "stops: sid runs from -5"),
            ("UPDATE stops SET sid = 1500000000 WHERE sid = (SELECT max(sid) FROM stops)", "to 1500000000 (1 to 2000000)"),
            ("UPDATE stops SET lat_e7 = 4000000000 WHERE sid = 1", "stops: stop 1 lies outside latitude"),
            ("UPDATE routes SET fid = 3", "routes: fid 3 names no feed"),
            // Found by tools/hostile_bundles.py on nyc-subway: `transit-query shape` trapped.
            ("INSERT INTO shapes VALUES (1, 0, 'S', x'00')", "shapes: fid 0 names no feed"),
            ("UPDATE trip_ids SET fid = 5", "trip_ids: fid 5 names no feed"),
            ("UPDATE stop_ids SET fid = -2", "stop_ids: fid -2 names no feed"),
            ("UPDATE dict_route SET fid = 9", "dict_route: fid 9 names no feed"),
            ("UPDATE city_feeds SET fid = 3", "city_feeds: fid 3 names no feed"),
            (
                "UPDATE patterns SET pid = 4000000000000 WHERE pid = (SELECT max(pid) FROM patterns)",
                "patterns: pid 4000000000000 is out of range"
            ),
            ("UPDATE patterns SET pid = -4 WHERE pid = (SELECT min(pid) FROM patterns)", "patterns: pid -4 is out of range"),
            (
                "INSERT INTO calendar VALUES (4000000000000, 127, 20260101, 20261231)",
                "calendar: sv 4000000000000 is out of range (0 to 1000000)"
            ),
            ("UPDATE calendar SET end_date = 2026123199", "calendar: service"),
            ("INSERT OR REPLACE INTO metadata VALUES ('junk', zeroblob(100000))", "a metadata value of 100000 bytes"),
            (
                "DROP TABLE calendar; CREATE VIEW calendar(sv, days, start_date, end_date) AS WITH RECURSIVE n(i) AS "
                    + "(SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i, 127, 20260101, 20261231 FROM n",
                "calendar is a view, not a table"
            ),
            (
                "DROP TABLE metadata; CREATE VIEW metadata(key, value) AS SELECT 'schema_version', printf('%.*c', 900000000, 'x')",
                "metadata is a view, not a table"
            ),
            ("DROP TABLE stops_fts; CREATE TABLE stops_fts (name TEXT)", "stops_fts is an ordinary table, not FTS5"),
        ]
        for (sql, reason) in cases {
            let found = refusal(try crafted(sql))
            XCTAssertTrue(found.hasPrefix(reason) || found.contains(reason), "\(sql)\n  refused for: \(found)\n  expected: \(reason)")
        }
    }

    /// More stops than the documented limit (2,000,000): refused by their count, before
    /// anything is allocated for them (10 million such rows made the planner take 6.9 GB).
    func testMoreStopsThanTheLimitAreRefused() throws {
        let path = try crafted(
            """
            INSERT INTO stops (sid, fid, stop_id, name, location_type, wheelchair_boarding)
            WITH RECURSIVE n(i) AS (SELECT 1000 UNION ALL SELECT i + 1 FROM n WHERE i < 2001000)
            SELECT i, 1, 'extra' || i, 'extra', 0, 0 FROM n
            """)
        XCTAssertEqual(refusal(path), "stops: 2000014 rows (at most 2000000)")
    }

    /// The sample bundle itself passes, and a crafted value that stays within the bounds (a
    /// stop with no coordinates, a transfer of type 3) still answers every kind of question.
    func testValidBundlesAndInRangeEditsStillOpenAndAnswer() throws {
        XCTAssertEqual(refusal(TestSupport.sampleBundlePath), "opened")
        let path = try crafted(
            "UPDATE stops SET lat_e7 = NULL, lon_e7 = NULL WHERE sid = 2; INSERT OR REPLACE INTO transfers VALUES (1, 2, 3, NULL)")
        let bundle = try TransitBundle(path: path)
        let at = try QueryTime.parse("2026-03-30T08:00")
        XCTAssertFalse(try bundle.departures(from: "CENTRAL", at: at, within: 3600).isEmpty)
        _ = try bundle.arrivals(to: ["CENTRAL"], at: at, within: 3600)
        _ = try bundle.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at)
        _ = try bundle.stops(matching: "central")
    }

    /// Fares, pathways and translations with values no compiler writes (ids past Int32, a
    /// price that is no number, currencies mixed, negative and huge times, a pathway mode
    /// out of range) or at the ends of their ranges: the bundle opens and every answer
    /// comes without a trap (pathways out of range: `HostileTablesTests`).
    func testCraftedFaresPathwaysAndTranslationsAnswerWithoutATrap() throws {
        // Fare classes encoded as the compiler would, of values it never writes: a currency
        // none has, one of 99 decimals, the largest price, an agency, route and zones past
        // every table, a duration of 2^31 - 1 s.
        let fares = FareClassesBlob.encode([
            .init(
                fareID: "a", units: FareClassesBlob.maxUnits, currency: 1, paymentMethod: 1, transfers: 2, aid: 99_999, transferDuration: 0,
                rules: [.init(rid: 99_999_999, origin: 12_345, destination: nil, contains: 777)]),
            .init(fareID: "b", units: 5, currency: 99, paymentMethod: 0, transfers: nil, aid: nil, transferDuration: nil, rules: []),
            .init(
                fareID: "c", units: 280, currency: 2, paymentMethod: 0, transfers: 0, aid: nil, transferDuration: Int(Int32.max) - 1,
                rules: [.init(rid: nil, origin: nil, destination: nil, contains: nil)]),
            .init(fareID: "d", units: 7, currency: 3, paymentMethod: 0, transfers: nil, aid: nil, transferDuration: nil, rules: []),
        ])
        let path = try crafted(
            """
            INSERT OR REPLACE INTO currencies VALUES (1, 'CHF', 9), (2, 'EUR', 2), (3, 'XXX', 99);
            INSERT OR REPLACE INTO fare_classes VALUES (1, x'\(fares.map { String(format: "%02x", $0) }.joined())');
            INSERT OR REPLACE INTO fare_zone_names VALUES (12345, 1, 'z'), (-1, 99, 'y');
            INSERT OR REPLACE INTO fare_zones VALUES (1, 12345), (99999999999, 7);
            INSERT INTO pathways VALUES (2, 1, 2, 99, 1, 10, 10, 0);
            INSERT INTO pathways VALUES (3, 1, 2, 5, 1, 86400, NULL, NULL), (4, 2, 3, 2, 0, NULL, 999999, -10000);
            INSERT INTO translations VALUES (1, 1, 'de', 'Hauptbahnhof'), (4, 99999999999, 'de', 'x'), (99, -1, '', '');
            INSERT INTO attributions VALUES (11, 99, 'Nobody', 5, -1, 2, 4294967296, -3, NULL, NULL, NULL, NULL);
            """)
        for language in [nil, "de", "zz"] {
            let bundle = try TransitBundle(path: path, language: language)
            let at = try QueryTime.parse("2026-03-30T08:00")
            _ = try bundle.info()
            _ = try bundle.departures(from: "CENTRAL", at: at, within: 3600)
            _ = try bundle.stops(matching: "central")
            for wheelchair in [false, true] {
                var options = JourneyOptions()
                options.wheelchair = wheelchair
                for journey in try bundle.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at, options: options) {
                    if let fare = try bundle.fare(of: journey) { _ = try JSONEncoder().encode(fare) }
                }
                _ = try bundle.journeys(
                    from: .coordinate(Coordinate(latitude: 47.3779, longitude: 8.5403)), to: .stop("BELLEVUE"), arrivingBy: at,
                    options: options)
            }
        }
    }

    /// Fares v2 rows no compiler writes: amounts that are not numbers or past every bound,
    /// currencies and fare ids the bundle lacks or of another feed, negative and huge ids,
    /// unknown transfer and limit types, thousands of rules matching every ride (the
    /// pricer bounds its combinations), services no calendar has.
    func testCraftedFaresV2AnswerWithoutATrapOrAHang() throws {
        let path = try crafted(
            """
            INSERT INTO fare_ids VALUES (1, 1, 'p'), (2, 1, 'q'), (3, 1, 'r'), (4, 1, 'x'), (5, 1, 'm'), (6, 1, 'ghost'),
              (7, 1, 'net'), (8, 1, 'a'), (9, 1, 'b'), (10, 1, 'tf'), (11, 1, 'none'), (12, 1, 'g'), (13, 99, 'elsewhere');
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 6) INSERT INTO fare_ids SELECT 20 + i, 1, 'g' || i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
              INSERT INTO fare_ids SELECT 10000 + i, 1, 'p' || i FROM n;
            INSERT OR REPLACE INTO currencies VALUES (2, 'EUR', 2), (3, 'XXX', 99), (4, 'YYY', -3);
            INSERT INTO fare_products VALUES (NULL, 1, 1, NULL, NULL, NULL, 'not a price', 1),
              (NULL, 1, 1, NULL, NULL, NULL, 9223372036854775807, 1), (NULL, 1, 10001, NULL, NULL, NULL, 5, 3),
              (NULL, 1, 2, 4, NULL, 5, -9223372036854775807, 1), (NULL, 1, 3, NULL, 6, NULL, 280, 2), (NULL, 1, 99999, NULL, NULL, NULL, 5, 4),
              (NULL, 1, -7, 123456, 654321, NULL, 100, 77);
            INSERT INTO rider_categories VALUES (NULL, 1, 6, 'Ghost', 7, NULL), (NULL, 1, 424242, 'Nobody', 1, NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
              INSERT INTO fare_products SELECT NULL, 1, 10000 + i, NULL, NULL, NULL, (i % 97) * 100 + 50, 1 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
              INSERT INTO fare_leg_rules SELECT NULL, 1, 20 + i % 7, NULL, NULL, NULL, NULL, NULL, 10000 + i, NULL FROM n;
            INSERT INTO fare_leg_rules VALUES (NULL, 1, 21, 7, 8, 9, 10, 10, 2, NULL),
              (NULL, 1, NULL, NULL, NULL, NULL, 11, NULL, 3, NULL), (NULL, 99, 12, NULL, NULL, NULL, NULL, NULL, 1, NULL),
              (NULL, 1, 98765, 98765, NULL, NULL, NULL, NULL, 98765, NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
              INSERT INTO fare_transfer_rules SELECT NULL, 1, 20 + i % 7, 20 + i % 5, i - 10000, i * 1000, i % 9 - 4, i % 5 - 1,
                CASE WHEN i % 3 = 0 THEN NULL ELSE 10000 + (i % 3000) END FROM n;
            INSERT INTO timeframes VALUES (NULL, 1, 10, -86400, 999999999, -1), (NULL, 1, 10, 0, 86400, 4611686018427387904),
              (NULL, 1, 10, 0, 86400, 0), (NULL, 1, 31337, 0, 86400, 0);
            INSERT INTO stop_areas VALUES (99999999999, 8), (-1, 9), (1, 8), (2, 55555);
            INSERT INTO route_networks VALUES (-5, 7), (99999999999, 7);
            """)
        let bundle = try TransitBundle(path: path)
        let at = try QueryTime.parse("2026-03-30T08:00")
        var pricedByProducts = 0
        for journey in try bundle.journeys(from: .stop("CENTRAL"), to: .stop("BELLEVUE"), departingAt: at) {
            for options in [FareOptions(), FareOptions(riderCategoryID: "x", fareMediaID: "m"), FareOptions(riderCategoryID: "ghost")] {
                if let fare = try bundle.fare(of: journey, options: options) {
                    XCTAssertEqual(fare.amount, fare.components.reduce(Decimal(0)) { $0 + $1.amount })
                    // A finite amount: the JSON of a NaN would not encode.
                    _ = try JSONEncoder().encode(fare)
                    if fare.components.allSatisfy({ $0.paymentMethod == nil }) { pricedByProducts += 1 }
                }
            }
        }
        // The catch-all rules price the rides with the crafted products.
        XCTAssertGreaterThan(pricedByProducts, 0)
    }

    /// A board reads a stop's patterns in runs of rows (`PatternCache.decodeMissing`): a
    /// row missing from a run, or the run's first or last, is a damaged bundle naming the
    /// pattern, whichever the board meets, and the stop's other boards are refused alike.
    func testAPatternMissingFromAStopsRunIsNamed() throws {
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        let q = try db.prepare("SELECT entries FROM stop_patterns WHERE sid = (SELECT sid FROM stops WHERE stop_id = 'CENTRAL_1')")
        XCTAssertTrue(try q.step())
        let pids = Array(Set(try StopPatternsBlob.decode(q.blob(0)).map(\.pid))).sorted()
        XCTAssertGreaterThanOrEqual(pids.count, 3, "the sample's platform is on several patterns")
        for pid in [pids.first!, pids[pids.count / 2], pids.last!] {
            let bundle = try TransitBundle(path: try crafted("DELETE FROM patterns WHERE pid = \(pid)"))
            XCTAssertThrowsError(try bundle.departures(from: "CENTRAL_1", at: QueryTime.parse("2026-03-30T08:00"))) {
                XCTAssertEqual($0 as? TransitError, .corruptBundle(reason: "pattern \(pid) is missing from the bundle"))
            }
        }
    }

    /// A pattern's feed is never read (its trips and stops carry what the runtime uses), so
    /// the opening does not pass over every pattern for it: a bundle whose patterns name no
    /// feed opens and answers boards and journeys as the sample does.
    func testAPatternsFeedIsNotReadSoItIsNotChecked() throws {
        let sample = try TransitBundle(path: TestSupport.sampleBundlePath)
        let crafted = try TransitBundle(path: try crafted("UPDATE patterns SET fid = -1"))
        let at = try QueryTime.parse("2026-03-30T08:00")
        let boards = try [sample, crafted].map { b in
            try b.departures(from: "CENTRAL_1", at: at).map { "\($0.tripID) \($0.departureTime)" }
        }
        XCTAssertFalse(boards[0].isEmpty)
        XCTAssertEqual(boards[1], boards[0])
        let journeys = try [sample, crafted].map { b in
            try b.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at).map {
                $0.legs.map { $0.boarding?.tripID ?? "walk" }
            }
        }
        XCTAssertFalse(journeys[0].isEmpty)
        XCTAssertEqual(journeys[1], journeys[0])
    }
}
