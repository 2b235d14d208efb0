import Foundation
import TestSupport
import TransitRuntime
import TransitStore
import XCTest

/// The errors' text for apps (`LocalizedError`): present for every case, in an app's words
/// (no command-line options), and what `localizedDescription` shows.
final class ErrorTextTests: XCTestCase {
    static let transitErrors: [TransitError] = [
        .unknownStop("S"), .ambiguousStop("S", feeds: ["a", "b"]), .unknownTrip("T"), .ambiguousTrip("T", feeds: ["a", "b"]),
        .unknownRoute("R"), .unknownAgency("A"), .ambiguousRoute("R", feeds: ["a", "b"]), .unknownFeed("F"), .unknownCity("C"),
        .dateOutOfRange("2030-01-01", feed: "f", first: "2026-01-01", last: "2026-12-31"), .badTime("x"), .badArgument("limit"),
        .notABundle(path: "/x.db", reason: "not SQLite"), .unsupportedSchemaVersion(found: 9, supported: 6),
        .corruptBundle(reason: "pattern 3 is damaged in the bundle"), .sqlite(code: 10, message: "disk I/O error"),
        .patchRefused("for another bundle"),
    ]

    static let storeErrors: [StoreError] = [
        .badManifest("not JSON"), .noCatalogue, .unknownBundle("lisbon"), .transfer("timed out", transient: true),
        .transfer("404", transient: false), .hashMismatch(id: "x", expected: "a", found: "b"),
        .overBudget(id: "x", needed: 10, budget: 5, explicitBytes: 3, evictableBytes: 1), .install("damaged"), .storage("locked"),
        .noSpace("ENOSPC"),
    ]

    func testEveryErrorHasTextAnAppCanShow() {
        let all: [(any LocalizedError & CustomStringConvertible, String)] =
            Self.transitErrors.map { ($0, $0.code) } + Self.storeErrors.map { ($0, $0.code) }
        var codes = Set<String>()
        for (error, code) in all {
            let title = error.errorDescription ?? ""
            XCTAssertFalse(title.isEmpty, code)
            XCTAssertTrue(title.hasSuffix("."), title)
            XCTAssertEqual(error.failureReason?.lowercased(), (error.description + ".").lowercased(), code)
            for text in [title, error.failureReason ?? "", error.recoverySuggestion ?? ""] {
                XCTAssertFalse(text.contains("--"), "command-line wording in \(code): \(text)")
            }
            XCTAssertEqual((error as Error).localizedDescription, title, code)
            codes.insert(code)
        }
        XCTAssertEqual(codes.count, Set(Self.transitErrors.map(\.code)).count + Set(Self.storeErrors.map(\.code)).count)
        // Damage and unreadable files say to download again.
        XCTAssertEqual(TransitError.corruptBundle(reason: "x").recoverySuggestion, "Download the city's timetable again.")
        XCTAssertEqual(TransitError.corruptBundle(reason: "x").kind, .damagedBundle)
    }
}
