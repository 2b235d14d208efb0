import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Fares v2 on journeys, on one small network priced by fare structures after the GTFS
/// reference (fare_leg_rules.txt, fare_transfer_rules.txt with its two- and three-leg cost
/// table, timeframes.txt) and the gtfs.org fares v2 guides (a zone-based train and a
/// flat-fare bus with free transfers within 90 minutes, as TransLink's; rider categories and
/// fare media). Each expected price is worked out by hand from the reference's text.
///
///     areas: ZN1: S1 (48.00, 7.00), S2 (48.02)   ZN2: S3 (48.04)   ZN3: S4 (48.06)   none: S5 (48.08), S6 (48.10)
///     EXPO (network skytrain) E1: S1 08:00, S2 08:10, S3 08:20, S4 08:30
///                             E2: S1 09:30, S2 09:40, S3 09:50, S4 10:00
///     99   (network bus)      B1: S4 08:40, S5 08:50
///     100  (network express)  X1: S5 09:00, S6 09:10
///
/// Service D runs Monday to Friday, W on weekends; 2026-03-10 is a Tuesday. From S1 at
/// 07:55: to S4 one ride on E1; to S5 E1 then B1; to S6 E1, B1 and X1.
final class FareProductTests: XCTestCase {
    private static let network: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,America/Vancouver\n",
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        D,1,1,1,1,1,0,0,20260101,20261231
        W,0,0,0,0,0,1,1,20260101,20261231

        """,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        S1,One,48.00,7.0
        S2,Two,48.02,7.0
        S3,Three,48.04,7.0
        S4,Four,48.06,7.0
        S5,Five,48.08,7.0
        S6,Six,48.10,7.0

        """,
        "routes.txt": "route_id,route_short_name,route_type,network_id\nEXPO,Expo,1,skytrain\n99,99,3,bus\n100,100,3,express\n",
        "trips.txt": "route_id,service_id,trip_id\nEXPO,D,E1\nEXPO,D,E2\n99,D,B1\n100,D,X1\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        E1,08:00:00,08:00:00,S1,1
        E1,08:10:00,08:10:00,S2,2
        E1,08:20:00,08:20:00,S3,3
        E1,08:30:00,08:30:00,S4,4
        E2,09:30:00,09:30:00,S1,1
        E2,09:40:00,09:40:00,S2,2
        E2,09:50:00,09:50:00,S3,3
        E2,10:00:00,10:00:00,S4,4
        B1,08:40:00,08:40:00,S4,1
        B1,08:50:00,08:50:00,S5,2
        X1,09:00:00,09:00:00,S5,1
        X1,09:10:00,09:10:00,S6,2

        """,
        "areas.txt": "area_id,area_name\nZN1,Zone 1\nZN2,Zone 2\nZN3,Zone 3\n",
        "stop_areas.txt": "area_id,stop_id\nZN1,S1\nZN1,S2\nZN2,S3\nZN3,S4\n",
    ]

    /// TransLink-like zone fares on a Compass card (and cash for three zones), a concession
    /// category, a flat bus fare.
    private static let zoneFares: [String: String] = [
        "fare_media.txt": "fare_media_id,fare_media_name,fare_media_type\ncompass,Compass Card,2\ncash,Cash,0\n",
        "rider_categories.txt": "rider_category_id,rider_category_name,is_default_fare_category\nadult,Adult,1\nconcession,Concession,0\n",
        "fare_products.txt": """
        fare_product_id,fare_product_name,rider_category_id,fare_media_id,amount,currency
        1zone,1 Zone,,compass,3.15,CAD
        2zone,2 Zones,,compass,4.55,CAD
        3zone,3 Zones,adult,compass,6.20,CAD
        3zone,3 Zones,adult,cash,6.75,CAD
        3zone,3 Zones,concession,compass,4.25,CAD
        bus,Bus Fare,,,3.15,CAD

        """,
        "fare_leg_rules.txt": """
        leg_group_id,network_id,from_area_id,to_area_id,fare_product_id
        sky,skytrain,ZN1,ZN1,1zone
        sky,skytrain,ZN1,ZN2,2zone
        sky,skytrain,ZN1,ZN3,3zone
        bus,bus,,,bus

