import BundleFormat
import Foundation
import GTFSCompiler
import PatchEngine
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

/// Patches with honest hashes (so they pass every check but the work they ask for) that
/// would make the applier run for minutes, hold gigabytes or store a false content hash,
/// and what each now does: refused before the work with its reason, or applied with the
/// content hash the content has.
final class HostilePatchTests: XCTestCase {
    /// A copy of the sample bundle edited by `sql`, its stored content hash made true.
    private func honestCopy(_ sql: String) throws -> String {
        let path = try TestSupport.sampleBundleCopy(editedBy: sql)
        let db = try SQLiteDatabase(path: path, writable: true)
        let hash = try ContentHash.compute(db)
        let store = try db.prepare("UPDATE metadata SET value = ?1 WHERE key = 'content_sha256'")
        store.bind([hash])
        try store.run()
        return path
    }

    /// The patch file of `patch`, beside a fresh output path.
    private func write(_ patch: BundlePatch) throws -> (patch: String, output: String) {
        let folder = TemporaryFolders.make()
        let path = folder.appendingPathComponent("crafted.patch").path
        try Data(patch.encoded()).write(to: URL(fileURLWithPath: path))
        return (path, folder.appendingPathComponent("out.db").path)
    }

    /// The reason `BundleUpdate` refuses the patch at `patch` (nil when it applies).
    private func refusal(_ patch: String, to base: String = TestSupport.sampleBundlePath, output: String) -> String? {
        do {
            _ = try BundleUpdate.apply(patch: patch, to: base, output: output)
            return nil
        } catch TransitError.patchRefused(let reason) {
            return reason
        } catch {
            return "another error: \(error)"
        }
    }

    private var sampleHash: String { get throws { try TransitBundle(path: TestSupport.sampleBundlePath).info().contentHash } }

    /// A patch that writes the stored content hash (another bundle's) applies, but the
    /// bundle keeps the hash its content has.
    func testTheStoredContentHashIsComputedNeverTakenFromThePatch() throws {
        let hash = try sampleHash
        let forged = String(repeating: "f", count: 64)
        let patch = BundlePatch(
            schemaVersion: BundleSchema.version, fromHash: hash, toHash: hash,
            sections: [
                .init(
                    table: "metadata", columns: ["key", "value"], keyCount: 1,
                    operations: [.put(row: [.text(Array("content_sha256".utf8)), .text(Array(forged.utf8))])])
            ])
        let (file, output) = try write(patch)
        XCTAssertNil(refusal(file, output: output))
        let patched = try TransitBundle(path: output)
        XCTAssertEqual(try patched.info().contentHash, hash)
        XCTAssertTrue(try patched.verifyContentHash())
    }

