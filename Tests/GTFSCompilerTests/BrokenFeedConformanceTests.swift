import Foundation
import TestKit
import TestSupport
import XCTest

@testable import GTFSCompiler

/// Every feed in ../shared/broken, with its expected outcome, like a validator's
/// expected-errors file. The expectations follow ../shared/broken/README.md: what is
/// wrong with each feed and what the diagnostics catalogue says the compiler does.
/// Reads ../shared: skipped when it is absent (a user's clone has none; CI has it).
final class BrokenFeedConformanceTests: XCTestCase {
    static let folder = TestPaths.shared.appendingPathComponent("broken")

    /// feed -> (bundle written?, warning and error codes that must appear, and no others;
    /// information such as I_UNUSED_FILE for fares.txt is not counted).
    static let expected: [String: (Bool, Set<String>)] = [
        "tf-bad_date_format": (true, ["W_BAD_DATE", "W_UNKNOWN_REF"]),  // bad dates drop services, then their trips
        "tf-bad_eol": (true, []),
        "tf-bad_utf8": (false, ["E_NOT_UTF8"]),
        "tf-contains_null": (true, ["W_NUL_BYTE", "W_CELL_COUNT"]),  // the NUL byte is dropped from the name
        "tf-duplicate_schedule_id": (true, ["W_DUPLICATE_ID"]),
        "tf-duplicate_stop": (true, ["W_CELL_COUNT"]),  // near-duplicates are distinct stops
        "tf-duplicate_stop_sequence": (true, ["W_SEQUENCE"]),
        "tf-empty_file": (false, ["W_EMPTY_FILE", "E_MISSING_COLUMN", "W_CELL_COUNT"]),  // the other files are still read
        "tf-extra_row_cells": (true, ["W_CELL_COUNT"]),
        "tf-filter_unusual_trips": (true, ["W_DUPLICATE_TRIP"]),  // CITY3/5/7/9 and CITY4/6/8/10 are identical
        "tf-invalid_route_agency": (true, ["W_UNKNOWN_REF"]),
        "tf-missing_agency": (false, ["E_MISSING_FILE", "W_CELL_COUNT"]),
        "tf-missing_calendar": (false, ["E_MISSING_FILE"]),
        "tf-missing_column": (false, ["E_MISSING_COLUMN", "W_CELL_COUNT"]),
        "tf-missing_departure_time": (true, ["W_ONE_SIDED_TIME"]),  // departure taken from arrival, and said
        "tf-missing_endpoint_times": (true, ["W_ENDPOINT_TIME"]),
        "tf-missing_row_cells": (true, ["W_CELL_COUNT"]),
        "tf-missing_stop_times": (false, ["E_MISSING_FILE"]),
        "tf-missing_stops": (false, ["E_MISSING_FILE", "W_CELL_COUNT"]),
        "tf-missing_weekday_column": (false, ["E_MISSING_COLUMN", "W_CELL_COUNT"]),
        "tf-negative_stop_sequence": (true, ["W_SEQUENCE"]),
        "tf-only_calendar_dates": (true, []),
        "tf-undefined_stop": (true, ["W_UNKNOWN_REF"]),
        "tf-unknown_file": (true, ["W_UNKNOWN_FILE"]),
        "tf-utf16": (false, ["E_NOT_UTF8"]),
        "tf-utf8bom": (true, []),
        // Their attributions.txt ends each row with an extra comma: 12 cells for 11 columns.
        // The tl-* feeds share a base whose routes.txt has network_id and which also has
        // networks.txt and route_networks.txt, which the reference then forbids (W_BAD_VALUE).
        "tl-agency-invalid-timezone": (false, ["W_TIMEZONE", "E_NO_TIMEZONE", "W_UNKNOWN_FILE", "W_CELL_COUNT", "W_BAD_VALUE"]),
        // These three also translate the name of agency "ok", which agency.txt lacks.
        "tl-feed-headers-missing": (
            false, ["E_MISSING_COLUMN", "W_DUPLICATE_COLUMN", "W_UNKNOWN_FILE", "W_CELL_COUNT", "W_UNKNOWN_REF", "W_BAD_VALUE"]
        ),
        "tl-stops-invalid-parent_station": (true, ["W_PARENT_STATION", "W_CELL_COUNT", "W_UNKNOWN_FILE", "W_UNKNOWN_REF", "W_BAD_VALUE"]),
        "tl-trips-backwards-time": (
            false, ["W_TIME_BACKWARDS", "E_NO_TRIPS", "W_CELL_COUNT", "W_UNKNOWN_FILE", "W_UNKNOWN_REF", "W_BAD_VALUE"]
        ),
        "tl-trips-unknown-service_id": (false, ["W_UNKNOWN_REF", "E_NO_TRIPS", "W_UNKNOWN_FILE", "W_CELL_COUNT", "W_BAD_VALUE"]),
        "vtor-aachener_73069683": (true, []),
        "vtor-bogus_frequencies": (true, ["W_FREQUENCY"]),
        "vtor-duplicate_trips": (true, ["W_DUPLICATE_TRIP"]),
        "vtor-invalid_stoptime_type": (false, ["W_BAD_VALUE", "W_FEW_STOPS", "E_NO_TRIPS"]),
        "vtor-space_header": (true, []),
        "vtor-timetravels": (true, ["W_TIME_BACKWARDS"]),
        "vtor-verybad": (
            false,
            [
                "E_MISSING_COLUMN", "W_DUPLICATE_COLUMN", "W_UNKNOWN_FILE", "W_STOP_LOCATION", "W_ONE_SIDED_TIME",
                "W_BAD_DATE", "W_DUPLICATE_ID", "W_MISSING_VALUE", "W_BAD_VALUE", "W_PARENT_STATION",
                "W_UNKNOWN_REF", "W_FREQUENCY", "W_CELL_COUNT",
            ]
        ),  // every file is read before refusing
    ]

