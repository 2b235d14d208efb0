import Foundation
import XCTest
@testable import GTFSCompiler

/// Every feed in ../shared/broken, with its expected outcome, like a validator's
/// expected-errors file. The expectations follow ../shared/broken/README.md: what is
/// wrong with each feed and what the diagnostics catalogue says the compiler does.
/// Reads ../shared: skipped when it is absent (a user's clone has none; CI has it).
final class BrokenFeedConformanceTests: XCTestCase {
    static let folder = TestSupport.repository.deletingLastPathComponent().appendingPathComponent("shared/broken")

    /// feed -> (bundle written?, codes that must appear, and no others).
    static let expected: [String: (Bool, Set<String>)] = [
        "tf-bad_date_format": (true, ["W_BAD_DATE", "W_UNKNOWN_REF"]),       // bad dates drop services, then their trips
        "tf-bad_eol": (true, []),
        "tf-bad_utf8": (false, ["E_NOT_UTF8"]),
        "tf-contains_null": (false, ["E_NUL_BYTE"]),
        "tf-duplicate_schedule_id": (true, ["W_DUPLICATE_ID"]),
        "tf-duplicate_stop": (true, ["W_CELL_COUNT"]),                       // near-duplicates are distinct stops
        "tf-duplicate_stop_sequence": (true, ["W_SEQUENCE"]),
        "tf-empty_file": (false, ["W_EMPTY_FILE", "E_MISSING_COLUMN"]),
        "tf-extra_row_cells": (true, ["W_CELL_COUNT"]),
        "tf-filter_unusual_trips": (true, []),
        "tf-invalid_route_agency": (true, ["W_UNKNOWN_REF"]),
        "tf-missing_agency": (false, ["E_MISSING_FILE"]),
        "tf-missing_calendar": (false, ["E_MISSING_FILE"]),
        "tf-missing_column": (false, ["E_MISSING_COLUMN"]),
        "tf-missing_departure_time": (true, []),                             // departure taken from arrival
        "tf-missing_endpoint_times": (true, ["W_ENDPOINT_TIME"]),
        "tf-missing_row_cells": (true, ["W_CELL_COUNT"]),
        "tf-missing_stop_times": (false, ["E_MISSING_FILE"]),
        "tf-missing_stops": (false, ["E_MISSING_FILE"]),
        "tf-missing_weekday_column": (false, ["E_MISSING_COLUMN", "W_CELL_COUNT"]),
        "tf-negative_stop_sequence": (true, ["W_SEQUENCE"]),
        "tf-only_calendar_dates": (true, []),
        "tf-undefined_stop": (true, ["W_UNKNOWN_REF"]),
        "tf-unknown_file": (true, ["W_UNKNOWN_FILE"]),
        "tf-utf16": (false, ["E_NOT_UTF8"]),
        "tf-utf8bom": (true, []),
        "tl-agency-invalid-timezone": (false, ["W_TIMEZONE", "E_NO_TIMEZONE", "W_UNKNOWN_FILE"]),
        "tl-feed-headers-missing": (false, ["E_MISSING_COLUMN", "W_DUPLICATE_COLUMN", "W_UNKNOWN_FILE"]),
        "tl-stops-invalid-parent_station": (true, ["W_PARENT_STATION", "W_CELL_COUNT", "W_UNKNOWN_FILE"]),
        "tl-trips-backwards-time": (false, ["W_TIME_BACKWARDS", "E_NO_TRIPS", "W_CELL_COUNT", "W_UNKNOWN_FILE"]),
        "tl-trips-unknown-service_id": (false, ["W_UNKNOWN_REF", "E_NO_TRIPS", "W_UNKNOWN_FILE"]),
        "vtor-aachener_73069683": (true, []),
        "vtor-bogus_frequencies": (true, ["W_FREQUENCY"]),
        "vtor-duplicate_trips": (true, []),
        "vtor-invalid_stoptime_type": (false, ["W_BAD_VALUE", "W_FEW_STOPS", "E_NO_TRIPS"]),
        "vtor-space_header": (true, []),
        "vtor-timetravels": (true, ["W_TIME_BACKWARDS"]),
        "vtor-verybad": (false, ["E_MISSING_COLUMN", "W_DUPLICATE_COLUMN", "W_UNKNOWN_FILE"]),
    ]

    func testEveryBrokenFeedEndsInTheExpectedOutcome() throws {
        guard FileManager.default.fileExists(atPath: Self.folder.path) else { throw XCTSkip("needs ../shared/broken") }
        let feeds = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".zip") }.sorted()
        XCTAssertEqual(Set(feeds.map { String($0.dropLast(4)) }), Set(Self.expected.keys), "every broken feed has an expectation")
        for feed in feeds {
            let name = String(feed.dropLast(4))
            guard let (written, codes) = Self.expected[name] else { continue }
            let log = DiagnosticLog()
            let output = TestSupport.temporaryDirectory().appendingPathComponent("b.db").path
            let ok = (try? Compiler.compile(CompileRequest(feeds: [.init(name: name, path: Self.folder.appendingPathComponent(feed).path)],
                                                           outputPath: output), log: log)) != nil
            XCTAssertEqual(ok, written, "\(name): \(log.summaryText())")
            XCTAssertEqual(FileManager.default.fileExists(atPath: output), written, name)
            XCTAssertEqual(Set(log.countsByCode.keys.map(\.rawValue)), codes, name)
            for diagnostic in log.diagnostics where diagnostic.code.rawValue.hasPrefix("E_") {
                XCTAssertNotNil(diagnostic.file, "\(name): an error names its file")
            }
        }
    }

    func testEveryRealMessageNamesFileAndLineForRowProblems() throws {
        guard FileManager.default.fileExists(atPath: Self.folder.path) else { throw XCTSkip("needs ../shared/broken") }
        let log = DiagnosticLog()
        _ = try? Compiler.compile(CompileRequest(feeds: [.init(name: "t", path: Self.folder.appendingPathComponent("tf-undefined_stop.zip").path)],
                                                 outputPath: TestSupport.temporaryDirectory().appendingPathComponent("b.db").path), log: log)
        let d = try XCTUnwrap(log.diagnostics.first { $0.code == .unknownReference })
        XCTAssertEqual(d.file, "stop_times.txt")
        XCTAssertEqual(d.field, "stop_id")
        XCTAssertEqual(d.value, "NADAR")
        XCTAssertNotNil(d.line)
    }
}
