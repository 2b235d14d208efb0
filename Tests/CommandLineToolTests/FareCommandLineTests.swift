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

    /// Fares v2: the sample metro feed with a single ticket for adults (the default
    /// category) and seniors; `--rider-category` asks for the senior price.
    func testFareCommandPricesFaresV2ForARiderCategory() throws {
        let folder = TemporaryFolders.make()
        let feed = folder.appendingPathComponent("metro")
        try FileManager.default.copyItem(atPath: TestSupport.samples + "/metro", toPath: feed.path)
        let files = [
            "rider_categories.txt": "rider_category_id,rider_category_name,is_default_fare_category\nadult,Adult,1\nsenior,Senior,0\n",
            "fare_products.txt":
                "fare_product_id,fare_product_name,rider_category_id,amount,currency\nsingle,Single,adult,3.40,CHF\nsingle,Single,senior,1.70,CHF\n",
            "fare_leg_rules.txt": "fare_product_id\nsingle\n",
        ]
        for (name, text) in files { try text.write(to: feed.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let bundle = folder.appendingPathComponent("v2.db").path
        let compiled = try run("gtfs-compile", [feed.path, "-o", bundle, "--quiet"])
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        let ride = ["fare", "--bundle", bundle, "--from", "CENTRAL", "--to", "BELLEVUE", "--at", "2026-03-30T08:00"]
        let adult = try run("transit-query", ride)
        XCTAssertTrue(adult.stdout.contains("fare 3.4 CHF (product single (Single): 3.4 for leg 1)"), adult.stdout)
        let senior = try run("transit-query", ride + ["--rider-category", "senior", "--json"])
        XCTAssertEqual(senior.status, 0, senior.stderr)
        struct Answer: Decodable { let fare: JourneyFare? }
        let fare = try XCTUnwrap(try JSONDecoder().decode(Answer.self, from: Data(senior.stdout.utf8)).fare)
        XCTAssertEqual(fare.amount, Decimal(string: "1.7"))
        XCTAssertEqual(fare.components.map(\.riderCategoryID), ["senior"])
    }
}
