import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// translations.txt: a bundle opened in a language names stops, routes, headsigns and
/// agencies in it where the feed translates them, by record or by value (a record's own
/// translation winning), falls back from "de-CH" to "de", and keeps the feed's words
/// elsewhere; stop search finds a stop by any of its names.
final class TranslationTests: XCTestCase {
    private static let feed: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Transports Genevois,https://example.org,Europe/Zurich\n",
        "calendar.txt": TestSupport.minimalFeed["calendar.txt"]!,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        S1,Gare Cornavin,46.2100,6.1420
        S2,Hôpital,46.1930,6.1490
        S3,Genève-Aéroport,46.2320,6.1090

        """,
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,Gare - Aéroport,3\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR1,D,T1,Aéroport\nR1,D,T2,Aéroport\nR1,D,T3,Gare\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign
        T1,08:00:00,08:00:00,S1,1,
        T1,08:10:00,08:10:00,S2,2,
        T1,08:20:00,08:20:00,S3,3,
        T2,09:00:00,09:00:00,S1,1,Aéroport via Hôpital
        T2,09:10:00,09:10:00,S2,2,
        T2,09:20:00,09:20:00,S3,3,
        T3,10:00:00,10:00:00,S3,1,
        T3,10:20:00,10:20:00,S1,2,

        """,
        "translations.txt": """
        table_name,field_name,language,translation,record_id,record_sub_id,field_value
        stops,stop_name,de,Bahnhof Cornavin,S1,,
        stops,stop_name,en,Cornavin Station,S1,,
        stops,stop_name,de,Spital,,,Hôpital
        stops,stop_name,de,Flughafen Genf,S3,,
        stops,stop_name,de,Genf Flughafen (by value),,,Genève-Aéroport
        routes,route_long_name,de,Bahnhof - Flughafen,R1,,
        trips,trip_headsign,de,Flughafen,,,Aéroport
        trips,trip_headsign,en,Airport,T1,,
        stop_times,stop_headsign,de,Flughafen über Spital,T2,1,
        agency,agency_name,de,Genfer Verkehrsbetriebe,A,,
        stops,stop_desc,de,Beschreibung,S1,,
        stops,stop_name,x,kaputt,S1,,
        stops,stop_name,de,Geist,NOPE,,
        stops,stop_name,de,Beide,S1,,Gare Cornavin
        stop_times,stop_headsign,de,ohne Folge,T2,,

        """,
    ]

    /// The bundle's path and the diagnostics of translations.txt ("line field code").
    private static let compiled: (path: String, problems: [String]) = {
        let folder = TemporaryFolders.make()
        let feed = folder.appendingPathComponent("feed")
        try! FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("geneva.db").path
        let log = DiagnosticLog()
        _ = try! Compiler.compile(
            CompileRequest(feeds: [.init(name: "g", path: TestSupport.writeFeed(TranslationTests.feed, in: feed))], outputPath: output),
            log: log)
        let problems = log.diagnostics.filter { $0.file == "translations.txt" }.map {
            "\($0.line ?? 0) \($0.field ?? "-") \($0.code.rawValue)"
        }
        return (output, problems)
    }()

    /// "stop name | headsign | route long name | agency" of each departure from `stop` on a
    /// Tuesday morning, in `language`.
    private func board(_ stop: String, _ language: String?) throws -> [String] {
        let bundle = try TransitBundle(path: Self.compiled.path, language: language)
        return try bundle.departures(from: stop, at: try QueryTime.parse("2026-03-10T07:00"), within: 4 * 3600, limit: 10).map {
            "\($0.stopName) | \($0.headsign) | \($0.routeLongName ?? "-") | \($0.agencyName ?? "-")"
        }
    }

    func testEachLanguageGetsItsNamesAndTheFeedsWordsElsewhere() throws {
        XCTAssertEqual(
            try board("S1", nil),
            [
                "Gare Cornavin | Aéroport | Gare - Aéroport | Transports Genevois",
                "Gare Cornavin | Aéroport via Hôpital | Gare - Aéroport | Transports Genevois",
            ])
        let german = [
            "Bahnhof Cornavin | Flughafen | Bahnhof - Flughafen | Genfer Verkehrsbetriebe",
            "Bahnhof Cornavin | Flughafen über Spital | Bahnhof - Flughafen | Genfer Verkehrsbetriebe",
        ]
        XCTAssertEqual(try board("S1", "de"), german)
        XCTAssertEqual(try board("S1", "de-CH"), german, "de-CH falls back to de")
        XCTAssertEqual(try board("S1", "DE"), german, "tags compare without case")
        // English translates the stop and T1's headsign only. The bundle keeps each headsign
        // text once, so T1's "Airport" is also T2's (same text "Aéroport"): documented.
        XCTAssertEqual(
            try board("S1", "en"),
            [
                "Cornavin Station | Airport | Gare - Aéroport | Transports Genevois",
                "Cornavin Station | Aéroport via Hôpital | Gare - Aéroport | Transports Genevois",
            ])
        XCTAssertEqual(try board("S1", "it"), try board("S1", nil))
        // By value (Hôpital -> Spital); a record's own row wins over a value's (S3).
        let bundle = try TransitBundle(path: Self.compiled.path, language: "de")
        XCTAssertEqual(try bundle.stop("S2").name, "Spital")
        XCTAssertEqual(try bundle.stop("S3").name, "Flughafen Genf")
        XCTAssertEqual(try bundle.routes().map(\.longName), ["Bahnhof - Flughafen"])
        XCTAssertEqual(try bundle.agencies().map(\.name), ["Genfer Verkehrsbetriebe"])
        // A trip's stops and its arrival board, in the language too.
        let trip = try bundle.trip("T3", on: ServiceDate("2026-03-10")!)
        XCTAssertEqual(trip.stopTimes.map(\.stopName), ["Flughafen Genf", "Bahnhof Cornavin"])
    }

    func testSearchFindsAStopByItsTranslatedName() throws {
        for language in [nil, "de", "en"] {
            let bundle = try TransitBundle(path: Self.compiled.path, language: language)
            XCTAssertEqual(try bundle.stops(matching: "spital").map(\.stopID), ["S2"], "\(language ?? "none")")
            XCTAssertEqual(try bundle.stops(matching: "flughafen genf").map(\.stopID), ["S3"], "\(language ?? "none")")
            XCTAssertEqual(try bundle.stops(matching: "cornavin station").map(\.stopID), ["S1"], "\(language ?? "none")")
            XCTAssertEqual(try bundle.stops(matching: "hopital").map(\.stopID), ["S2"], "the feed's own name still finds it")
        }
        let german = try TransitBundle(path: Self.compiled.path, language: "de")
        XCTAssertEqual(try german.stops(matching: "spital").map(\.name), ["Spital"])
    }

    func testBadRowsAreNamedAndUnusedFieldsNoted() {
        XCTAssertEqual(
            Self.compiled.problems,
            [
                "13 language W_BAD_VALUE", "14 record_id W_UNKNOWN_REF", "15 record_id W_BAD_VALUE",
                "16 record_sub_id W_MISSING_VALUE", "12 - I_UNUSED_FILE",
            ])
    }
}