        """,
    ]

    /// The network with `fares` (file name -> text; files of the network replaced), compiled.
    private func bundle(_ fares: [String: String]) throws -> TransitBundle {
        try TransitBundle(path: TestSupport.compileFeed(Self.network.merging(fares) { $1 }))
    }

    /// The first journey from S1 to `stop` leaving at `time` on 2026-03-10, its trips checked.
    private func journey(_ bundle: TransitBundle, to stop: String, at time: String = "07:55", trips: [String]) throws -> Journey {
        let journey = try XCTUnwrap(
            try bundle.journeys(from: .stop("S1"), to: .stop(stop), departingAt: try QueryTime.parse("2026-03-10T\(time)")).first)
        XCTAssertEqual(journey.legs.compactMap { $0.boarding?.tripID }, trips)
        return journey
    }

    /// The fare as "amount currency: product legs; ...", or "none".
    private func priced(_ fare: JourneyFare?) -> String {
        guard let fare else { return "none" }
        return "\(fare.amount) \(fare.currency): "
            + fare.components.map { "\($0.fareID) \($0.legs.map(String.init).joined(separator: "+"))" }.joined(separator: "; ")
    }

    func testAreasPriceTheTrainAndCategoriesAndMediaChooseTheRow() throws {
        let b = try bundle(Self.zoneFares)
        XCTAssertEqual(priced(try journey(b, to: "S2", trips: ["E1"]).fare), "3.15 CAD: 1zone 0")
        XCTAssertEqual(priced(try journey(b, to: "S3", trips: ["E1"]).fare), "4.55 CAD: 2zone 0")
        // Three zones: the default category (adult) on the cheapest medium (Compass).
        let three = try journey(b, to: "S4", trips: ["E1"])
        XCTAssertEqual(priced(three.fare), "6.2 CAD: 3zone 0")
        XCTAssertEqual(three.fare?.components.first?.riderCategoryID, "adult")
        XCTAssertEqual(three.fare?.components.first?.fareMediaID, "compass")
        XCTAssertEqual(three.fare?.components.first?.productName, "3 Zones")
        XCTAssertNil(three.fare?.components.first?.paymentMethod)
        XCTAssertEqual(priced(try b.fare(of: three, options: FareOptions(riderCategoryID: "concession"))), "4.25 CAD: 3zone 0")
        XCTAssertEqual(priced(try b.fare(of: three, options: FareOptions(fareMediaID: "cash"))), "6.75 CAD: 3zone 0")
        // Concession fares are sold on Compass only: in cash the ride has no price.
        XCTAssertEqual(priced(try b.fare(of: three, options: FareOptions(riderCategoryID: "concession", fareMediaID: "cash"))), "none")
        // A product without a category is for every rider.
        let one = try journey(b, to: "S2", trips: ["E1"])
        XCTAssertEqual(priced(try b.fare(of: one, options: FareOptions(riderCategoryID: "concession"))), "3.15 CAD: 1zone 0")
        // Route 100's network "express" is named by no rule and no rule leaves the network
        // empty: that ride, and so the journey, has no price.
        XCTAssertEqual(priced(try journey(b, to: "S6", trips: ["E1", "B1", "X1"]).fare), "none")
        // Without a transfer rule, the train and the bus are two fares.
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["E1", "B1"]).fare), "9.35 CAD: 3zone 0; bus 1")
    }

    /// A free change from the train to the bus (fare_transfer_type 0, no product) within a
    /// duration limit measured as duration_limit_type says: E1 departs 08:00 and arrives
    /// 08:30, B1 departs 08:40 and arrives 08:50.
    func testTheDurationLimitIsMeasuredBetweenTheEventsItsTypeNames() throws {
        let cases: [(limit: Int, type: Int, expected: String)] = [
            (5400, 1, "6.2 CAD: 3zone 0+1"),
            // 0: departure of the first to arrival of the last, 50 min.
            (3000, 0, "6.2 CAD: 3zone 0+1"), (2999, 0, "9.35 CAD: 3zone 0; bus 1"),
            // 1: departure to departure, 40 min.
            (2400, 1, "6.2 CAD: 3zone 0+1"), (2399, 1, "9.35 CAD: 3zone 0; bus 1"),
            // 2: arrival to departure, 10 min.
            (600, 2, "6.2 CAD: 3zone 0+1"), (599, 2, "9.35 CAD: 3zone 0; bus 1"),
            // 3: arrival to arrival, 20 min.
            (1200, 3, "6.2 CAD: 3zone 0+1"), (1199, 3, "9.35 CAD: 3zone 0; bus 1"),
        ]
        for c in cases {
            var fares = Self.zoneFares
            fares["fare_transfer_rules.txt"] = """
                from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type,fare_product_id
                sky,bus,,\(c.limit),\(c.type),0,