    /// A table changed by two sections, a patch larger than its bundle allows, and updates
    /// that rewrite one large row again and again are refused before the work.
    func testPatchesAskingForUnboundedWorkAreRefused() throws {
        let hash = try sampleHash
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        let stop = try XCTUnwrap(try db.scalarInt("SELECT sid FROM stops WHERE stop_id = 'BELLEVUE'"))
        let name = BundlePatch.Operation.update(key: [.integer(Int64(stop))], changes: [(3, .value(.text(Array("B".utf8))))])
        let stopColumns = try TableShape("stops", in: db)!.columns
        XCTAssertEqual(stopColumns[3], "name")
        let twice = BundlePatch(
            schemaVersion: BundleSchema.version, fromHash: hash, toHash: hash,
            sections: [
                .init(table: "stops", columns: stopColumns, keyCount: 1, operations: [name]),
                .init(table: "stops", columns: stopColumns, keyCount: 1, operations: [name]),
            ])
        let (twiceFile, twiceOutput) = try write(twice)
        XCTAssertEqual(refusal(twiceFile, output: twiceOutput), "the patch changes table stops twice")

        let base = try XCTUnwrap((try FileManager.default.attributesOfItem(atPath: TestSupport.sampleBundlePath))[.size] as? NSNumber)
            .intValue
        let huge = BundlePatch(
            schemaVersion: BundleSchema.version, fromHash: hash, toHash: hash,
            sections: [
                .init(
                    table: "stops", columns: stopColumns, keyCount: 1,
                    operations: [
                        .update(
                            key: [.integer(Int64(stop))],
                            changes: [(3, .value(.text([UInt8](repeating: 0x78, count: 2 * base + (1 << 20)))))])
                    ])
            ])
        let (hugeFile, hugeOutput) = try write(huge)
        let hugeBytes = try XCTUnwrap((try FileManager.default.attributesOfItem(atPath: hugeFile))[.size] as? NSNumber).intValue
        XCTAssertEqual(
            refusal(hugeFile, output: hugeOutput),
            "the patch is \(hugeBytes) bytes, more than a patch of a \(base)-byte bundle may be (fetch the whole bundle)")

        // A stop of a 300 KB name (within what a bundle may hold), rewritten by 100 updates
        // that change nothing: 60 MB of rows for a patch of a few hundred bytes.
        let large = try honestCopy("UPDATE stops SET name = printf('%.*c', 300000, 'x') WHERE stop_id = 'BELLEVUE'")
        let largeHash = try TransitBundle(path: large).info().contentHash
        let again = BundlePatch(
            schemaVersion: BundleSchema.version, fromHash: largeHash, toHash: largeHash,
            sections: [
                .init(
                    table: "stops", columns: stopColumns, keyCount: 1,
                    operations: Array(repeating: .update(key: [.integer(Int64(stop))], changes: []), count: 100))
            ])
        let (againFile, againOutput) = try write(again)
        XCTAssertEqual(
            refusal(againFile, to: large, output: againOutput),
            "the patch rewrites more than a patch of its size may (a damaged or crafted patch)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: againOutput))
    }

    /// An edit reaching past the end of its value by a count near the largest a patch
    /// holds is refused, not added up past `Int`'s range.
    func testAnEditPastTheEndOfItsValueIsRefused() throws {
        let edits = ByteEdits([.init(skip: 2_147_483_647, delete: 2_147_483_647, insert: [])])
        XCTAssertThrowsError(try edits.applied(to: Array("abc".utf8))) {
            XCTAssertEqual(($0 as? PatchRefused)?.description, "the patch edits a value past its end")
        }
    }

    /// A patch with honest hashes that writes a pathway naming no stop applies (its content
    /// is what it says); the journeys that read it refuse with the reason instead of
    /// trapping.
    func testAPatchWritingHostileRowsLeavesQueriesThatRefuseCleanly() throws {
        let target = try honestCopy(
            """
            INSERT INTO pathways VALUES (90, -5, 2, 1, 1, 10, NULL, NULL)
            """)
        let folder = TemporaryFolders.make()
        let patch = folder.appendingPathComponent("hostile.patch").path
        _ = try BundleDiff.write(old: TestSupport.sampleBundlePath, new: target, to: patch)
        let output = folder.appendingPathComponent("patched.db").path
        XCTAssertNil(refusal(patch, output: output))
        let patched = try TransitBundle(path: output)
        XCTAssertThrowsError(
            try patched.journeys(from: .stop("CENTRAL_1"), to: .stop("BELLEVUE"), departingAt: QueryTime.parse("2026-03-30T08:00"))
        ) {
            XCTAssertEqual($0 as? TransitError, .corruptBundle(reason: "pathways: pathway 90 from stop -5 to stop 2 names no stop"))
        }
    }

    /// A bundle of 200,000 attributions is listed in the manifest with its first 20 (the
    /// feed's own credits first): the manifest stays the size a store accepts.
    func testAManifestListsAtMostTwentyCreditsAFeed() throws {
        let bundle = try TestSupport.sampleBundleCopy(
            editedBy: """
                INSERT INTO attributions SELECT 1000 + i, 1, 'Org ' || i, 0, 1, 0, NULL, NULL, 'T' || i, NULL, NULL, NULL FROM
                  (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT i FROM n);
                INSERT INTO attributions VALUES (999999, 1, 'The feed', 1, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL);
                """)
        let path = TemporaryFolders.make().appendingPathComponent("manifest.json").path
        try BundleManifest(bundles: [bundle]).write(to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertLessThan(bytes.count, 64 << 10)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        let feeds = try XCTUnwrap((document["bundles"] as? [[String: Any]])?.first?["feeds"] as? [[String: Any]])
        let credits = try XCTUnwrap(feeds.first?["attributions"] as? [[String: Any]])
        XCTAssertEqual(credits.count, 20)
        // The feed's own credits (the sample's and the one added last) come before any trip's.
        let own = credits.prefix { $0["trip_id"] == nil }.compactMap { $0["organization_name"] as? String }
        XCTAssertTrue(own.contains("The feed"), "\(own)")
        XCTAssertEqual(credits.dropFirst(own.count).first?["organization_name"] as? String, "Org 1")
    }
}
