import Foundation
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// `transit-query fare`, the fare in `plan`, `--lang` and the credits of `info`, on the
/// sample feeds (metro: one zone ticket of 2.80 CHF, an hour of unlimited transfers;
/// publisher and attributions in feed_info.txt and attributions.txt).
extension CommandLineTests {
    func testFareCommandPricesOneRideAsTheLibraryDoes() throws {
        let bundle = TestSupport.sampleBundlePath
        let result = try run(
            "transit-query", ["fare", "--bundle", bundle, "--from", "CENTRAL", "--to", "BELLEVUE", "--at", "2026-03-30T08:00", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        struct Answer: Decodable {
            let fare: JourneyFare?
            let journey: Journey?
        }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        let journey = try XCTUnwrap(answer.journey)
        XCTAssertEqual(journey.rides, 1)
        XCTAssertEqual(answer.fare?.amount, Decimal(string: "2.8"))
        XCTAssertEqual(answer.fare?.currency, "CHF")
        XCTAssertEqual(answer.fare?.components.map(\.fareID), ["zone_ticket"])
        XCTAssertEqual(try TransitBundle(path: bundle).fare(of: journey), answer.fare)
        // Text: the ride and its fare; no ride at all exits 1.
        let text = try run(
            "transit-query", ["fare", "--bundle", bundle, "--from", "CENTRAL", "--to", "BELLEVUE", "--at", "2026-03-30T08:00"])
        XCTAssertTrue(text.stdout.contains("fare 2.8 CHF (fare_id zone_ticket: 2.8 for leg 1)"), text.stdout)
        let none = try run(
            "transit-query",
            ["fare", "--bundle", bundle, "--from", "CENTRAL", "--to", "BELLEVUE", "--route", "NOPE", "--at", "2026-03-30T08:00"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stdout.contains("no ride without a change from CENTRAL to BELLEVUE on route NOPE"), none.stdout)
    }

    func testInfoNamesThePublisherAndCreditsAndLangIsChecked() throws {
        let bundle = TestSupport.sampleBundlePath
        let info = try run("transit-query", ["info", "--bundle", bundle])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("metro: published by Transit toolkit samples (https://example.org)"), info.stdout)
        XCTAssertTrue(info.stdout.contains("metro: credit Metro Operations (operator): https://example.org/metro"), info.stdout)
        let json = try run("transit-query", ["info", "--bundle", bundle, "--json"])
        let decoded = try JSONDecoder().decode(BundleInfo.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(decoded, try TransitBundle(path: bundle).info())
        // A language tag is checked before the bundle is read.
        let bad = try run("transit-query", ["stops", "--bundle", bundle, "--search", "central", "--lang", "not a tag"])
        XCTAssertEqual(bad.status, 64)
        let german = try run("transit-query", ["stops", "--bundle", bundle, "--search", "central", "--lang", "de-CH"])
        XCTAssertEqual(german.status, 0, german.stderr)
    }
}