                """
            let b = try bundle(fares)
            XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["E1", "B1"]).fare), c.expected, "limit \(c.limit) type \(c.type)")
        }
    }

    /// The reference's table of costs over three legs A > B > C: 0: A + AB, then S + BC;
    /// 1: A + AB + B, then S + BC + C; 2: AB, then S + BC (S: the cost so far). A = 6.00
    /// (train), B = 2.00 (bus), C = 4.00 (express), AB = 1.00, BC = 0.50.
    func testThreeLegsCostAsTheReferencesTableSaysForEachTransferType() throws {
        let expected = [
            0: "7.5 CAD: train 0+1+2; ab 0+1; bc 1+2",
            1: "13.5 CAD: train 0; ab 0+1; bus 1; bc 1+2; express 2",
            2: "1.5 CAD: ab 0+1; bc 1+2",
        ]
        for (type, price) in expected.sorted(by: { $0.key < $1.key }) {
            let b = try bundle([
                "fare_products.txt": """
                fare_product_id,amount,currency
                train,6.00,CAD
                bus,2.00,CAD
                express,4.00,CAD
                ab,1.00,CAD
                bc,0.50,CAD

                """,
                "fare_leg_rules.txt": """
                leg_group_id,network_id,fare_product_id
                sky,skytrain,train
                bus,bus,bus
                express,express,express

                """,
                "fare_transfer_rules.txt": """
                from_leg_group_id,to_leg_group_id,fare_transfer_type,fare_product_id
                sky,bus,\(type),ab
                bus,express,\(type),bc

