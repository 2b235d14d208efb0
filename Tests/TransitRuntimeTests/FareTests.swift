import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Fares v1 on journeys, on one small network priced by the fare structures of the GTFS
/// fare examples (fares-v1 examples of gtfs.org: one fare, no transfers, transfers with a
/// duration, local and express routes, a bought transfer, station pairs, zones). Each
/// expected price is worked out by hand from the rules in docs/journey-semantics.md.
///
///     zone z1: S1 (48.00, 7.00), S2 (48.01)   zone z2: S3 (48.02)   zone z3: S4 (48.03), S5 (48.04)
///     L  (local)   L1: S1 08:00, S2 08:10, S3 08:20, S4 08:30
///     X  (express) X1: S1 08:05, S4 08:25
///     R2           R2a: S4 08:40, S5 08:50
///
/// From S1 at 07:55: to S3 one ride on L1 (zones z1, z2); to S4 one ride on X1 (z1, z3);
/// to S5 X1 then R2a (boardings 35 minutes apart).
final class FareTests: XCTestCase {
    private static let network: [String: String] = [
        "agency.txt": TestSupport.minimalFeed["agency.txt"]!, "calendar.txt": TestSupport.minimalFeed["calendar.txt"]!,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,zone_id
        S1,One,48.00,7.0,z1
        S2,Two,48.01,7.0,z1
        S3,Three,48.02,7.0,z2
        S4,Four,48.03,7.0,z3
        S5,Five,48.04,7.0,z3

        """,
        "routes.txt": "route_id,route_short_name,route_type\nL,L,3\nX,X,3\nR2,2,3\n",
        "trips.txt": "route_id,service_id,trip_id\nL,D,L1\nX,D,X1\nR2,D,R2a\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        L1,08:00:00,08:00:00,S1,1
        L1,08:10:00,08:10:00,S2,2
        L1,08:20:00,08:20:00,S3,3
        L1,08:30:00,08:30:00,S4,4
        X1,08:05:00,08:05:00,S1,1
        X1,08:25:00,08:25:00,S4,2
        R2a,08:40:00,08:40:00,S4,1
        R2a,08:50:00,08:50:00,S5,2

        """,
    ]

    /// The network with `fares` (file name -> text), compiled.
    private func bundle(_ fares: [String: String]) throws -> TransitBundle {
        try TransitBundle(path: TestSupport.compileFeed(Self.network.merging(fares) { $1 }))
    }

    /// The first journey from S1 to `stop` leaving at 07:55, with its trips checked.
    private func journey(_ bundle: TransitBundle, to stop: String, trips: [String]) throws -> Journey {
        let journey = try XCTUnwrap(
            try bundle.journeys(from: .stop("S1"), to: .stop(stop), departingAt: try QueryTime.parse("2026-03-10T07:55")).first)
        XCTAssertEqual(journey.legs.compactMap { $0.boarding?.tripID }, trips)
        return journey
    }

    /// The fare as "amount currency: fare_id legs; ...", or "none".
    private func priced(_ journey: Journey) -> String {
        guard let fare = journey.fare else { return "none" }
        return "\(fare.amount) \(fare.currency): "
            + fare.components.map { "\($0.fareID) \($0.legs.map(String.init).joined(separator: "+"))" }.joined(separator: "; ")
    }

