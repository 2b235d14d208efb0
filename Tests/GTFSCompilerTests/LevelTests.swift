import Foundation
import GTFSCompiler
import TestSupport
import TransitRuntime
import XCTest

/// levels.txt and stops' level_id: each stop answers with its floor; a level_id levels.txt
/// lacks, a level without a usable index and one given twice are named.
final class LevelTests: XCTestCase {
    func testStopsAnswerWithTheirLevel() throws {
        let result = TestSupport.compile([
            "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,level_id
            S1,One,48.0,7.0,L0
            S2,Two,48.01,7.01,LM1
            S3,Three,48.02,7.02,NOPE

            """,
            "levels.txt": """
            level_id,level_index,level_name
            L0,0,Street
            LM1,-1.5,
            L0,3,Twice
            BAD,down,

            """,
        ])
        let path = try XCTUnwrap(result.bundle, result.log.summaryText())
        let problems = result.log.diagnostics.filter { $0.file == "levels.txt" || $0.file == "stops.txt" }.map {
            "\($0.file ?? "") \($0.line ?? 0) \($0.field ?? "-") \($0.code.rawValue)"
        }
        XCTAssertEqual(
            problems,
            ["levels.txt 4 level_id W_DUPLICATE_ID", "levels.txt 5 level_index W_BAD_VALUE", "stops.txt 4 level_id W_UNKNOWN_REF"])
        let bundle = try TransitBundle(path: path)
        XCTAssertEqual(try bundle.stop("S1").level, StopLevel(levelID: "L0", index: 0, name: "Street"))
        XCTAssertEqual(try bundle.stop("S2").level, StopLevel(levelID: "LM1", index: -1.5))
        XCTAssertNil(try bundle.stop("S3").level)
        let json = String(decoding: try JSONEncoder().encode(try bundle.stop("S1")), as: UTF8.self)
        XCTAssertTrue(json.contains(#""level":{"#), json)
        XCTAssertEqual(try JSONDecoder().decode(Stop.self, from: Data(json.utf8)), try bundle.stop("S1"))
        // A feed without levels: no level, and no cost beyond two empty tables.
        XCTAssertNil(try TransitBundle(path: try XCTUnwrap(TestSupport.compile([:]).bundle)).stop("S1").level)
    }
}