                """,
            ])
            let j = try journey(b, to: "S6", trips: ["E1", "B1", "X1"])
            XCTAssertEqual(priced(j.fare), price, "fare_transfer_type \(type)")
            XCTAssertEqual(j.fare?.amount, j.fare?.components.reduce(Decimal(0)) { $0 + $1.amount })
        }
    }

    /// Changes within one leg group in a row: transfer_count bounds how many a rule spans,
    /// the rule with the smallest count at least the changes so far is taken, and the
    /// duration limit counts from the first ride of the run. Every route is a bus here.
    func testTransferCountAndDurationCountFromTheFirstRideOfTheRun() throws {
        let cases: [(rules: String, expected: String)] = [
            ("bus,bus,-1,,,0,", "2 CAD: bus 0+1+2"),
            ("bus,bus,1,,,0,", "4 CAD: bus 0+1; bus 2"),
            ("bus,bus,1,,,0,\nbus,bus,2,,,0,second", "2.5 CAD: bus 0+1+2; second 1+2"),
            // B1 departs 40 min after E1, X1 60 min after it.
            ("bus,bus,-1,3600,1,0,", "2 CAD: bus 0+1+2"),
            ("bus,bus,-1,3000,1,0,", "4 CAD: bus 0+1; bus 2"),
        ]
        for c in cases {
            let b = try bundle([
                "routes.txt": "route_id,route_short_name,route_type,network_id\nEXPO,Expo,1,bus\n99,99,3,bus\n100,100,3,bus\n",
                "fare_products.txt": "fare_product_id,amount,currency\nbus,2.00,CAD\nsecond,0.50,CAD\n",
                "fare_leg_rules.txt": "leg_group_id,network_id,fare_product_id\nbus,bus,bus\n",
                "fare_transfer_rules.txt":
                    "from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type,fare_product_id\n"
                    + c.rules + "\n",
            ])
            XCTAssertEqual(priced(try journey(b, to: "S6", trips: ["E1", "B1", "X1"]).fare), c.expected, c.rules)
        }
    }

    /// Empty fields: without a rule_priority column an empty field matches only what no
    /// other rule names; with it, an empty field matches anything and the highest priority
    /// wins, even when dearer.
    func testEmptyFieldsFollowThePresenceOfRulePriority() throws {
        let products = "fare_product_id,amount,currency\nflat,3.15,CAD\n3zone,6.20,CAD\n"
        let withPriority = try bundle([
            "fare_products.txt": products,
            "fare_leg_rules.txt": "network_id,from_area_id,to_area_id,fare_product_id,rule_priority\n,,,flat,\nskytrain,ZN1,ZN3,3zone,1\n",
        ])
        XCTAssertEqual(priced(try journey(withPriority, to: "S4", trips: ["E1"]).fare), "6.2 CAD: 3zone 0")
        XCTAssertEqual(priced(try journey(withPriority, to: "S3", trips: ["E1"]).fare), "3.15 CAD: flat 0")
        let without = try bundle([
            "fare_products.txt": products,
            "fare_leg_rules.txt": "network_id,from_area_id,to_area_id,fare_product_id\n,,,flat\nskytrain,ZN1,ZN3,3zone\n",
        ])
        XCTAssertEqual(priced(try journey(without, to: "S4", trips: ["E1"]).fare), "6.2 CAD: 3zone 0")
        // The skytrain network and area ZN1 are named, so the empty rule does not match.
        XCTAssertEqual(priced(try journey(without, to: "S3", trips: ["E1"]).fare), "none")
        // The bus from S4 (ZN3, named only as a to_area) to S5: the empty rule matches.
        XCTAssertEqual(priced(try journey(without, to: "S5", trips: ["E1", "B1"]).fare), "9.35 CAD: 3zone 0; flat 1")
    }

    /// Timeframes: the boarding's local time of day on the days of the timeframe's service.
    /// A weekend timeframe does not match on a Tuesday (were it matched, its cheaper product
    /// would win).
    func testTimeframesMatchTheBoardingsLocalTimeOnTheirServicesDays() throws {
        let b = try bundle([
            "timeframes.txt": """
            timeframe_group_id,start_time,end_time,service_id
            peak,07:00:00,09:00:00,D
            offpeak,00:00:00,07:00:00,D
            offpeak,09:00:00,24:00:00,D
            weekend,,,W

            """,
            "fare_products.txt": "fare_product_id,amount,currency\npeak,7.00,CAD\noffpeak,6.20,CAD\nweekend,5.00,CAD\nlate,1.00,CAD\n",
            "fare_leg_rules.txt": """
            network_id,from_timeframe_group_id,to_timeframe_group_id,fare_product_id
            skytrain,peak,,peak
            skytrain,offpeak,,offpeak
            skytrain,weekend,,weekend
            bus,,offpeak,late

            """,
        ])
        XCTAssertEqual(priced(try journey(b, to: "S4", trips: ["E1"]).fare), "7 CAD: peak 0")
        XCTAssertEqual(priced(try journey(b, to: "S4", at: "09:25", trips: ["E2"]).fare), "6.2 CAD: offpeak 0")
        // B1 arrives 08:50, in no offpeak timeframe: the bus has no price.
        XCTAssertEqual(priced(try journey(b, to: "S5", trips: ["E1", "B1"]).fare), "none")
    }

    /// The plan's JSON names the products, categories and media, and no payment method.
    func testTheJSONOfAFaresV2Component() throws {
        let b = try bundle(Self.zoneFares)
        let fare = try XCTUnwrap(try journey(b, to: "S4", trips: ["E1"]).fare)
        let json = String(decoding: try JSONEncoder.sortedKeys.encode(fare), as: UTF8.self)
        XCTAssertEqual(
            json,
            #"{"amount":6.2,"components":[{"amount":6.2,"currency":"CAD","fare_id":"3zone","fare_media_id":"compass","feed":"f","legs":[0],"product_name":"3 Zones","rider_category_id":"adult"}],"currency":"CAD"}"#
        )
        XCTAssertEqual(try JSONDecoder().decode(JourneyFare.self, from: Data(json.utf8)), fare)
    }
}

extension JSONEncoder {
    fileprivate static var sortedKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
