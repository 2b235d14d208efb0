import Foundation
import GTFSCompiler
import TestSupport
import TransitSQLite
import XCTest

/// GTFS fares v2 files into the bundle: good rows kept as written, each bad row dropped
/// with a diagnostic naming file, line and field (an unknown product, area, network,
/// timeframe, leg group, rider category or medium; an amount or currency that is not one;
/// a transfer rule breaking its conditions; a file the reference forbids).
final class FareProductCompileTests: XCTestCase {
    private static let feed: [String: String] = [
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
        ST,Station,48.0,7.0,1,
        S1,Platform,48.0,7.0,0,ST
        S2,Two,48.01,7.01,0,
        S3,Three,48.02,7.02,0,

        """,
        "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR,D,T1\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:10:00,08:10:00,S2,2
        T1,08:20:00,08:20:00,S3,3

        """,
        "fare_media.txt": "fare_media_id,fare_media_name,fare_media_type\ncard,Card,2\nodd,Odd,9\n",
        "rider_categories.txt": "rider_category_id,rider_category_name,is_default_fare_category\nadult,Adult,1\nchild,Child,0\n",
        "fare_products.txt": """
        fare_product_id,fare_product_name,rider_category_id,fare_media_id,amount,currency
        single,Single,adult,card,2.50,EUR
        single,Single,child,card,1.25,EUR
        disc,Discount,,,-0.50,EUR
        bad,Bad,,,two,EUR
        bad2,Bad,,,1.00,euro
        bad3,Bad,senior,,1.00,EUR
        bad4,Bad,,odd,1.00,EUR
        single,Again,adult,card,9.99,EUR

        """,
        "areas.txt": "area_id,area_name\nA1,One\nA2,Two\n",
        "stop_areas.txt": "area_id,stop_id\nA1,ST\nA2,S3\nA9,S2\nA2,NOPE\n",
        "networks.txt": "network_id,network_name\nN,Network\n",
        "route_networks.txt": "network_id,route_id\nN,R\nN,NOPE\nM,R\n",
        "timeframes.txt": """
        timeframe_group_id,start_time,end_time,service_id
        day,06:00:00,20:00:00,D
        all,,,D
        bad,06:00:00,,D
        bad,25:00:00,26:00:00,D
        bad,06:00:00,20:00:00,NOPE

        """,
        "fare_leg_rules.txt": """
        leg_group_id,network_id,from_area_id,to_area_id,from_timeframe_group_id,to_timeframe_group_id,fare_product_id
        g,N,A1,A2,day,,single
        g,,,,,,disc
        g,N,,,,,missing
        g,X,,,,,single
        g,,A9,,,,single
        g,,,,,bad,single

        """,
        "fare_transfer_rules.txt": """
        from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type,fare_product_id
        g,g,-1,5400,1,0,
        g,g,,,,0,
        g,zz,,,,0,
        g,g,2,60,,0,
        g,g,2,,,3,
        g,g,2,,,1,missing

        """,
    ]

    private func problems(_ log: DiagnosticLog, _ file: String) -> [String] { TestSupport.problems(log, file) }
    private func rows(_ path: String, _ sql: String) throws -> [String] { try TestSupport.rows(path, sql) }

    /// SQL for the text of the fare id in `column` (the bundle keeps fares v2 ids as
    /// numbers of `fare_ids`).
    private func t(_ column: String) -> String { "(SELECT text FROM fare_ids WHERE id = \(column))" }

