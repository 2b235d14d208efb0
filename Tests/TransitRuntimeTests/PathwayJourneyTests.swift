import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import XCTest

/// Changes inside a station along its pathways (journey-semantics.md, "Inside stations"),
/// worked out by hand:
///
///     station ST: platform P1 (48.00000, 7.0) and P2 (48.00027, 7.0), 30 m apart
///     P1 -stairs 60 s- N -walkway 36 m (30 s at 1.2 m/s)- P2   (90 s)
///     P1 -elevator 200 s- L -walkway 60 s- P2                 (260 s, step-free)
///     route A: X 07:50 -> P1 08:00;  route B: P2 08:03, 08:06, 08:10 -> Y 08:30, 08:33, 08:37
///
/// The straight line (30.02 m: 26 s, + 120 s change) catches B at 08:03; the stairs (90 s + 120
/// s) the 08:06; step-free (260 s + 120 s) the 08:10.
final class PathwayJourneyTests: XCTestCase {
    private static func feed(pathways: String?) -> [String: String] {
        var files: [String: String] = [
            "agency.txt": TestSupport.minimalFeed["agency.txt"]!, "calendar.txt": TestSupport.minimalFeed["calendar.txt"]!,
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
            ST,Station,48.00013,7.0,1,,1
            P1,Station platform 1,48.00000,7.0,0,ST,1
            P2,Station platform 2,48.00027,7.0,0,ST,1
            N,Stairs landing,,,3,ST,
            L,Lift lobby,,,3,ST,
            E,Entrance,48.0005,7.0,2,ST,1
            X,Ex,47.99,7.0,0,,1
            Y,Why,48.01,7.0,0,,1

            """,
            "routes.txt": "route_id,route_short_name,route_type\nA,A,3\nB,B,3\n",
            "trips.txt": "route_id,service_id,trip_id,wheelchair_accessible\nA,D,A1,1\nB,D,B1,1\nB,D,B2,1\nB,D,B3,1\n",
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            A1,07:50:00,07:50:00,X,1
            A1,08:00:00,08:00:00,P1,2
            B1,08:03:00,08:03:00,P2,1
            B1,08:30:00,08:30:00,Y,2
            B2,08:06:00,08:06:00,P2,1
            B2,08:33:00,08:33:00,Y,2
            B3,08:10:00,08:10:00,P2,1
            B3,08:37:00,08:37:00,Y,2

            """,
        ]
        files["pathways.txt"] = pathways
        return files
    }

    private static let both = """
        pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time,stair_count
        s1,P1,N,2,1,,60,24
        w1,N,P2,1,1,36,,
        e1,P1,L,5,1,,200,
        w2,L,P2,1,1,,60,

        """

    private func bundle(_ pathways: String?) throws -> TransitBundle {
        let folder = TemporaryFolders.make()
        let feed = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("station.db").path
        _ = try Compiler.compile(
            CompileRequest(
                feeds: [.init(name: "s", path: TestSupport.writeFeed(Self.feed(pathways: pathways), in: feed))], outputPath: output))
        return try TransitBundle(path: output)
    }

    /// The trips and the change's walk (seconds) of the first journey from X to Y at 07:45.
    private func ride(_ bundle: TransitBundle, wheelchair: Bool = false) throws -> String {
        var options = JourneyOptions()
        options.wheelchair = wheelchair
        guard
            let journey = try bundle.journeys(
                from: .stop("X"), to: .stop("Y"), departingAt: try QueryTime.parse("2026-03-10T07:45"), options: options
            ).first
        else { return "none" }
        return journey.legs.map { leg in
            leg.kind == .ride ? leg.boarding!.tripID : "walk \(Int(leg.arrival.timeIntervalSince(leg.departure))) s"
        }.joined(separator: ", ")
    }

    func testAChangeTakesThePathwaysTimeNotTheStraightLine() throws {
        XCTAssertEqual(try ride(try bundle(nil)), "A1, walk 26 s, B1")
        XCTAssertEqual(try ride(try bundle(Self.both)), "A1, walk 90 s, B2")
    }

    func testAWheelchairChangeTakesOnlyStepFreePathways() throws {
        XCTAssertEqual(try ride(try bundle(Self.both), wheelchair: true), "A1, walk 260 s, B3")
        // Stairs only: no step-free change, so no journey (Y is reached by B alone).
        let stairs = """
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time
            s1,P1,N,2,1,,60
            w1,N,P2,1,1,36,

            """
        XCTAssertEqual(try ride(try bundle(stairs), wheelchair: true), "none")
        XCTAssertEqual(try ride(try bundle(stairs)), "A1, walk 90 s, B2")
        // An escalator is not step-free either; an elevator is.
        let escalator = stairs.replacingOccurrences(of: "s1,P1,N,2,", with: "s1,P1,N,4,")
        XCTAssertEqual(try ride(try bundle(escalator), wheelchair: true), "none")
        let elevator = stairs.replacingOccurrences(of: "s1,P1,N,2,", with: "s1,P1,N,5,")
        XCTAssertEqual(try ride(try bundle(elevator), wheelchair: true), "A1, walk 90 s, B2")
    }