    func testOneFareWithUnlimitedTransfersAndNoRules() throws {
        let b = try bundle(["fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nonly_fare,1.00,USD,0,\n"])
        XCTAssertEqual(priced(try journey(b, to: "S3", trips: ["L1"])), "1 USD: only_fare 0")
        // Two rides (legs 0 and 2, the walk-free change at S4 has no leg), one fare.
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["X1", "R2a"])), "1 USD: only_fare 0+1")
    }

    func testNoTransfersMeansAFarePerRide() throws {
        let b = try bundle(["fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nonly_fare,1.00,USD,0,0\n"])
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["X1", "R2a"])), "2 USD: only_fare 0; only_fare 1")
    }

    func testTransferDurationCountsFromTheFirstBoardingToTheLast() throws {
        // X1 boards 08:05, R2a 08:40: 2,100 seconds.
        let header = "fare_id,price,currency_type,payment_method,transfers,transfer_duration\n"
        let long = try bundle(["fare_attributes.txt": header + "f,1.50,USD,0,,2100\n"])
        XCTAssertEqual(priced(try journey(long, to: "S5", trips: ["X1", "R2a"])), "1.5 USD: f 0+1")
        let short = try bundle(["fare_attributes.txt": header + "f,1.50,USD,0,,2099\n"])
        XCTAssertEqual(priced(try journey(short, to: "S5", trips: ["X1", "R2a"])), "3 USD: f 0; f 1")
    }

    func testLocalAndExpressRoutesHaveTheirOwnFares() throws {
        let b = try bundle([
            "fare_attributes.txt":
                "fare_id,price,currency_type,payment_method,transfers\nlocal_fare,1.75,USD,0,0\nexpress_fare,5.00,USD,0,0\n",
            "fare_rules.txt": "fare_id,route_id\nlocal_fare,L\nexpress_fare,X\nlocal_fare,R2\n",
        ])
        XCTAssertEqual(priced(try journey(b, to: "S3", trips: ["L1"])), "1.75 USD: local_fare 0")
        XCTAssertEqual(priced(try journey(b, to: "S4", trips: ["X1"])), "5 USD: express_fare 0")
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["X1", "R2a"])), "6.75 USD: express_fare 0; local_fare 1")
    }

    func testABoughtTransferCostsLessThanTwoFares() throws {
        let b = try bundle([
            "fare_attributes.txt":
                "fare_id,price,currency_type,payment_method,transfers\nsimple_fare,1.75,USD,0,0\nsimple_transfer,2.00,USD,0,1\n"
        ])
        XCTAssertEqual(priced(try journey(b, to: "S3", trips: ["L1"])), "1.75 USD: simple_fare 0")
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["X1", "R2a"])), "2 USD: simple_transfer 0+1")
    }

    func testStationPairsPriceByWhereTheRiderBoardsAndAlights() throws {
        // Origin and destination zones of the whole run of rides; unlimited transfers.
        let b = try bundle([
            "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nshort,1.10,USD,1,\nlong,2.40,USD,1,\n",
            "fare_rules.txt": "fare_id,route_id,origin_id,destination_id\nshort,,z1,z2\nlong,,z1,z3\n",
        ])
        XCTAssertEqual(priced(try journey(b, to: "S3", trips: ["L1"])), "1.1 USD: short 0")
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["X1", "R2a"])), "2.4 USD: long 0+1")
    }

    func testContainedZonesMustBeExactlyTheZonesPassed() throws {
        // L1 from S1 to S3 passes z1 and z2; X1 from S1 to S4 passes z1 and z3 (it calls at no
        // stop in z2). "c" lists z1, z2: L1's ride only. "all" lists all three: neither.
        let b = try bundle([
            "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nc,3.00,USD,0,0\nall,4.00,USD,0,0\n",
            "fare_rules.txt": "fare_id,route_id,origin_id,destination_id,contains_id\nc,,,,z1\nc,,,,z2\nall,,,,z1\nall,,,,z2\nall,,,,z3\n",
        ])
        XCTAssertEqual(priced(try journey(b, to: "S3", trips: ["L1"])), "3 USD: c 0")
        XCTAssertEqual(priced(try journey(b, to: "S4", trips: ["X1"])), "none")
    }

    func testARideNoFareCoversLeavesTheJourneyUnpriced() throws {
        let b = try bundle([
            "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nexpress_fare,5.00,USD,0,0\n",
            "fare_rules.txt": "fare_id,route_id\nexpress_fare,X\n",
        ])
        XCTAssertEqual(priced(try journey(b, to: "S4", trips: ["X1"])), "5 USD: express_fare 0")
        // R2a has no fare: no price at all, never the part that is known.
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["X1", "R2a"])), "none")
        // A feed without fares.
        XCTAssertEqual(priced(try journey(try bundle([:]), to: "S3", trips: ["L1"])), "none")
    }

    func testAFareLimitedToAnAgencyPricesOnlyItsRoutes() throws {
        let agencies =
            "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Paris\nB,Other,https://example.org,Europe/Paris\n"
        let b = try bundle([
            "agency.txt": agencies,
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nL,A,L,3\nX,A,X,3\nR2,B,2,3\n",
            "fare_attributes.txt":
                "fare_id,price,currency_type,payment_method,transfers,agency_id\na_pass,2.00,EUR,0,,A\nb_ticket,1.20,EUR,0,0,B\n",
        ])
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["X1", "R2a"])), "3.2 EUR: a_pass 0; b_ticket 1")
    }

    func testThePlanJSONCarriesTheFareAndNullWithout() throws {
        let b = try bundle([
            "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nlocal_fare,7.85,USD,0,0\n"
        ])
        let priced = try journey(b, to: "S3", trips: ["L1"])
        let text = String(decoding: try JSONEncoder().encode(priced), as: UTF8.self)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let fare = try XCTUnwrap(object["fare"] as? [String: Any])
        XCTAssertEqual(fare["currency"] as? String, "USD")
        XCTAssertEqual(fare["amount"] as? Double, 7.85)
        let component = try XCTUnwrap((fare["components"] as? [[String: Any]])?.first)
        XCTAssertEqual(component["fare_id"] as? String, "local_fare")
        XCTAssertEqual(component["feed"] as? String, "f")
        XCTAssertEqual(component["amount"] as? Double, 7.85)
        XCTAssertEqual(component["legs"] as? [Int], [0])
        XCTAssertTrue(text.contains(#""amount":7.85"#), text)
        let decoded = try JSONDecoder().decode(Journey.self, from: Data(text.utf8))
        XCTAssertEqual(decoded.fare, priced.fare)
        XCTAssertEqual(try b.fare(of: priced), priced.fare)
        var unpriced = priced
        unpriced.fare = nil
        XCTAssertTrue(String(decoding: try JSONEncoder().encode(unpriced), as: UTF8.self).contains(#""fare":null"#))
    }
}
