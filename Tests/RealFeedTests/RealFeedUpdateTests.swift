import BundleFormat
import Foundation
import GTFSCompiler
import TestKit
import TransitRuntime
import TransitSQLite
import XCTest

/// Updates on real feeds: the next version of each feed (`evolve_feed.py`) compiled with
/// `--base`, diffed and patched, must equal the new bundle in content and answers.
final class RealFeedUpdateTests: XCTestCase {
    /// One with frequencies (cdmx), two calendar_dates-only (mnr, wmata), the largest (cts).
    static let feeds = ["cts-strasbourg", "cdmx-mexico-city", "mnr-metro-north", "wmata", "kaunas", "bart"]

    struct Versions {
        let evolvedFeed: String
        let old: String
        let new: String
        let patch: String
        let oldHash: String
        let newHash: String
    }

    private static let folder = TemporaryFolders.make()
    /// Each feed's versions, made once per run (three tests use cts-strasbourg's, and none
    /// writes to them).
    private static let made = Locked<[String: Versions]>([:])

    /// v1 compiled from the feed, v2 from its evolved copy with --base v1, and the patch between;
    /// in `folder`, shared by the tests of a run (they read these files and write elsewhere).
    static func versions(_ name: String) throws -> Versions {
        try made.withLock { made in
            if let done = made[name] { return done }
            let done = try make(name, in: folder)
            made[name] = done
            return done
        }
    }

