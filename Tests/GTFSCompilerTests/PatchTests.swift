import BundleFormat
import Foundation
import GTFSCompiler
import PatchEngine
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

/// Versions of the metro sample: ids kept by --base, patches, and what a patch refuses.
final class PatchTests: XCTestCase {
    static func nextVersion() throws -> String { try TestFeeds.metroNextVersion() }

    static func compile(_ feed: String, base: String? = nil) throws -> String { try TestFeeds.compileMetro(feed, base: base) }

    static func ids(_ path: String, _ sql: String) throws -> [String: Int] {
        let db = try SQLiteDatabase(path: path, writable: false)
        let q = try db.prepare(sql)
        var result: [String: Int] = [:]
        while try q.step() { result[q.string(0)] = q.int(1) }
        return result
    }

    func testBaseKeepsTheIdsOfWhatBothVersionsHave() throws {
        let v1 = try Self.compile(TestSupport.samples + "/metro")
        let next = try Self.nextVersion()
        let kept = try Self.compile(next, base: v1)
        let fresh = try Self.compile(next)
        let stops1 = try Self.ids(v1, "SELECT stop_id, sid FROM stops")
        let stopsKept = try Self.ids(kept, "SELECT stop_id, sid FROM stops")
        for (stop, sid) in stops1 { XCTAssertEqual(stopsKept[stop], sid, stop) }
        XCTAssertEqual(stopsKept["AAA_NEW"], stops1.values.max()! + 1, "a new stop takes the next id")
        // Without --base the stops' ids follow the map (StopOrderTests), not the text.
        let freshStops = try TestSupport.rows(fresh, "SELECT stop_id FROM stops ORDER BY sid")
        XCTAssertEqual(freshStops, try StopOrderTests.mapOrder(fresh))
        let trips1 = Dictionary(uniqueKeysWithValues: try BundleDump(path: v1).trips.map { ($0.tripID, $0.record.tid) })
        let tripsKept = Dictionary(uniqueKeysWithValues: try BundleDump(path: kept).trips.map { ($0.tripID, $0.record.tid) })
        for (trip, tid) in trips1 where trip != "T4_WK_0815" { XCTAssertEqual(tripsKept[trip], tid, trip) }
        XCTAssertNil(tripsKept["T4_WK_0815"])
        XCTAssertEqual(tripsKept["A_NEW"], trips1.values.max()! + 1)
        XCTAssertFalse(tripsKept.values.contains(trips1["T4_WK_0815"]!), "a removed trip's id stays unused")
        // The same input with itself as base keeps every id: the very same content.
        let again = try Self.compile(TestSupport.samples + "/metro", base: v1)
        XCTAssertEqual(try TransitBundle(path: again).info().contentHash, try TransitBundle(path: v1).info().contentHash)
        // Kept ids answer like fresh ones: lookups by text, departures in text order.
        let a = try TransitBundle(path: kept)
        let b = try TransitBundle(path: fresh)
        XCTAssertEqual(try a.trip("A_NEW", on: ServiceDate("2026-03-30")!).stopTimes.map(\.stopID), ["AAA_NEW", "CENTRAL_1"])
        try Self.assertSameAnswers(a, b)
    }

    static func assertSameAnswers(_ a: TransitBundle, _ b: TransitBundle, file: StaticString = #filePath, line: UInt = #line) throws {
        let stops = ["CENTRAL", "CENTRAL_1", "BELLEVUE", "OPERA", "TIEFENBRUNNEN", "AAA_NEW", "HUB", "OERLIKON", "AIRPORT"]
        for stop in stops {
            for at in ["2026-03-28T23:50", "2026-03-30T08:00", "2026-03-29T00:30", "2026-12-31T22:00"] {
                let time = try QueryTime.parse(at)
                XCTAssertEqual(
                    try a.departures(from: stop, at: time, within: 240 * 60, limit: 50),
                    try b.departures(from: stop, at: time, within: 240 * 60, limit: 50), "\(stop) \(at)", file: file, line: line)
            }
        }
        for word in ["zurich", "bellevue", "a", "hub"] {
            XCTAssertEqual(
                try a.stops(matching: word).map(\.stopID), try b.stops(matching: word).map(\.stopID), word, file: file, line: line)
        }
    }

