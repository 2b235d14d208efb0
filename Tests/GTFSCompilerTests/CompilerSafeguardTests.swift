import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

@testable import GTFSCompiler

/// The compiler never writes a wrong bundle silently: each case here was reproduced as a
/// wrong result with exit 0 before its fix.
final class CompilerSafeguardTests: XCTestCase {
    private let stopsS123 = "stop_id,stop_name,stop_lat,stop_lon\nS1,One,48.0,7.0\nS2,Two,48.01,7.01\nS3,Three,48.02,7.02\n"

    /// One trip T1 of three stops, the middle one untimed, with the given shape distances.
    private func untimedMiddle(stops: String, distances: [String]? = nil) -> [String: String?] {
        let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence" + (distances == nil ? "" : ",shape_dist_traveled")
        let rows = [("08:05:00", "S1"), ("", "S2"), ("08:15:00", "S3")].enumerated().map { i, row in
            "T1,\(row.0),\(row.0),\(row.1),\(i + 1)" + (distances.map { ",\($0[i])" } ?? "")
        }
        return [
            "stops.txt": stops, "trips.txt": "route_id,service_id,trip_id\nR,D,T1\n",
            "stop_times.txt": ([header] + rows).joined(separator: "\n") + "\n",
        ]
    }

    private func times(_ bundle: String?, trip: String = "T1") throws -> [Int] {
        let path = try XCTUnwrap(bundle, "the feed compiles")
        return try TransitBundle(path: path).trip(trip, on: ServiceDate("2026-03-30")!).stopTimes.map(\.departureSecs)
    }

    // MARK: - A feed is never abandoned silently