    func testOneWayPathwaysAreWalkedOnlyTheirWay() throws {
        // P1 -> P2 only through the lift; the stairs run from P2 to P1 only.
        let oneWay = """
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time
            s1,P2,N,1,0,,30
            s2,N,P1,2,0,,30
            e1,P1,L,5,0,,200
            w2,L,P2,1,0,,60

            """
        XCTAssertEqual(try ride(try bundle(oneWay)), "A1, walk 260 s, B3")
        // Arriving by 08:40: the same change, searched backwards.
        let arriving = try bundle(oneWay).journeys(from: .stop("X"), to: .stop("Y"), arrivingBy: try QueryTime.parse("2026-03-10T08:40"))
        XCTAssertEqual(arriving.first?.legs.compactMap { $0.boarding?.tripID }, ["A1", "B3"])
    }

    /// From a point 11 m from entrance E (10 s) and 37 m from P2 (31 s in a straight line),
    /// leaving at 08:01:30.
    private func fromTheStreet(_ bundle: TransitBundle, wheelchair: Bool = false) throws -> String {
        var options = JourneyOptions()
        options.wheelchair = wheelchair
        guard
            let journey = try bundle.journeys(
                from: .coordinate(Coordinate(latitude: 48.0006, longitude: 7.0)), to: .stop("Y"),
                departingAt: try QueryTime.parse("2026-03-10T08:01:30"), options: options
            ).first
        else { return "none" }
        return journey.legs.map { leg in
            leg.kind == .ride ? leg.boarding!.tripID : "walk \(Int(leg.arrival.timeIntervalSince(leg.departure))) s"
        }.joined(separator: ", ")
    }

    func testAWalkFromTheStreetEntersThroughAnEntrance() throws {
        // Without pathways: straight to P2 (08:02:01), in time for B1 at 08:03.
        XCTAssertEqual(try fromTheStreet(try bundle(nil)), "walk 31 s, B1")
        // Through the entrance: 10 s to E, 100 s to P2 (08:03:20): B2 at 08:06.
        let entrance = Self.both + "en1,E,P2,1,1,,100,\n"
        XCTAssertEqual(try fromTheStreet(try bundle(entrance)), "walk 110 s, B2")
        // Only stairs from the entrance: no step-free way in, so no wheelchair journey.
        let stairs = Self.both + "en1,E,P2,2,1,,100,20\n"
        XCTAssertEqual(try fromTheStreet(try bundle(stairs)), "walk 110 s, B2")
        XCTAssertEqual(try fromTheStreet(try bundle(stairs), wheelchair: true), "none")
        // Arriving at a point: out through the entrance the same way (P1 -> ... not used here:
        // Y is a plain stop), and a journey from X to the point beside E leaves P1 via E.
        let out = try bundle(entrance + "en2,P1,E,1,0,,45,\n").journeys(
            from: .stop("X"), to: .coordinate(Coordinate(latitude: 48.0006, longitude: 7.0)),
            departingAt: try QueryTime.parse("2026-03-10T07:45"))
        XCTAssertEqual(
            out.first?.legs.map { $0.kind == .ride ? $0.boarding!.tripID : "walk \(Int($0.arrival.timeIntervalSince($0.departure))) s" },
            ["A1", "walk 55 s"])
    }

    func testBadPathwayRowsAreNamed() throws {
        let result = TestSupport.compile([
            "stops.txt":
                "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\nST,S,48.0,7.0,1,\nS1,One,48.0,7.0,0,ST\nS2,Two,48.01,7.01,0,ST\nS3,Three,48.02,7.02,0,\n",
            "pathways.txt": """
            pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length,traversal_time
            p1,S1,S2,1,1,10,
            p1,S1,S2,1,1,10,
            p2,S1,NOPE,1,1,10,
            p3,S1,ST,1,1,10,
            p4,S1,S2,9,1,10,
            p5,S1,S2,7,1,10,
            p6,S1,S2,1,,10,
            p7,S1,S2,1,1,-3,

            """,
        ])
        XCTAssertNotNil(result.bundle, result.log.summaryText())
        XCTAssertEqual(
            result.log.diagnostics.filter { $0.file == "pathways.txt" }.map { "\($0.line ?? 0) \($0.field ?? "-") \($0.code.rawValue)" },
            [
                "3 pathway_id W_DUPLICATE_ID", "4 to_stop_id W_UNKNOWN_REF", "5 to_stop_id W_BAD_VALUE", "6 pathway_mode W_BAD_VALUE",
                "7 is_bidirectional W_BAD_VALUE", "8 is_bidirectional W_MISSING_VALUE", "9 length W_BAD_VALUE",
            ])
    }
}
