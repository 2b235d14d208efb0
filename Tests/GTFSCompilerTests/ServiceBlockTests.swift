import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

@testable import GTFSCompiler

/// Service ids in deflated blocks: round trips, damaged bytes, and svs kept by --base.
final class ServiceBlockTests: XCTestCase {
    func testBlocksKeepIdsFeedsAndGaps() throws {
        let entries: [ServiceBlock.Entry?] = [
            .init(serviceID: "WEEKDAY", fid: 1), nil, .init(serviceID: "Zürich–Genève Sa/So", fid: 2), nil, nil,
            .init(serviceID: String(repeating: "x", count: 5_000), fid: 300), .init(serviceID: "", fid: 1),
        ]
        XCTAssertEqual(try ServiceBlock.decode(try ServiceBlock.encode(entries)), entries)
        XCTAssertEqual(try ServiceBlock.decode(try ServiceBlock.encode([])), [])
        XCTAssertEqual(ServiceBlock.firstSv(holding: 1), 1)
        XCTAssertEqual(ServiceBlock.firstSv(holding: 32), 1)
        XCTAssertEqual(ServiceBlock.firstSv(holding: 33), 33)
        // Ids written from one template deflate to a fraction of their text.
        let alike = (0..<32).map {
            ServiceBlock.Entry(serviceID: "SERVICE_\(10_000 + $0)_WEEKDAY_PATTERN_\(31_415_926 + $0 * 7_919)", fid: 1)
        }
        XCTAssertLessThan(try ServiceBlock.encode(alike).count, 32 * 38 / 3)
    }

    func testDamagedBlocksAreAnErrorNotACrash() throws {
        let good = try ServiceBlock.encode([.init(serviceID: "WEEKDAY", fid: 1), .init(serviceID: "SUNDAY", fid: 1)])
        for cut in 0..<good.count {
            XCTAssertThrowsError(try ServiceBlock.decode(Array(good.prefix(cut))), "cut at \(cut)")
        }
        // More slots than a block has, and a block that would inflate past its bound.
        XCTAssertThrowsError(try ServiceBlock.decode(try ServiceBlock.encode([ServiceBlock.Entry?](repeating: nil, count: 33))))
        let bomb = try ServiceBlock.encode([.init(serviceID: String(repeating: "a", count: 2 << 20), fid: 1)])
        XCTAssertLessThan(bomb.count, 10_000)
        XCTAssertThrowsError(try ServiceBlock.decode(bomb), "inflates past \(ServiceBlock.maxInflated) bytes")
        let seed = SplitMix64.testSeed(77)
        var random = SplitMix64(state: seed)
        for _ in 0..<2_000 {
            var bytes = good
            bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            if let decoded = try? ServiceBlock.decode(bytes) { XCTAssertLessThanOrEqual(decoded.count, 32, "seed \(seed)") }
        }
    }

    /// What both versions have keeps its sv; a new service takes the next one, even when its
    /// id sorts first.
    func testBaseKeepsTheSvsOfServicesBothVersionsHave() throws {
        func feed(_ services: [String]) -> [String: String] {
            var files = TestSupport.minimalFeed
            files["calendar.txt"] =
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + services.map { "\($0),1,1,1,1,1,1,1,20260101,20261231\n" }.joined()
            files["trips.txt"] = "route_id,service_id,trip_id\nR,\(services.last!),T1\nR,\(services.first!),T2\n"
            return files
        }
        func svs(_ path: String) throws -> [String: Int] {
            let db = try SQLiteDatabase(path: path, writable: false)
            let q = try db.prepare("SELECT first_sv, entries FROM service_blocks")
            var result: [String: Int] = [:]
            while try q.step() {
                for (i, entry) in try ServiceBlock.decode(q.blob(1)).enumerated() {
                    if let entry { result[entry.serviceID] = q.int(0) + i }
                }
            }
            return result
        }
        let folder = TemporaryFolders.make()
        let oldFeed = TestSupport.writeFeed(feed(["B", "C", "D"]), in: TemporaryFolders.make())
        let newFeed = TestSupport.writeFeed(feed(["A", "B", "D"]), in: TemporaryFolders.make())
        let v1 = folder.appendingPathComponent("v1.db").path
        let v2 = folder.appendingPathComponent("v2.db").path
        _ = try Compiler.compile(CompileRequest(feeds: [.init(name: "f", path: oldFeed)], outputPath: v1))
        var request = CompileRequest(feeds: [.init(name: "f", path: newFeed)], outputPath: v2)
        request.basePath = v1
        _ = try Compiler.compile(request)
        XCTAssertEqual(try svs(v1), ["B": 1, "C": 2, "D": 3], "without --base svs follow the text")
        XCTAssertEqual(try svs(v2), ["B": 1, "D": 3, "A": 4])
        let bundle = try TransitBundle(path: v2)
        let trips = try bundle.departures(from: "S1", at: try QueryTime.parse("2026-03-30T07:00"), within: 180 * 60, limit: 10)
        XCTAssertEqual(trips.map(\.tripID), ["T1", "T2"], "both services run")
    }
}