    func testEveryBrokenFeedEndsInTheExpectedOutcome() throws {
        _ = try TestPaths.requireShared("broken")
        let feeds = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".zip") }.sorted()
        XCTAssertEqual(Set(feeds.map { String($0.dropLast(4)) }), Set(Self.expected.keys), "every broken feed has an expectation")
        for feed in feeds {
            let name = String(feed.dropLast(4))
            guard let (written, codes) = Self.expected[name] else { continue }
            let log = DiagnosticLog()
            let output = TemporaryFolders.make().appendingPathComponent("b.db").path
            let ok =
                (try? Compiler.compile(
                    CompileRequest(
                        feeds: [.init(name: name, path: Self.folder.appendingPathComponent(feed).path)],
                        outputPath: output), log: log)) != nil
            XCTAssertEqual(ok, written, "\(name): \(log.summaryText())")
            XCTAssertEqual(FileManager.default.fileExists(atPath: output), written, name)
            let found = Set(log.countsByCode.keys.filter { $0.severity != .info }.map(\.rawValue))
            XCTAssertEqual(found, codes, name)
            XCTAssertEqual(log.errorCount > 0, !written, "\(name): refused exactly when an error was found")
            for diagnostic in log.diagnostics where diagnostic.code.rawValue.hasPrefix("E_") {
                XCTAssertNotNil(diagnostic.file, "\(name): an error names its file")
            }
        }
    }

    /// One run names the problems of every file: vtor-verybad's 88 diagnostics (the
    /// validators list 26 to 191), not only the first file's error.
    func testAFeedWithManyProblemsIsReportedWhole() throws {
        _ = try TestPaths.requireShared("broken")
        let log = DiagnosticLog()
        XCTAssertThrowsError(
            try Compiler.compile(
                CompileRequest(
                    feeds: [.init(name: "v", path: Self.folder.appendingPathComponent("vtor-verybad.zip").path)],
                    outputPath: TemporaryFolders.make().appendingPathComponent("b.db").path), log: log)
        ) { XCTAssertEqual(($0 as? CompileFailure)?.reason, "1 error(s)") }
        let files = Set(log.diagnostics.compactMap(\.file))
        XCTAssertTrue(
            files.isSuperset(of: [
                "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
                "calendar_dates.txt", "frequencies.txt",
            ]), "\(files.sorted())")
        XCTAssertEqual(log.errorCount, 1)
        XCTAssertGreaterThanOrEqual(log.warningCount, 26)
    }

    func testEveryRealMessageNamesFileAndLineForRowProblems() throws {
        _ = try TestPaths.requireShared("broken")
        let log = DiagnosticLog()
        _ = try? Compiler.compile(
            CompileRequest(
                feeds: [.init(name: "t", path: Self.folder.appendingPathComponent("tf-undefined_stop.zip").path)],
                outputPath: TemporaryFolders.make().appendingPathComponent("b.db").path), log: log)
        let d = try XCTUnwrap(log.diagnostics.first { $0.code == .unknownReference })
        XCTAssertEqual(d.file, "stop_times.txt")
        XCTAssertEqual(d.field, "stop_id")
        XCTAssertEqual(d.value, "NADAR")
        XCTAssertNotNil(d.line)
    }
}