    private static func make(_ name: String, in folder: URL) throws -> Versions {
        let feed = RealFeeds.folder.appendingPathComponent(name + ".zip").path
        let evolved = folder.appendingPathComponent(name + "-v2.zip").path
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", TestPaths.shared.appendingPathComponent("tools/evolve_feed.py").path, feed, evolved]
        python.standardOutput = FileHandle.nullDevice
        try python.run()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0, "evolve_feed.py \(name)")
        let old = folder.appendingPathComponent(name + "-v1.db").path
        let new = folder.appendingPathComponent(name + "-v2.db").path
        _ = try Compiler.compile(CompileRequest(feeds: [.init(name: name, path: feed)], outputPath: old))
        var request = CompileRequest(feeds: [.init(name: name, path: evolved)], outputPath: new)
        request.basePath = old
        _ = try Compiler.compile(request)
        let patch = folder.appendingPathComponent(name + ".patch").path
        let summary = try BundleDiff.write(old: old, new: new, to: patch)
        return Versions(evolvedFeed: evolved, old: old, new: new, patch: patch, oldHash: summary.fromHash, newHash: summary.toHash)
    }

    func testPatchedBundlesAndFreshCompilesEqualTheNewVersionOnSixFeeds() throws {
        try RealFeeds.requireShared()
        let folder = TemporaryFolders.make()
        for name in Self.feeds {
            let v = try Self.versions(name)
            XCTAssertNotEqual(v.oldHash, v.newHash, name)
            let before = try Data(contentsOf: URL(fileURLWithPath: v.old))
            let patched = folder.appendingPathComponent(name + "-patched.db").path
            XCTAssertEqual(try BundleUpdate.apply(patch: v.patch, to: v.old, output: patched), v.newHash, name)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: v.old)), before, "\(name): the old bundle is untouched")
            let a = try TransitBundle(path: patched)
            let b = try TransitBundle(path: v.new)
            XCTAssertEqual(try a.info().contentHash, v.newHash, name)
            XCTAssertTrue(try a.verifyContentHash(), name)
            try Self.assertSameAnswers(a, b, name)
            // Kept ids change no answer: the new version compiled without --base answers alike.
            let fresh = folder.appendingPathComponent(name + "-v2-fresh.db").path
            _ = try Compiler.compile(
                CompileRequest(feeds: [.init(name: name, path: v.evolvedFeed)], outputPath: fresh))
            try Self.assertSameAnswers(TransitBundle(path: fresh), b, name + " without --base")
            // What both versions have kept its ids: the patch is less than half the one to the
            // new version compiled without --base, and a fraction of the bundle (mnr-metro-north,
            // whose evolved copy moves most times, 25 %; the others 0.5-6.3 %).
            let freshPatch = folder.appendingPathComponent(name + "-fresh.patch").path
            _ = try BundleDiff.write(old: v.old, new: fresh, to: freshPatch)
            let patchBytes = try FileManager.default.attributesOfItem(atPath: v.patch)[.size] as! Int
            let freshPatchBytes = try FileManager.default.attributesOfItem(atPath: freshPatch)[.size] as! Int
            let bundleBytes = try FileManager.default.attributesOfItem(atPath: v.new)[.size] as! Int
            XCTAssertLessThan(patchBytes * 2, freshPatchBytes, "\(name): patch \(patchBytes) bytes, without --base \(freshPatchBytes)")
            XCTAssertLessThan(patchBytes * 3, bundleBytes, "\(name): patch \(patchBytes) bytes for a bundle of \(bundleBytes)")
        }
    }

    /// 1,000 random departure boards, plus stop searches and trips, answer alike.
    static func assertSameAnswers(_ a: TransitBundle, _ b: TransitBundle, _ name: String) throws {
        let info = try b.info()
        let feed = try XCTUnwrap(info.feeds.first)
        let db = try SQLiteDatabase(path: b.path, writable: false)
        var stops: [String] = []
        let q = try db.prepare("SELECT stop_id FROM stops ORDER BY stop_id")
        while try q.step() { stops.append(q.string(0)) }
        let formatter = ISO8601DateFormatter()
        let first = try XCTUnwrap(formatter.date(from: try XCTUnwrap(feed.firstServiceDate).description + "T00:00:00Z"))
        let last = try XCTUnwrap(formatter.date(from: try XCTUnwrap(feed.lastServiceDate).description + "T00:00:00Z"))
        var random = SplitMix64(state: 2026)
        var nonEmpty = 0
        struct Answer: Equatable {
            var departures: [Departure] = []
            var error: String?
        }
        func answer(_ bundle: TransitBundle, _ stop: String, _ at: Date) -> Answer {
            do {
                return Answer(departures: try bundle.departures(from: stop, at: .instant(at), within: 120 * 60, limit: 30))
            } catch {
                return Answer(error: "\(error)")
            }
        }
        for _ in 0..<1_000 {
            let stop = stops.randomElement(using: &random)!
            let at = Date(
                timeIntervalSince1970: Double.random(in: first.timeIntervalSince1970...last.timeIntervalSince1970, using: &random))
            let expected = answer(b, stop, at)
            XCTAssertEqual(answer(a, stop, at), expected, "\(name) \(stop) \(at)")
            if !expected.departures.isEmpty { nonEmpty += 1 }
        }
        XCTAssertGreaterThan(nonEmpty, 25, "\(name): the boards compared were not all empty")
        for word in ["a", "e", "gare", "st", "center"] {
            XCTAssertEqual(try a.stops(matching: word).map(\.stopID), try b.stops(matching: word).map(\.stopID), "\(name) search \(word)")
        }
    }

    func testDamagedAndForeignPatchesAreRefusedAndTheBundleIsUntouched() throws {
        try RealFeeds.requireShared()
        let folder = TemporaryFolders.make()
        let v = try Self.versions("cts-strasbourg")
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: v.patch)))
        var flipped = good
        flipped[good.count / 2] ^= 0x10
        let damaged: [(String, [UInt8])] = [
            ("truncated", Array(good.prefix(good.count - 100))), ("bit-flipped", flipped), ("empty", []),
            ("not a patch", Array("agency_id,agency_name\n".utf8)),
        ]
        let target = folder.appendingPathComponent("out.db").path
        let before = try Data(contentsOf: URL(fileURLWithPath: v.old))
        for (what, bytes) in damaged {
            let path = folder.appendingPathComponent(what + ".patch").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try BundleUpdate.apply(patch: path, to: v.old, output: v.old), what) {
                guard case .patchRefused? = $0 as? TransitError else { return XCTFail("\(what): \($0)") }
            }
        }
        // The right patch on the wrong bundle: the new version, or another feed's bundle.
        XCTAssertThrowsError(try BundleUpdate.apply(patch: v.patch, to: v.new, output: target)) {
            XCTAssertTrue("\($0)".contains("goes from content"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "nothing written for a refused patch")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: v.old)), before)
        for place in [folder.path, URL(fileURLWithPath: v.old).deletingLastPathComponent().path] {
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: place).filter { $0.contains(".patching") }
            XCTAssertEqual(leftovers, [], "no temporary file left after a refusal")
        }
    }

    /// `gtfs-compile patch OLD PATCH -o OLD`, killed at random moments: every time, OLD is a
    /// whole bundle, the old version or the new one, never something between.
    func testKillingTheApplyAtRandomMomentsLeavesAWholeBundle() throws {
        try RealFeeds.requireShared()
        let folder = TemporaryFolders.make()
        let v = try Self.versions("cts-strasbourg")
        let bundle = folder.appendingPathComponent("app.db").path
        var random = SplitMix64(state: 99)
        var outcomes: [String: Int] = [:]
        for round in 0..<40 {
            if !FileManager.default.fileExists(atPath: bundle) || round % 5 == 0 {
                try? FileManager.default.removeItem(atPath: bundle)
                try FileManager.default.copyItem(atPath: v.old, toPath: bundle)
            }
            let process = Process()
            process.executableURL = TestPaths.products.appendingPathComponent("gtfs-compile")
            process.arguments = ["patch", bundle, v.patch, "-o", bundle]
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 0...40_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let db = try SQLiteDatabase(path: bundle, writable: false)
            let q = try db.prepare("PRAGMA integrity_check")
            XCTAssertTrue(try q.step())
            XCTAssertEqual(q.string(0), "ok", "round \(round)")
            let opened = try TransitBundle(path: bundle)
            let hash = try opened.info().contentHash
            XCTAssertTrue([v.oldHash, v.newHash].contains(hash), "round \(round): \(hash)")
            XCTAssertTrue(try opened.verifyContentHash(), "round \(round)")
            outcomes[hash == v.oldHash ? "old" : "new", default: 0] += 1
        }
        XCTAssertGreaterThan(outcomes["old", default: 0], 0, "some kills landed before the rename: \(outcomes)")
        // An interrupted apply leaves at most its temporary file, which the next apply replaces.
        XCTAssertEqual(try BundleUpdate.apply(patch: v.patch, to: v.old, output: bundle), v.newHash)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".patching") }
        XCTAssertEqual(leftovers, [])
    }
}