    func testBrokenCSVFailsTheCompileInsteadOfDroppingTheFeed() throws {
        let feed = TemporaryFolders.make().appendingPathComponent("metro")
        try FileManager.default.copyItem(atPath: TestSupport.samples + "/metro", toPath: feed.path)
        let stops = feed.appendingPathComponent("stops.txt")
        try (String(contentsOf: stops, encoding: .utf8) + "\"UNCLOSED,Oops,47.0,8.0\n").write(to: stops, atomically: true, encoding: .utf8)
        let output = feed.deletingLastPathComponent().appendingPathComponent("out.db").path
        let log = DiagnosticLog()
        XCTAssertThrowsError(
            try Compiler.compile(
                CompileRequest(
                    feeds: [
                        .init(name: "good", path: TestSupport.samples + "/valley"),
                        .init(name: "metro", path: feed.path),
                    ], outputPath: output), log: log)
        ) { XCTAssertEqual(($0 as? CompileFailure)?.summary.feeds, 1, "valley was built, metro refused") }
        let error = try XCTUnwrap(log.diagnostics.first { $0.code == .brokenCSV })
        XCTAssertEqual(error.severity, .error)
        XCTAssertEqual(error.feed, "metro")
        XCTAssertEqual(error.file, "stops.txt")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    /// Invariant: a compile that succeeds holds every feed it was given.
    func testACompileNeverSucceedsWithFewerFeedsThanGiven() throws {
        var inputs = try FileManager.default.contentsOfDirectory(atPath: TestSupport.zips).map { TestSupport.zips + "/" + $0 }
        // The broken feeds join the fixture zips where the shared data is here (in CI always).
        if FileManager.default.fileExists(atPath: TestPaths.shared.path) || TestPaths.mustNotSkip {
            let broken = try TestPaths.requireShared("broken").path
            inputs += try FileManager.default.contentsOfDirectory(atPath: broken).filter { $0.hasSuffix(".zip") }.map { broken + "/" + $0 }
            XCTAssertGreaterThan(inputs.count, 30, "the fixture zips and the 38 broken feeds")
        }
        XCTAssertGreaterThan(inputs.count, 5)
        var succeeded = 0
        var failed = 0
        for input in inputs {
            let output = TemporaryFolders.make().appendingPathComponent("b.db").path
            let request = CompileRequest(
                feeds: [.init(name: "metro", path: TestSupport.samples + "/metro"), .init(name: "x", path: input)],
                outputPath: output)
            guard let summary = try? Compiler.compile(request) else {
                XCTAssertFalse(FileManager.default.fileExists(atPath: output), input)
                failed += 1
                continue
            }
            succeeded += 1
            XCTAssertEqual(summary.feeds, 2, input)
            XCTAssertEqual(try TransitBundle(path: output).feedIDs, ["metro", "x"], input)
        }
        // Both branches are exercised: the invariant is checked on real successes.
        XCTAssertGreaterThan(succeeded, 2, "compiles that succeeded")
        XCTAssertGreaterThan(failed, 0, "compiles that failed")
    }

    // MARK: - Interpolation stays between its timed stops

    func testDecreasingShapeDistanceFallsBackToGreatCircleDistance() throws {
        let (log, bundle) = TestSupport.compile(untimedMiddle(stops: stopsS123, distances: ["0", "5000", "1000"]))
        // 08:05 + 5000/1000 of 10 minutes would be 08:55; the stops are evenly spaced, so 08:10.
        XCTAssertEqual(try times(bundle), [29_100, 29_400, 29_700])
        XCTAssertEqual(log.diagnostics.first { $0.code == .badShapeDistance }?.entityID, "T1")
    }

    func testPatternOffsetsNeverDecreaseOnTheSamples() throws {
        // Offsets along every pattern never decrease, interpolated or not.
        let dump = try BundleDump(path: TestSupport.sampleBundlePath)
        XCTAssertFalse(dump.trips.isEmpty)
        for trip in dump.trips {
            let offsets = trip.stops.map(\.departureOffset)
            XCTAssertEqual(offsets, offsets.sorted(), trip.tripID)
        }
    }

    func testStopsAtZeroZeroOrWithoutCoordinatesAreNotUsedAsDistance() throws {
        for placeholder in ["0,0", ","] {
            let stops =
                "stop_id,stop_name,stop_lat,stop_lon\nS1,One,48.0,7.0\nS2,Nowhere,\(placeholder)\nS3,Three,48.1,7.1\nS4,Four,48.1001,7.1001\n"
            let stopTimes = """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,,,S2,2
                T1,,,S3,3
                T1,08:30:00,08:30:00,S4,4

                """
            let (log, bundle) = TestSupport.compile([
                "stops.txt": stops, "trips.txt": "route_id,service_id,trip_id\nR,D,T1\n",
                "stop_times.txt": stopTimes,
            ])
            // Through 0,0, S3 would come at 08:29; by position it is 08:20.
            XCTAssertEqual(try times(bundle), [28_800, 29_400, 30_000, 30_600], placeholder)
            XCTAssertEqual(log.diagnostics.first { $0.code == .badStopLocation }?.entityID, "S2", placeholder)
            let stop = try TransitBundle(path: try XCTUnwrap(bundle)).stops(matching: "nowhere").first
            XCTAssertNil(stop?.latitude, placeholder)
        }
    }

    // MARK: - Timezones

    private func agencies(_ zones: [String]) -> [String: String?] {
        let rows = zones.enumerated().map { "A\($0),Agency \($0),https://example.org,\($1)" }
        return [
            "agency.txt": (["agency_id,agency_name,agency_url,agency_timezone"] + rows).joined(separator: "\n") + "\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A0,1,3\n",
        ]
    }

    func testAbbreviationsAndFixedOffsetsAreRefused() throws {
        for zone in ["PST", "GMT-8", "Etc/GMT+8", "CET", "Mars/Pluto"] {
            let (log, bundle) = TestSupport.compile(agencies([zone]))
            XCTAssertNil(bundle, zone)
            XCTAssertEqual(log.diagnostics.first { $0.code == .badTimezone }?.value, zone)
            XCTAssertNotNil(log.diagnostics.first { $0.code == .noTimezone }, zone)
        }
        let (log, _) = TestSupport.compile(agencies(["GMT-8"]))
        XCTAssertTrue(log.diagnostics.first { $0.code == .badTimezone }?.message.contains("fixed offset") == true)
    }

    func testTimezoneNamesAreMatchedToTheirCanonicalCase() throws {
        let (log, bundle) = TestSupport.compile(agencies(["america/los_angeles"]))
        XCTAssertEqual(try TransitBundle(path: try XCTUnwrap(bundle)).info().feeds[0].timezone, "America/Los_Angeles")
        XCTAssertTrue(log.diagnostics.first { $0.code == .badTimezone }?.message.contains("America/Los_Angeles") == true)
    }

    func testAgenciesWithDifferentTimezonesAreReportedNamingBoth() throws {
        let (log, bundle) = TestSupport.compile(agencies(["Europe/Paris", "Europe/London"]))
        XCTAssertEqual(try TransitBundle(path: try XCTUnwrap(bundle)).info().feeds[0].timezone, "Europe/Paris")
        let message = try XCTUnwrap(log.diagnostics.first { $0.code == .mixedTimezones }?.message)
        XCTAssertTrue(message.contains("Europe/Paris") && message.contains("Europe/London"), message)
    }

    // MARK: - Repairs are said

    func testOneSidedTimesAreRepairedAndReported() throws {
        let stopTimes =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,,S1,1\nT1,,08:10:00,S2,2\nT1,08:20:00,08:20:00,S3,3\n"
        let (log, bundle) = TestSupport.compile(["trips.txt": "route_id,service_id,trip_id\nR,D,T1\n", "stop_times.txt": stopTimes])
        XCTAssertEqual(try times(bundle), [28_800, 29_400, 30_000])
        let reported = log.diagnostics.filter { $0.code == .oneSidedTime }
        XCTAssertEqual(reported.map(\.line), [2, 3])
        XCTAssertEqual(reported.map(\.field), ["departure_time", "arrival_time"])
    }

    func testDuplicateTripsOnACommonDateAreReportedWithBothIdsAndTheDate() throws {
        let calendar = """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,0,0,20260101,20261231
            WE,0,0,0,0,0,1,1,20260101,20261231

            """
        let trips = "route_id,service_id,trip_id\nR,WK,A\nR,WE,B\nR,WE,C\nR,X,D\n"
        let stopTimes = ["A", "B", "C", "D"].map { "\($0),08:00:00,08:00:00,S1,1\n\($0),08:10:00,08:10:00,S2,2\n" }.joined()
        let (log, bundle) = TestSupport.compile([
            "calendar.txt": calendar, "calendar_dates.txt": "service_id,date,exception_type\nX,20260508,1\n", "trips.txt": trips,
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + stopTimes,
        ])
        XCTAssertNotNil(bundle, "duplicates are kept")
        let found = log.diagnostics.filter { $0.code == .duplicateTrip }.map { ($0.entityID ?? "", $0.message) }
        // A (weekdays) and B (weekends) never meet; C repeats B on the first Saturday; D repeats A on Friday 2026-05-08.
        XCTAssertEqual(Set(found.map(\.0)), ["C", "D"])
        XCTAssertTrue(found.contains { $0.0 == "C" && $0.1.contains("\"B\"") && $0.1.contains("2026-01-03") }, "\(found)")
        XCTAssertTrue(found.contains { $0.0 == "D" && $0.1.contains("\"A\"") && $0.1.contains("2026-05-08") }, "\(found)")
    }

    // MARK: - Absurd times

    func testTimesPast48HoursWarnAndPast7DaysAreRefused() throws {
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,49:00:00,49:00:00,S1,1
            T1,49:10:00,49:10:00,S2,2
            T2,08:00:00,08:00:00,S1,1
            T2,300:00:00,300:00:00,S2,2

            """
        let (log, bundle) = TestSupport.compile(["stop_times.txt": stopTimes])
        XCTAssertEqual(log.countsByCode[.lateTime], 2)
        XCTAssertEqual(log.diagnostics.first { $0.code == .timeLimit }?.line, 5)
        let path = try XCTUnwrap(bundle)
        XCTAssertThrowsError(try TransitBundle(path: path).trip("T2", on: ServiceDate("2026-03-30")!)) {
            XCTAssertEqual($0 as? TransitError, .unknownTrip("T2"))
        }
        let db = try SQLiteDatabase(path: path, writable: false)
        XCTAssertEqual(try db.scalarInt("SELECT max_time_secs FROM feeds"), 49 * 3600 + 600)
    }

    // MARK: - Declared coverage

    func testADayInsideTheDeclaredCoverageWithoutServiceIsAnEmptyBoard() throws {
        let (_, bundle) = TestSupport.compile([
            "calendar.txt":
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20260131\nNONE,0,0,0,0,0,0,0,20260101,20260630\n",
            "feed_info.txt":
                "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\nP,https://example.org,en,20260101,20260831\n",
        ])
        let transit = try TransitBundle(path: try XCTUnwrap(bundle))
        XCTAssertEqual(try transit.departures(from: "S1", at: try QueryTime.parse("2026-01-05T07:30")).map(\.tripID), ["T1"])
        XCTAssertEqual(try transit.departures(from: "S1", at: try QueryTime.parse("2026-07-15T07:30")), [])
        XCTAssertThrowsError(try transit.departures(from: "S1", at: try QueryTime.parse("2026-10-01T07:30"))) { error in
            guard case .dateOutOfRange(_, _, let first, let last)? = error as? TransitError else { return XCTFail("\(error)") }
            XCTAssertEqual([first, last], ["2026-01-01", "2026-08-31"])
        }
    }

    // MARK: - All problems in one run

    func testEveryMissingFileAndColumnIsNamedInOneRun() throws {
        let (log, bundle) = TestSupport.compile(["stops.txt": nil, "routes.txt": nil, "trips.txt": "trip_id\nT1\n"])
        XCTAssertNil(bundle)
        XCTAssertEqual(Set(log.diagnostics.filter { $0.code == .missingFile }.compactMap(\.file)), ["stops.txt", "routes.txt"])
        XCTAssertEqual(Set(log.diagnostics.filter { $0.code == .missingColumn }.compactMap(\.field)), ["route_id", "service_id"])
        XCTAssertEqual(log.countsByCode[.unknownReference], nil, "rows pointing into a missing file are not reported one by one")
    }

    func testNULByteInAStopNameIsDroppedWithAWarning() throws {
        let (log, bundle) = TestSupport.compile([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,Gare\u{0}Centrale,48.0,7.0\nS2,Two,48.01,7.01\nS3,Three,48.02,7.02\n"
        ])
        let stop = try TransitBundle(path: try XCTUnwrap(bundle)).stops(matching: "garecentrale").first
        XCTAssertEqual(stop?.name, "GareCentrale")
        let warning = try XCTUnwrap(log.diagnostics.first { $0.code == .nulByte })
        XCTAssertEqual([warning.line, warning.column], [2, 2])
        XCTAssertEqual(warning.field, "stop_name")
    }

    // MARK: - Output failures

    func testOutputIntoAMissingFolderNamesThePath() throws {
        let output = TemporaryFolders.make().appendingPathComponent("missing/out.db").path
        let log = DiagnosticLog()
        XCTAssertThrowsError(
            try Compiler.compile(
                CompileRequest(
                    feeds: [.init(name: "metro", path: TestSupport.samples + "/metro")],
                    outputPath: output), log: log)
        ) { error in
            XCTAssertEqual((error as? CompileFailure)?.summary.feeds, 1, "the report still has the feed's counts")
        }
        let diagnostic = try XCTUnwrap(log.diagnostics.first { $0.code == .outputFailed })
        XCTAssertEqual(diagnostic.file, output)
        XCTAssertTrue(diagnostic.message.contains("does not exist"), diagnostic.message)
    }

    func testTheDiagnosticsTableOfTheCompilerDocIsTheCatalogue() throws {
        let doc = try String(contentsOf: TestPaths.repository.appendingPathComponent("docs/gtfs-compile.md"), encoding: .utf8)
        XCTAssertTrue(
            doc.contains(DiagnosticCode.markdownTable), "regenerate the table of docs/gtfs-compile.md with `gtfs-compile --list-codes`")
    }
}
