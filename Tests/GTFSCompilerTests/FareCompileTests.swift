import BundleFormat
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

    /// The bundle's fare classes as "fare_id price currency payment transfers agency
    /// duration" and their rules as "fare_id route origin destination contains" ("-" for
    /// none), read back from `fare_classes` with the currencies and zone names.
    private func fares(_ path: String) throws -> (classes: [String], rules: [String]) {
        let db = try SQLiteDatabase(path: path, writable: false)
        guard try db.hasTable("fare_classes") else { return ([], []) }
        func map(_ sql: String) throws -> [Int: [String]] {
            let q = try db.prepare(sql)
            var values: [Int: [String]] = [:]
            while try q.step() { values[q.int(0)] = (1..<Int(q.columnCount)).map { q.optionalString(Int32($0)) ?? "-" } }
            return values
        }
        let currencies = try map("SELECT currency, code, exponent FROM currencies")
        let zones = try db.hasTable("fare_zone_names") ? try map("SELECT zone, zone_id FROM fare_zone_names") : [:]
        let agencies = try map("SELECT aid, agency_id FROM agencies")
        let routes = try map("SELECT rid, route_id FROM dict_route")
        var classes: [String] = []
        var rules: [String] = []
        let q = try db.prepare("SELECT fares FROM fare_classes ORDER BY fid")
        while try q.step() {
            for f in try FareClassesBlob.decode(q.blob(0), maxFares: 1000, maxRules: 1000) {
                let currency = try XCTUnwrap(currencies[f.currency])
                let exponent = try XCTUnwrap(Int(currency[1]))
                var digits = String(f.units)
                digits = String(repeating: "0", count: max(0, exponent + 1 - digits.count)) + digits
                let price = exponent == 0 ? digits : digits.dropLast(exponent) + "." + digits.suffix(exponent)
                let text = { (v: Int?) in v.map(String.init) ?? "-" }
                classes.append(
                    [
                        f.fareID, price, currency[0], String(f.paymentMethod), text(f.transfers), f.aid.flatMap { agencies[$0]?[0] } ?? "-",
                        text(f.transferDuration),
                    ].joined(separator: " "))
                for r in f.rules {
                    let zone = { (z: Int?) in z.flatMap { zones[$0]?[0] } ?? "-" }
                    rules.append(
                        [f.fareID, r.rid.flatMap { routes[$0]?[0] } ?? "-", zone(r.origin), zone(r.destination), zone(r.contains)].joined(
                            separator: " "))
                }
            }
        }
        return (classes, rules)
    }

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
        let (classes, rules) = try fares(path)
        XCTAssertEqual(classes, ["a 1.50 EUR 0 - A -", "d 3.20 EUR 1 1 - 5400"])
        XCTAssertEqual(rules, ["a R - - -", "d - z1 z2 -"])
        // The rules name zones: every stop with a zone keeps it.
        XCTAssertEqual(
            try rows(
                path,
                "SELECT s.stop_id, n.zone_id FROM fare_zones z JOIN stops s USING (sid) JOIN fare_zone_names n USING (zone) ORDER BY 1"),
            ["S1 z1", "S3 z2"])
    }

    /// A currency's prices share one exponent, the most decimals any of them has, and keep
    /// their values; a price a bundle cannot hold as an integer is dropped by name.
    func testPricesAreIntegersOfTheirCurrencysSmallestUnitUsed() throws {
        let result = TestSupport.compile([
            "fare_attributes.txt": """
            fare_id,price,currency_type,payment_method,transfers
            a,2,EUR,0,
            b,2.5,EUR,0,
            c,0.125,USD,0,
            d,1000000000,EUR,0,
            e,1.0000000001,EUR,0,
            f,300,JPY,0,

            """
        ])
        let path = try XCTUnwrap(result.bundle, result.log.summaryText())
        XCTAssertEqual(problems(result.log, "fare_attributes.txt"), ["5 price W_BAD_VALUE", "6 price W_BAD_VALUE"])
        XCTAssertEqual(try rows(path, "SELECT code, exponent FROM currencies ORDER BY code"), ["EUR 1", "JPY 0", "USD 3"])
        XCTAssertEqual(try fares(path).classes, ["a 2.0 EUR 0 - - -", "b 2.5 EUR 0 - - -", "c 0.125 USD 0 - - -", "f 300 JPY 0 - - -"])
    }

    func testZonesAreKeptOnlyWhenARuleNamesThem() throws {
        let result = TestSupport.compile([
            "stops.txt": Self.stops,
            "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\na,1.50,EUR,0,\n",
            "fare_rules.txt": "fare_id,route_id\na,R\n",
        ])
        let path = try XCTUnwrap(result.bundle)
        // fare_zones and fare_zone_names have no rows, so the bundle has neither table.
        XCTAssertEqual(try rows(path, "SELECT count(*) FROM sqlite_master WHERE name IN ('fare_zones', 'fare_zone_names')"), ["0"])
        XCTAssertEqual(try fares(path).rules, ["a R - - -"])
    }

    func testAFareFileWithoutARequiredColumnIsLeftAsideAndTheFeedCompiles() throws {
        let result = TestSupport.compile(["fare_attributes.txt": "fare_id,currency_type\na,EUR\n"])
        let path = try XCTUnwrap(result.bundle, result.log.summaryText())
        XCTAssertEqual(problems(result.log, "fare_attributes.txt"), ["1 price W_MISSING_VALUE"])
        XCTAssertEqual(try fares(path).classes, [])
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
