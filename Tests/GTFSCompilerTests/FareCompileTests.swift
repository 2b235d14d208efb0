import Foundation
import GTFSCompiler
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

/// fare_attributes.txt, fare_rules.txt, attributions.txt and feed_info.txt's publisher
/// fields into the bundle: each bad row dropped with a diagnostic naming file, line and
/// field, the good ones kept as written.
final class FareCompileTests: XCTestCase {
    private static let stops = """
        stop_id,stop_name,stop_lat,stop_lon,zone_id
        S1,One,48.0,7.0,z1
        S2,Two,48.01,7.01,
        S3,Three,48.02,7.02,z2

        """

    private func problems(_ log: DiagnosticLog, _ file: String) -> [String] { TestSupport.problems(log, file) }
    private func rows(_ path: String, _ sql: String) throws -> [String] { try TestSupport.rows(path, sql) }

    func testFaresAreKeptAsWrittenAndBadRowsAreNamed() throws {
        let result = TestSupport.compile([
            "stops.txt": Self.stops,
            "fare_attributes.txt": """
            fare_id,price,currency_type,payment_method,transfers,agency_id,transfer_duration
            a,1.50,EUR,0,,A,
            b,-1,EUR,0,0,,
            c,2,euro,0,0,,
            d,003.20,EUR,1,1,,5400
            a,9.99,EUR,0,,,
            e,1.00,EUR,0,,NOPE,
            f,0.80,EUR,0,0,,

            """,
            "fare_rules.txt": """
            fare_id,route_id,origin_id,destination_id,contains_id
            a,R,,,
            x,R,,,
            d,,z1,z2,
            d,NOPE,,,
            d,,z9,,
            f,NOPE,,,

            """,
        ])
        let path = try XCTUnwrap(result.bundle, result.log.summaryText())
        XCTAssertEqual(
            problems(result.log, "fare_attributes.txt"),
            [
                "3 price W_BAD_VALUE", "4 currency_type W_BAD_VALUE", "6 fare_id W_DUPLICATE_ID", "7 agency_id W_UNKNOWN_REF",
                // f's only rule names an unknown route: without it f would price every ride.
                "8 fare_id W_UNKNOWN_REF",
            ])
        XCTAssertEqual(
            problems(result.log, "fare_rules.txt"),
            ["3 fare_id W_UNKNOWN_REF", "5 route_id W_UNKNOWN_REF", "6 origin_id W_UNKNOWN_REF", "7 route_id W_UNKNOWN_REF"])
        XCTAssertEqual(
            try rows(path, "SELECT fare, fare_id, price, currency, payment_method, transfers, aid, transfer_duration FROM fare_attributes"),
            ["1 a 1.50 EUR 0 - 1 -", "2 d 3.20 EUR 1 1 - 5400"])
        XCTAssertEqual(
            try rows(
                path,
                "SELECT r.fare, d.route_id, r.origin_id, r.destination_id, r.contains_id FROM fare_rules r LEFT JOIN dict_route d USING (rid)"
            ),
            ["1 R - - -", "2 - z1 z2 -"])
        // The rules name zones: every stop with a zone keeps it.
        XCTAssertEqual(
            try rows(path, "SELECT s.stop_id, z.zone_id FROM fare_zones z JOIN stops s USING (sid) ORDER BY 1"), ["S1 z1", "S3 z2"])
    }

    func testZonesAreKeptOnlyWhenARuleNamesThem() throws {
        let result = TestSupport.compile([
            "stops.txt": Self.stops,
            "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\na,1.50,EUR,0,\n",
            "fare_rules.txt": "fare_id,route_id\na,R\n",
        ])
        let path = try XCTUnwrap(result.bundle)
        XCTAssertEqual(try rows(path, "SELECT count(*) FROM fare_zones"), ["0"])
        XCTAssertEqual(try rows(path, "SELECT count(*) FROM fare_rules"), ["1"])
    }

    func testAFareFileWithoutARequiredColumnIsLeftAsideAndTheFeedCompiles() throws {
        let result = TestSupport.compile(["fare_attributes.txt": "fare_id,currency_type\na,EUR\n"])
        let path = try XCTUnwrap(result.bundle, result.log.summaryText())
        XCTAssertEqual(problems(result.log, "fare_attributes.txt"), ["1 price W_MISSING_VALUE"])
        XCTAssertEqual(try rows(path, "SELECT count(*) FROM fare_attributes"), ["0"])
    }

    func testPublisherAndAttributionsReachBundleInfo() throws {
        let result = TestSupport.compile([
            "feed_info.txt": """
            feed_publisher_name,feed_publisher_url,feed_lang,default_lang,feed_version,feed_contact_email,feed_contact_url
            Transit Data Co,https://data.example.org,fr,en,v7,data@example.org,https://data.example.org/contact

            """,
            "attributions.txt": """
            attribution_id,agency_id,route_id,trip_id,organization_name,is_producer,is_operator,is_authority,attribution_url,attribution_email,attribution_phone
            1,,,,Open Data Office,1,0,0,https://opendata.example.org,,
            2,A,,,Bus Company,0,1,0,,bus@example.org,+33 1 23 45 67 89
            3,,R,,Regional Authority,0,0,1,,,
            4,,,T1,Night Operator,0,1,0,,,
            5,,NOPE,,Ghost Route Ltd,0,1,0,,,
            6,,,,Nobody,0,0,0,,,

            """,
        ])
        let path = try XCTUnwrap(result.bundle, result.log.summaryText())
        XCTAssertEqual(problems(result.log, "attributions.txt"), ["6 route_id W_UNKNOWN_REF", "7 is_producer W_MISSING_VALUE"])
        let feed = try XCTUnwrap(try TransitBundle(path: path).info().feeds.first)
        XCTAssertEqual(feed.publisherName, "Transit Data Co")
        XCTAssertEqual(feed.publisherURL, "https://data.example.org")
        XCTAssertEqual(feed.language, "fr")
        XCTAssertEqual(feed.defaultLanguage, "en")
        XCTAssertEqual(feed.version, "v7")
        XCTAssertEqual(feed.contactEmail, "data@example.org")
        XCTAssertEqual(feed.contactURL, "https://data.example.org/contact")
        XCTAssertEqual(
            feed.attributions,
            [
                Attribution(organizationName: "Open Data Office", isProducer: true, url: "https://opendata.example.org"),
                Attribution(
                    organizationName: "Bus Company", isOperator: true, agencyID: "A", email: "bus@example.org", phone: "+33 1 23 45 67 89"),
                Attribution(organizationName: "Regional Authority", isAuthority: true, routeID: "R"),
                Attribution(organizationName: "Night Operator", isOperator: true, tripID: "T1"),
                Attribution(organizationName: "Nobody"),
            ])
        // Codable as `info --json` writes it, and read back.
        let json = try JSONEncoder().encode(feed)
        XCTAssertEqual(try JSONDecoder().decode(BundleInfo.Feed.self, from: json), feed)
        XCTAssertTrue(String(decoding: json, as: UTF8.self).contains(#""organization_name":"Bus Company""#))
    }
}
