import Foundation
import TestKit
import TestSupport
import TransitCities
import TransitRuntime
import TransitStore
import XCTest

/// `info`, `city` and `cities --json` print the `Codable` encodings of `BundleInfo` and
/// `City`: decoded, each is the library's own answer. Store records survive a round trip.
extension CommandLineTests {
    func testInfoJSONIsTheCodableEncoding() throws {
        let bundle = TestSupport.sampleBundlePath
        let result = try run("transit-query", ["info", "--bundle", bundle, "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let decoded = try JSONDecoder().decode(BundleInfo.self, from: Data(result.stdout.utf8))
        let library = try TransitBundle(path: bundle).info()
        XCTAssertEqual(decoded, library)
        XCTAssertEqual(decoded.id, library.bundleID)
        XCTAssertFalse(library.feeds.isEmpty)
        XCTAssertNotNil(library.feeds.first?.timeZone, "the feed's zone is one the system knows")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["content_sha256"] as? String, try BundleFacts.contentHash(bundle))
        XCTAssertEqual(
            (object["coverage"] as? [String: Any])?["first_service_date"] as? String, library.coverage.firstServiceDate?.description)
    }

    func testCityJSONIsTheCodableEncoding() throws {
        let bundle = TestSupport.sampleBundlePath
        let library = try TransitBundle(path: bundle)
        let city = try run("transit-query", ["city", "--bundle", bundle, "lisbon", "--json"])
        XCTAssertEqual(city.status, 0, city.stderr)
        let lisbon = try JSONDecoder().decode(City.self, from: Data(city.stdout.utf8))
        XCTAssertEqual(lisbon, try library.city(id: "lisbon"))
        XCTAssertEqual(lisbon.alternateNames, ["Lisboa", "Lissabon", "Lisbonne"])
        // A list from a search carries the scalar fields only: no empty lists printed.
        let search = try run("transit-query", ["cities", "--bundle", bundle, "--search", "zurich", "--json"])
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertEqual(try JSONDecoder().decode([City].self, from: Data(search.stdout.utf8)), try library.cities(matching: "zurich"))
        XCTAssertFalse(search.stdout.contains("alternate_names"), search.stdout)
        // Nearest: the distance printed to a tenth of a metre.
        let near = try run("transit-query", ["cities", "--bundle", bundle, "--near", "47.37,8.54", "--limit", "2", "--json"])
        XCTAssertEqual(near.status, 0, near.stderr)
        let printed = try JSONDecoder().decode([City].self, from: Data(near.stdout.utf8))
        let answered = try library.nearestCities(to: Coordinate(latitude: 47.37, longitude: 8.54), limit: 2)
        XCTAssertEqual(printed.map(\.id), answered.map(\.id))
        for (p, a) in zip(printed, answered) {
            XCTAssertEqual(try XCTUnwrap(p.distanceMetres), try XCTUnwrap(a.distanceMetres), accuracy: 0.05)
        }
    }

    func testStoreRecordsRoundTrip() throws {
        let bundle = InstalledBundle(
            id: "metro", path: "/tmp/metro.db", contentHash: String(repeating: "a", count: 64), bytes: 1234, explicit: true,
            downloadedAt: Date(timeIntervalSince1970: 1_790_000_000), lastAccessedAt: Date(timeIntervalSince1970: 1_790_086_400),
            firstServiceDate: ServiceDate("2026-11-01"), lastServiceDate: ServiceDate("2026-12-31"))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let data = try encoder.encode(bundle)
        XCTAssertEqual(try decoder.decode(InstalledBundle.self, from: data), bundle)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["last_service_date"] as? String, "2026-12-31")
        XCTAssertEqual(object["downloaded_at"] as? String, "2026-09-21T14:13:20Z")
        let entry = Catalogue.Entry(
            id: "metro", contentHash: String(repeating: "b", count: 64), url: URL(string: "https://example.org/metro.db")!, bytes: 99,
            fileSHA256: String(repeating: "c", count: 64), coverage: .init(lastServiceDate: ServiceDate("2027-01-31")), cityIDs: ["x"])
        XCTAssertEqual(try JSONDecoder().decode(Catalogue.Entry.self, from: JSONEncoder().encode(entry)), entry)
        let preferences = StorePreferences(maxBytes: 5_000_000, autoUpdate: false, staleDays: 3)
        XCTAssertEqual(try JSONDecoder().decode(StorePreferences.self, from: JSONEncoder().encode(preferences)), preferences)
    }
}