    func testAPatchTurnsTheOldVersionIntoTheNewOneAndRefusesAnythingElse() throws {
        let v1 = try Self.compile(TestSupport.samples + "/metro")
        let v2 = try Self.compile(try Self.nextVersion(), base: v1)
        let folder = TemporaryFolders.make()
        let patch = folder.appendingPathComponent("v1-v2.patch").path
        let summary = try BundleDiff.write(old: v1, new: v2, to: patch)
        XCTAssertEqual(summary.toHash, try TransitBundle(path: v2).info().contentHash)
        // New rows: the stop (stops, stop_patterns), A_NEW's headsign and pattern, the
        // planner's sequence and route for A_NEW (its stops, AAA_NEW then CENTRAL_1, are a
        // sequence no trip had), and the stop_ids and trip_ids groups that now start at
        // "AAA_NEW" and "A_NEW" (the old first groups' rows go).
        let decoded = try BundlePatch(decoding: [UInt8](try Data(contentsOf: URL(fileURLWithPath: patch))))
        func tables(_ kind: (BundlePatch.Operation) -> Bool) -> [String] {
            decoded.sections.filter { $0.operations.contains(where: kind) }.map(\.table)
        }
        XCTAssertEqual(
            tables { if case .put = $0 { return true } else { return false } },
            ["headsigns", "patterns", "planner_routes", "planner_sequences", "stop_ids", "stop_patterns", "stops", "trip_ids"])
        XCTAssertEqual(tables { if case .delete = $0 { return true } else { return false } }, ["stop_ids", "trip_ids"])
        XCTAssertEqual(summary.rowsPut, 8)
        let before = try Data(contentsOf: URL(fileURLWithPath: v1))
        let patched = folder.appendingPathComponent("patched.db").path
        XCTAssertEqual(try BundleUpdate.apply(patch: patch, to: v1, output: patched), summary.toHash)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: v1)), before, "the old bundle is never modified")
        let bundle = try TransitBundle(path: patched)
        XCTAssertTrue(try bundle.verifyContentHash())
        try Self.assertSameAnswers(bundle, TransitBundle(path: v2))
        XCTAssertEqual(try bundle.stops(matching: "bellevue platz").map(\.stopID), ["BELLEVUE"], "the rebuilt search index")
        // Refused: the patch on the new version, a truncated patch, one flipped bit.
        let refusals: [(String, String)] = [
            ("wrong base", v2), ("truncated", v1), ("bit flipped", v1),
        ]
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: patch)))
        try Data(bytes.prefix(bytes.count - 1)).write(to: URL(fileURLWithPath: folder.appendingPathComponent("truncated").path))
        bytes[20] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: folder.appendingPathComponent("bit flipped").path))
        for (what, base) in refusals {
            let file = what == "wrong base" ? patch : folder.appendingPathComponent(what).path
            let target = folder.appendingPathComponent("refused.db").path
            XCTAssertThrowsError(try BundleUpdate.apply(patch: file, to: base, output: target), what) {
                guard case .patchRefused(let reason)? = $0 as? TransitError else { return XCTFail("\(what): \($0)") }
                XCTAssertTrue(reason.contains(what == "wrong base" ? "goes from content" : "checksum"), reason)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: target), what)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: v1)), before)
    }

    func testByteEditsCarryOnlyWhatChanged() throws {
        let old = Array("0123456789abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var new = old
        new[3] = UInt8(ascii: "X")
        new.insert(contentsOf: Array("++".utf8), at: 30)
        let edits = ByteEdits.between(old, new)
        // Keep 3, replace 1 by "X"; then keep 26 (4..<30), insert "++".
        XCTAssertEqual(
            edits.edits,
            [.init(skip: 3, delete: 1, insert: Array("X".utf8)), .init(skip: 26, delete: 0, insert: Array("++".utf8))])
        XCTAssertEqual(try edits.applied(to: old), new)
        XCTAssertThrowsError(try ByteEdits([.init(skip: 40, delete: 10, insert: [])]).applied(to: old), "past the end")
        let seed = SplitMix64.testSeed(0x5EED_0001)
        var random = SplitMix64(state: seed)
        for _ in 0..<300 {
            let base = (0..<Int.random(in: 0..<400, using: &random)).map { _ in UInt8.random(in: 0...5, using: &random) }
            var changed = base
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let at = Int.random(in: 0...changed.count, using: &random)
                let cut = min(changed.count - at, Int.random(in: 0...5, using: &random))
                changed.replaceSubrange(
                    at..<at + cut, with: (0..<Int.random(in: 0...5, using: &random)).map { _ in UInt8.random(in: 0...9, using: &random) })
            }
            XCTAssertEqual(try ByteEdits.between(base, changed).applied(to: base), changed, "TEST_SEED=\(seed)")
        }
    }

    func testThePatchFormatReadsBackWhatItWrote() throws {
        let patch = BundlePatch(
            schemaVersion: 3, fromHash: String(repeating: "a", count: 64), toHash: String(repeating: "b", count: 64),
            sections: [
                .init(
                    table: "stops", columns: ["sid", "name"], keyCount: 1,
                    operations: [
                        .delete(key: [.integer(7)]), .put(row: [.integer(-9_000_000_000), .text(Array("Zürich".utf8))]),
                        .update(
                            key: [.integer(3)],
                            changes: [(1, .value(.real(1.5))), (1, .edits(ByteEdits([.init(skip: 1, delete: 2, insert: [0, 255])])))]),
                        .put(row: [.null, .blob([1, 2, 3])]),
                    ])
            ])
        let bytes = patch.encoded()
        let back = try BundlePatch(decoding: bytes)
        XCTAssertEqual(back.sections, patch.sections)
        XCTAssertEqual([back.fromHash, back.toHash], [patch.fromHash, patch.toHash])
        for cut in [1, 10, bytes.count / 2, bytes.count - 1] {
            XCTAssertThrowsError(try BundlePatch(decoding: Array(bytes.prefix(cut))), "cut at \(cut)")
        }
        // A fuzz finding: a count of two billion columns made the reader reserve 8 GB; counts
        // are now bounded by the bytes left.
        let finding = try Data(contentsOf: TestPaths.repository.appendingPathComponent("Tests/Fixtures/fuzz/patch-oom-huge-count.bin"))
        XCTAssertThrowsError(try BundlePatch(decoding: BundlePatch.sealed(BundlePatch.magic + [UInt8](finding))))
    }

    func testEveryContentTableHasItsKeyFirst() throws {
        // A copy with every optional table the samples lack, empty.
        let db = try SQLiteDatabase(path: try TestSupport.sampleBundleCopy(editedBy: "SELECT 1"), writable: false)
        for table in BundleSchema.contentTables { XCTAssertNotNil(try TableShape(table, in: db), table) }
    }
}