    func testFaresV2AreKeptAsWrittenAndBadRowsAreNamed() throws {
        let result = TestSupport.compile(Self.feed)
        let path = try XCTUnwrap(result.bundle, result.log.summaryText())
        XCTAssertEqual(problems(result.log, "fare_media.txt"), ["3 fare_media_type W_BAD_VALUE"])
        XCTAssertEqual(
            problems(result.log, "fare_products.txt"),
            [
                "5 amount W_BAD_VALUE", "6 currency W_BAD_VALUE", "7 rider_category_id W_UNKNOWN_REF", "8 fare_media_id W_UNKNOWN_REF",
                "9 fare_product_id W_DUPLICATE_ID",
            ])
        XCTAssertEqual(problems(result.log, "stop_areas.txt"), ["4 area_id W_UNKNOWN_REF", "5 stop_id W_UNKNOWN_REF"])
        XCTAssertEqual(
            problems(result.log, "route_networks.txt"), ["3 route_id W_UNKNOWN_REF", "4 network_id W_UNKNOWN_REF"])
        XCTAssertEqual(
            problems(result.log, "timeframes.txt"), ["4 end_time W_BAD_TIME", "5 start_time W_BAD_TIME", "6 service_id W_UNKNOWN_REF"])
        XCTAssertEqual(
            problems(result.log, "fare_leg_rules.txt"),
            [
                "4 fare_product_id W_UNKNOWN_REF", "5 network_id W_UNKNOWN_REF", "6 from_area_id W_UNKNOWN_REF",
                "7 to_timeframe_group_id W_UNKNOWN_REF",
            ])
        XCTAssertEqual(
            problems(result.log, "fare_transfer_rules.txt"),
            [
                "3 transfer_count W_BAD_VALUE", "4 to_leg_group_id W_UNKNOWN_REF", "5 duration_limit_type W_BAD_VALUE",
                "6 fare_transfer_type W_BAD_VALUE", "7 fare_product_id W_UNKNOWN_REF",
            ])
        XCTAssertEqual(
            try rows(
                path,
                """
                SELECT \(t("p.fare_product_id")), p.fare_product_name, \(t("p.rider_category_id")), \(t("p.fare_media_id")), p.amount, c.exponent, c.code
                FROM fare_products p JOIN currencies c USING (currency)
                """),
            // Amounts as units of their currency: 2.50 EUR is 250 with exponent 2.
            ["single Single adult card 250 2 EUR", "single Single child card 125 2 EUR", "disc Discount - - -50 2 EUR"])
        XCTAssertEqual(
            try rows(
                path,
                """
                SELECT \(t("leg_group_id")), \(t("network_id")), \(t("from_area_id")), \(t("to_area_id")), \(t("from_timeframe_group_id")),
                  \(t("to_timeframe_group_id")), \(t("fare_product_id")), rule_priority FROM fare_leg_rules
                """),
            ["g N A1 A2 day - single -", "g - - - - - disc -"])
        XCTAssertEqual(
            try rows(
                path,
                """
                SELECT \(t("from_leg_group_id")), \(t("to_leg_group_id")), transfer_count, duration_limit, duration_limit_type, fare_transfer_type,
                  \(t("fare_product_id")) FROM fare_transfer_rules
                """),
            ["g g -1 5400 1 0 -"])
        XCTAssertEqual(
            try rows(path, "SELECT \(t("timeframe_group_id")), start_time, end_time FROM timeframes"), ["day 21600 72000", "all 0 86400"])
        // The station's area goes to its platform; S3 keeps its own.
        XCTAssertEqual(
            try rows(path, "SELECT s.stop_id, \(t("a.area_id")) FROM stop_areas a JOIN stops s ON s.sid = a.sid ORDER BY s.stop_id"),
            ["S1 A1", "S3 A2", "ST A1"])
        XCTAssertEqual(
            try rows(path, "SELECT d.route_id, \(t("n.network_id")) FROM route_networks n JOIN dict_route d USING (rid)"), ["R N"])
        XCTAssertEqual(
            try rows(path, "SELECT \(t("rider_category_id")), is_default_fare_category FROM rider_categories"), ["adult 1", "child 0"])
        XCTAssertEqual(try rows(path, "SELECT \(t("fare_media_id")), fare_media_type FROM fare_media"), ["card 2"])
    }

    func testRoutesNetworkIDForbidsTheNetworkFilesAndAFeedWithoutLegRulesWritesNothing() throws {
        var feed = Self.feed
        feed["routes.txt"] = "route_id,route_short_name,route_type,network_id\nR,1,3,N\n"
        let result = TestSupport.compile(feed)
        let path = try XCTUnwrap(result.bundle, result.log.summaryText())
        XCTAssertEqual(problems(result.log, "networks.txt"), ["1 network_id W_BAD_VALUE"])
        XCTAssertEqual(problems(result.log, "route_networks.txt"), ["1 network_id W_BAD_VALUE"])
        XCTAssertEqual(
            try rows(path, "SELECT d.route_id, \(t("n.network_id")) FROM route_networks n JOIN dict_route d USING (rid)"), ["R N"])
        // Rule priority: an empty value is 0; the column's presence is kept.
        feed["fare_leg_rules.txt"] = "fare_product_id,rule_priority\nsingle,\ndisc,2\nsingle,-1\n"
        let prioritized = TestSupport.compile(feed)
        XCTAssertEqual(problems(prioritized.log, "fare_leg_rules.txt"), ["4 rule_priority W_BAD_VALUE"])
        XCTAssertEqual(
            try rows(try XCTUnwrap(prioritized.bundle), "SELECT \(t("fare_product_id")), rule_priority FROM fare_leg_rules"),
            ["single 0", "disc 2"])
        feed["fare_leg_rules.txt"] = nil
        feed["fare_transfer_rules.txt"] = nil
        let none = TestSupport.compile(feed)
        let nonePath = try XCTUnwrap(none.bundle)
        // Tables without rows are left out of the bundle.
        for table in ["fare_products", "fare_media", "rider_categories", "timeframes", "stop_areas", "route_networks"] {
            XCTAssertEqual(try rows(nonePath, "SELECT count(*) FROM sqlite_master WHERE name = '\(table)'"), ["0"], table)
        }
    }
}
