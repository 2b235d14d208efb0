import Foundation
import TestKit
import TestSupport
import TransitCities
import TransitRuntime
import XCTest

@testable import GTFSCompiler

/// City lookups on gtfs-samples/cities.json (values checked against that file by hand).
final class CityTests: XCTestCase {
    let bundle = TestSupport.sampleBundle

    func testLookupByIDReturnsEverythingWithLinks() throws {
        let zurich = try bundle.city(id: "zurich")
        XCTAssertEqual(zurich.name, "Zürich")
        XCTAssertEqual(zurich.countryName, "Switzerland")
        XCTAssertEqual(zurich.population, 421_878)
        XCTAssertEqual(zurich.alternateNames, ["Zurich", "Zurigo", "Zuerich", "Цюрих"])
        XCTAssertEqual(zurich.categories, ["culture", "finance", "lakes"])
        XCTAssertEqual(zurich.internetSpeed, 310.5)
        XCTAssertEqual(zurich.safetyRating, 4.7)
        XCTAssertEqual(zurich.attractions.map(\.name), ["Opernhaus", "Niederdorf"])
        XCTAssertEqual(zurich.attractions.first?.lat, 47.365)
        XCTAssertNil(zurich.attractions.last?.lat)
        XCTAssertEqual(zurich.images.map(\.type), ["hero", "attraction"])
        XCTAssertEqual(zurich.images.first?.width, 1600)
        XCTAssertEqual(zurich.relatedCities.map(\.id), ["lisbon", "valleyton"])
        XCTAssertEqual(zurich.relatedCities.map(\.name), ["Lisbon", "Valleyton"])
        XCTAssertEqual(zurich.feeds, ["metro"])
        XCTAssertThrowsError(try bundle.city(id: "atlantis")) { XCTAssertEqual($0 as? TransitError, .unknownCity("atlantis")) }
    }

    func testSearchFindsAlternateNamesDiacriticsAndPrefixes() throws {
        XCTAssertEqual(try bundle.cities(matching: "lisboa").map(\.id), ["lisbon"])
        XCTAssertEqual(try bundle.cities(matching: "LISSABON").map(\.id), ["lisbon"])
        XCTAssertEqual(try bundle.cities(matching: "san fr").map(\.id), ["sf"])
        XCTAssertEqual(try bundle.cities(matching: "san").map(\.id), ["sf", "sfernando"], "partial matches by population")
        XCTAssertEqual(try bundle.cities(matching: "Цюрих").map(\.id), ["zurich"])
        XCTAssertEqual(try bundle.cities(matching: "  ").count, 0)
    }

    func testFullNameMatchesComeBeforeLargerPartialMatches() throws {
        // Zürichsee Shores has more people, but "zurich" is Zürich's own name.
        XCTAssertEqual(try bundle.cities(matching: "zurich").map(\.id), ["zurich", "zurichsee"])
        XCTAssertEqual(try bundle.cities(matching: "zurich", limit: 1).map(\.id), ["zurich"])
    }

    func testNearestByGreatCircleDistance() throws {
        let near = try bundle.nearestCities(to: Coordinate(latitude: 47.37, longitude: 8.54), limit: 2)
        XCTAssertEqual(near.map(\.id), ["zurich", "zurichsee"])
        let expected =
            2 * 6_371_008.8
            * asin(
                sqrt(
                    pow(sin((47.3769 - 47.37) * .pi / 360), 2)
                        + cos(47.37 * .pi / 180) * cos(47.3769 * .pi / 180) * pow(sin((8.5417 - 8.54) * .pi / 360), 2)))
        XCTAssertEqual(try XCTUnwrap(near.first?.distanceMetres), expected, accuracy: 0.01)
        // From the equator at 179.9°E the great-circle angle is acos(cos(lat) * cos(lon - 179.9)):
        // Zürich 132.0°, Zürichsee 132.1°, Lisbon 140.4° (worked out by hand), after the Americas.
        XCTAssertEqual(
            try bundle.nearestCities(to: Coordinate(latitude: 0, longitude: 179.9), limit: 10).map(\.id),
            ["sf", "sfernando", "valleyton", "zurich", "zurichsee", "lisbon"])
    }

    func testFilters() throws {
        XCTAssertEqual(try bundle.cities(filter: CityFilter(country: "US")).map(\.id), ["sf", "valleyton", "sfernando"])
        XCTAssertEqual(try bundle.cities(filter: CityFilter(country: "US", category: "tech", minInternetSpeed: 100)).map(\.id), ["sf"])
        XCTAssertEqual(try bundle.cities(filter: CityFilter(maxCostOfLiving: 3000)).map(\.id), ["lisbon", "valleyton"])
        XCTAssertEqual(try bundle.cities(filter: CityFilter(minSafetyRating: 4.5)).map(\.id), ["zurich"])
        XCTAssertEqual(try bundle.cities(matching: "san", filter: CityFilter(category: "tech")).map(\.id), ["sf"])
        XCTAssertEqual(
            try bundle.nearestCities(to: Coordinate(latitude: 47.37, longitude: 8.54), filter: CityFilter(category: "beach"), limit: 1).map(
                \.id), ["lisbon"])
    }

    func testFromACityToItsTransit() throws {
        let zurich = try bundle.city(id: "zurich")
        // The three Hauptbahnhof entries lie 150-160 m from the city point; platform 2 is nearest.
        let stops = try bundle.stops(near: Coordinate(latitude: zurich.lat, longitude: zurich.lon), within: 400)
        XCTAssertEqual(stops.map(\.stopID), ["CENTRAL_2", "CENTRAL", "CENTRAL_1"])
        let board = try bundle.departures(
            from: "CENTRAL", feed: zurich.feeds.first, at: try QueryTime.parse("2026-03-30T08:00"), within: 60)
        XCTAssertEqual(board.map(\.tripID), ["T4_WK_0800", "S2_FREQ"])
    }

    func testBadCatalogueEntriesAreReportedByPath() throws {
        let directory = TemporaryFolders.make()
        let catalogue = directory.appendingPathComponent("c.json")
        try Data(
            """
            {"version": 1, "cities": [
              {"id": "a", "name": "A", "country": "FR", "location": {"lat": 45, "lng": 2}, "relatedCities": ["b", "zz"], "feeds": ["nope"]},
              {"id": "b", "name": "B", "country": "FR", "location": {"lat": 91.5, "lng": 2}},
              {"id": "a", "name": "A again", "country": "FR", "location": {"lat": 45, "lng": 2}},
              {"id": "c", "country": "FR", "location": {"lat": 45, "lng": 2}},
              {"id": "d", "name": "D", "country": "France", "location": {"lat": 45, "lng": 2}, "population": "many"}
            ]}
            """.utf8
        ).write(to: catalogue)
        let log = DiagnosticLog()
        let summary = try Compiler.compile(
            CompileRequest(feeds: [], citiesPath: catalogue.path, outputPath: directory.appendingPathComponent("c.db").path), log: log)
        XCTAssertEqual(summary.cities, 1)
        let fields = Set(log.diagnostics.compactMap(\.field))
        XCTAssertEqual(
            fields,
            [
                "cities[1].location.lat", "cities[2].id", "cities[3].name", "cities[4].country",
                "cities[0].relatedCities[0]", "cities[0].relatedCities[1]", "cities[0].feeds[0]",
            ])
        XCTAssertTrue(
            log.diagnostics.contains { $0.field == "cities[1].location.lat" && $0.value == "91.5" && $0.message.contains("out of range") })
        // Not JSON, or not a catalogue: an error, and nothing written.
        try Data("{\"version\": 1, \"cities\": [".utf8).write(to: catalogue)
        let output = directory.appendingPathComponent("broken.db").path
        XCTAssertThrowsError(try Compiler.compile(CompileRequest(feeds: [], citiesPath: catalogue.path, outputPath: output))) {
            XCTAssertEqual(($0 as? CompileFailure)?.diagnostics.diagnostics.map(\.code), [.badCatalogue])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }
}
