import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

/// Runs the built `gtfs-compile` and `transit-query` binaries and checks output and exit codes.
final class CommandLineTests: XCTestCase {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static var products: URL { TestPaths.products }

    func run(_ tool: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = tool.hasPrefix("/") ? URL(fileURLWithPath: tool) : Self.products.appendingPathComponent(tool)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TRANSIT_BUNDLE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        // A tool that exits without reading its input must not kill the tests.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        // The input is written on another thread while the output is read here, so a tool
        // that answers before it has read everything cannot block on a full pipe.
        let writer = DispatchGroup()
        let handle = inp.fileHandleForWriting
        writer.enter()
        DispatchQueue.global().async {
            if let input { try? handle.write(contentsOf: Data(input.utf8)) }
            try? handle.close()
            writer.leave()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        writer.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    func testCompileSucceedsWithSummaryAndFailsWithNothingWritten() throws {
        let directory = TemporaryFolders.make()
        let output = directory.appendingPathComponent("x.db").path
        let ok = try run(
            "gtfs-compile",
            [
                "metro=\(TestSupport.samples)/metro", TestSupport.samples + "/valley", "-o", output,
                "--report", directory.appendingPathComponent("r.json").path,
            ])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(ok.stderr.contains("trips         11"), ok.stderr)
        XCTAssertTrue(ok.stderr.contains("metro/trips.txt:11:2: warning: [W_UNKNOWN_REF] service_id \"GHOST\""), ok.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.json"))) as? [String: Any]
        XCTAssertEqual(report?["warnings"] as? Int, 1)

        let strict = try run(
            "gtfs-compile", [TestSupport.samples + "/metro", "-o", directory.appendingPathComponent("s.db").path, "--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("nothing written"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("s.db").path))

        let missing = try run("gtfs-compile", [TestSupport.zips + "/not-a-zip.zip", "-o", output])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("error: [E_ARCHIVE]"), missing.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output), "the earlier bundle is untouched")
    }

    func testBothCommandLinesPrintTheirVersion() throws {
        for tool in ["gtfs-compile", "transit-query"] {
            let result = try run(tool, ["--version"])
            XCTAssertEqual(result.status, 0, tool)
            XCTAssertEqual(result.stdout, "0.2.0\n", tool)
        }
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        let version = try db.prepare("SELECT value FROM metadata WHERE key = 'compiler_version'")
        XCTAssertTrue(try version.step())
        XCTAssertEqual(version.string(0), "0.2.0")
    }

    /// A feed with an agency extension file (a warning) and shapes.txt (information).
    private func feedWithExtensionFile() throws -> String {
        let directory = TemporaryFolders.make().appendingPathComponent("feed")
        try FileManager.default.copyItem(atPath: TestSupport.samples + "/valley", toPath: directory.path)
        try Data("agency_id,extra\n".utf8).write(to: directory.appendingPathComponent("agency_extension.txt"))
        try Data("shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n".utf8).write(to: directory.appendingPathComponent("shapes.txt"))
        return directory.path
    }

    func testStrictAllowAndMaxWarnings() throws {
        let feed = try feedWithExtensionFile()
        let output = TemporaryFolders.make().appendingPathComponent("x.db").path
        let strict = try run("gtfs-compile", [feed, "-o", output, "--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("[W_UNKNOWN_FILE]"), strict.stderr)
        let allowed = try run("gtfs-compile", [feed, "-o", output, "--strict", "--allow", "W_UNKNOWN_FILE,W_CELL_COUNT"])
        XCTAssertEqual(allowed.status, 0, "shapes.txt is information, never a failure: \(allowed.stderr)")
        let over = try run("gtfs-compile", [feed, "-o", output + "2", "--max-warnings", "0"])
        XCTAssertEqual(over.status, 1)
        XCTAssertTrue(over.stderr.contains("more than --max-warnings 0"), over.stderr)
        XCTAssertEqual(try run("gtfs-compile", [feed, "-o", output + "3", "--max-warnings", "1"]).status, 0)
        let unknown = try run("gtfs-compile", [feed, "-o", output, "--allow", "W_NOPE"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("unknown code W_NOPE"), unknown.stderr)
    }

    func testReportCarriesOutcomeBundleFeedsAndCountsAlsoOnFailure() throws {
        let directory = TemporaryFolders.make()
        let output = directory.appendingPathComponent("x.db").path
        let reportPath = directory.appendingPathComponent("r.json")
        XCTAssertEqual(
            try run("gtfs-compile", ["metro=\(TestSupport.samples)/metro", "-o", output, "--report", reportPath.path]).status, 0)
        var report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: reportPath)) as? [String: Any])
        XCTAssertEqual(report["version"] as? String, "0.2.0")
        XCTAssertEqual(report["succeeded"] as? Bool, true)
        let written = try XCTUnwrap(report["output"] as? [String: Any])
        XCTAssertEqual(written["path"] as? String, output)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        XCTAssertEqual(written["bytes"] as? Int, bytes.count)
        let sha = try run("/usr/bin/sha256sum", [output]).stdout.prefix(64)
        XCTAssertEqual(written["sha256"] as? String, String(sha))
        let feeds = try XCTUnwrap(report["feeds"] as? [[String: Any]])
        XCTAssertEqual(feeds.first?["feed"] as? String, "metro")
        XCTAssertEqual(feeds.first?["trips"] as? Int, 9, "10 in trips.txt, S2_GHOST dropped")
        XCTAssertEqual(feeds.first?["first_date"] as? String, "2026-01-01")
        XCTAssertEqual((report["summary"] as? [[String: Any]])?.first?["code"] as? String, "W_UNKNOWN_REF")

        let missing = directory.appendingPathComponent("no/such/folder/x.db").path
        let failed = try run("gtfs-compile", ["metro=\(TestSupport.samples)/metro", "-o", missing, "--report", reportPath.path])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains("\(missing): error: [E_OUTPUT]"), failed.stderr)
        report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: reportPath)) as? [String: Any])
        XCTAssertEqual(report["succeeded"] as? Bool, false)
        XCTAssertEqual((report["output"] as? [String: Any])?["written"] as? Bool, false)
        XCTAssertEqual((report["feeds"] as? [[String: Any]])?.first?["trips"] as? Int, 9)
        XCTAssertEqual(report["errors"] as? Int, 1)
    }

    /// The bundle's pages reach the disk before its name, and the rename is made durable by
    /// syncing the folder: traced with strace (installed by `make deps`).
    func testTheBundleIsSyncedBeforeAndAfterItsRename() throws {
        let directory = TemporaryFolders.make()
        let output = directory.appendingPathComponent("v.db").path
        let traced = try run(
            "/usr/bin/strace",
            [
                "-f", "-y", "-e", "trace=fsync,rename,renameat,renameat2",
                Self.products.appendingPathComponent("gtfs-compile").path, TestSupport.samples + "/valley", "-o", output,
            ],
            // LeakSanitizer cannot run under ptrace (make sanitize builds with it).
            environment: ["ASAN_OPTIONS": "detect_leaks=0"])
        XCTAssertEqual(traced.status, 0, traced.stderr)
        let calls = traced.stderr.split(separator: "\n").filter { $0.contains("fsync(") || $0.contains("rename") }.map(String.init)
        let rename = try XCTUnwrap(calls.firstIndex { $0.contains("rename") && $0.contains("\"\(output)\"") }, traced.stderr)
        XCTAssertTrue(calls[..<rename].contains { $0.contains("fsync(") && $0.contains(".v.db.tmp-") }, "\(calls)")
        XCTAssertTrue(calls[(rename + 1)...].contains { $0.contains("fsync(") && $0.contains("<\(directory.path)>") }, "\(calls)")
    }

    func testDiffAndPatchFromTheCommandLine() throws {
        let v1 = try TestFeeds.compileMetro(TestSupport.samples + "/metro")
        let next = try TestFeeds.metroNextVersion()
        let directory = TemporaryFolders.make()
        let v2 = directory.appendingPathComponent("v2.db").path
        let compiled = try run("gtfs-compile", ["metro=\(next)", "--base", v1, "-o", v2, "--quiet"])
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        let patch = directory.appendingPathComponent("v1-v2.patch").path
        let diff = try run("gtfs-compile", ["diff", v1, v2, "-o", patch])
        XCTAssertEqual(diff.status, 0, diff.stderr)
        XCTAssertTrue(diff.stderr.contains("rows deleted"), diff.stderr)
        // Applied in place, under strace: the copy is synced before it is renamed over the bundle.
        let app = directory.appendingPathComponent("app.db").path
        try FileManager.default.copyItem(atPath: v1, toPath: app)
        let traced = try run(
            "/usr/bin/strace",
            [
                "-f", "-y", "-e", "trace=fsync,rename,renameat,renameat2", Self.products.appendingPathComponent("gtfs-compile").path,
                "patch", app, patch, "-o", app,
            ], environment: ["ASAN_OPTIONS": "detect_leaks=0"])
        XCTAssertEqual(traced.status, 0, traced.stderr)
        let calls = traced.stderr.split(separator: "\n").filter { $0.contains("fsync(") || $0.contains("rename") }.map(String.init)
        let rename = try XCTUnwrap(calls.firstIndex { $0.contains("rename") && $0.contains("\"\(app)\"") }, traced.stderr)
        XCTAssertTrue(calls[..<rename].contains { $0.contains("fsync(") && $0.contains(".app.db.patching") }, "\(calls)")
        XCTAssertTrue(calls[(rename + 1)...].contains { $0.contains("fsync(") && $0.contains("<\(directory.path)>") }, "\(calls)")
        XCTAssertEqual(try TransitBundle(path: app).info().contentHash, try TransitBundle(path: v2).info().contentHash)
        // Applying it again: the bundle is now the new version, so the patch is refused.
        let again = try run("gtfs-compile", ["patch", app, patch, "-o", app])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("patch refused: the patch goes from content"), again.stderr)
    }

    /// A subcommand and a batch line asking the same question decode to one query and give
    /// the same JSON.
    func testSubcommandsAndBatchGiveTheSameAnswers() throws {
        let bundle = TestSupport.sampleBundlePath
        let pairs: [([String], String)] = [
            (
                ["departures", "--stop", "CENTRAL", "--at", "2026-03-28T23:50", "--window", "120"],
                #"{"op":"departures","stop":"CENTRAL","at":"2026-03-28T23:50","window":120}"#
            ),
            (["stops", "--near", "47.3667,8.5450", "--radius", "300"], #"{"op":"stops","near":[47.3667,8.5450],"radius":300}"#),
            (["trip", "--trip", "S2_FREQ", "--date", "2026-03-30"], #"{"op":"trip","trip":"S2_FREQ","date":"2026-03-30"}"#),
            (["cities", "--country", "US", "--min-internet", "100"], #"{"op":"cities","country":"US","min_internet":100}"#),
            (["city", "lisbon"], #"{"op":"city","city":"lisbon"}"#),
        ]
        for (arguments, line) in pairs {
            let direct = try run("transit-query", arguments + ["--bundle", bundle, "--json"])
            XCTAssertEqual(direct.status, 0, direct.stderr)
            let batch = try run("transit-query", ["batch", "--bundle", bundle], input: line + "\n")
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [String: Any], batch.stdout)
            let value = try XCTUnwrap(object[arguments[0]], "\(object)")
            let expected = try JSONSerialization.jsonObject(with: Data(direct.stdout.utf8), options: .fragmentsAllowed)
            XCTAssertEqual(
                try JSONSerialization.data(withJSONObject: value, options: .sortedKeys),
                try JSONSerialization.data(withJSONObject: expected, options: .sortedKeys), arguments[0])
        }
        let negative = try run(
            "transit-query", ["departures", "--bundle", bundle, "--stop", "CENTRAL", "--at", "2026-03-30T08:00", "--limit=-1"])
        XCTAssertEqual(negative.stderr, "transit-query: limit must not be negative\n")
    }

    /// `gtfs-compile manifest` describes a bundle as a server publishes it; checked against
    /// sha256sum, gzip and the sample feed's own stops, and against schemas/manifest.schema.json.
    func testManifestDescribesBundlesAndFollowsItsSchema() throws {
        let directory = TemporaryFolders.make()
        let bundle = directory.appendingPathComponent("zurich.db").path
        XCTAssertEqual(
            try run("gtfs-compile", ["metro=\(TestSupport.samples)/metro", "-o", bundle, "--label", "2026.1", "--quiet"]).status, 0)
        let manifest = directory.appendingPathComponent("manifest.json").path
        let next = directory.appendingPathComponent("zurich-2.db").path
        XCTAssertEqual(
            try run("gtfs-compile", ["metro=\(try TestFeeds.metroNextVersion())", "--base", bundle, "-o", next, "--quiet"]).status, 0)
        let patch = directory.appendingPathComponent("zurich-1-2.patch").path
        XCTAssertEqual(try run("gtfs-compile", ["diff", bundle, next, "-o", patch]).status, 0)
        let result = try run("gtfs-compile", ["manifest", bundle, next, "--patch", patch, "-o", manifest])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        let entry = try XCTUnwrap((object["bundles"] as? [[String: Any]])?.first)
        XCTAssertEqual(entry["id"] as? String, "zurich")
        XCTAssertEqual(entry["label"] as? String, "2026.1")
        XCTAssertEqual(entry["file"] as? String, "zurich.db")
        XCTAssertEqual(entry["bytes"] as? Int, try Data(contentsOf: URL(fileURLWithPath: bundle)).count)
        XCTAssertEqual(entry["file_sha256"] as? String, String(try run("/usr/bin/sha256sum", [bundle]).stdout.prefix(64)))
        XCTAssertEqual(entry["content_sha256"] as? String, try TransitBundle(path: bundle).info().contentHash)
        // Within 5 % of gzip -6 (another deflate implementation).
        let gzip = try run("/bin/sh", ["-c", "gzip -6 -n -c '\(bundle)' | wc -c"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let gzipBytes = try XCTUnwrap(entry["gzip_bytes"] as? Int)
        XCTAssertEqual(Double(gzipBytes), try XCTUnwrap(Double(gzip)), accuracy: Double(gzipBytes) * 0.05)
        XCTAssertEqual((entry["coverage"] as? [String: Any])?["last_service_date"] as? String, "2026-12-31")
        XCTAssertEqual((entry["feeds"] as? [[String: Any]])?.map { $0["feed_id"] as? String }, ["metro"])
        // The bounding box of the sample's stops, read from stops.txt.
        let stops = try String(contentsOfFile: TestSupport.samples + "/metro/stops.txt", encoding: .utf8).split(separator: "\n").dropFirst()
        let header = try String(contentsOfFile: TestSupport.samples + "/metro/stops.txt", encoding: .utf8).split(separator: "\n")[0]
            .split(separator: ",").map(String.init)
        let lat = try XCTUnwrap(header.firstIndex(of: "stop_lat"))
        let lon = try XCTUnwrap(header.firstIndex(of: "stop_lon"))
        let points = stops.map { $0.split(separator: ",", omittingEmptySubsequences: false) }.compactMap { cells -> (Double, Double)? in
            guard cells.count > max(lat, lon), let la = Double(cells[lat]), let lo = Double(cells[lon]) else { return nil }
            return (la, lo)
        }
        let box = try XCTUnwrap(entry["bounding_box"] as? [String: Double])
        XCTAssertEqual(box["min_lat"], points.map(\.0).min())
        XCTAssertEqual(box["max_lon"], points.map(\.1).max())
        let listed = try XCTUnwrap((object["patches"] as? [[String: Any]])?.first)
        XCTAssertEqual(listed["from_content_sha256"] as? String, entry["content_sha256"] as? String)
        XCTAssertEqual(listed["to_content_sha256"] as? String, try TransitBundle(path: next).info().contentHash)
        XCTAssertEqual(listed["file"] as? String, "zurich-1-2.patch")
        XCTAssertEqual(listed["bytes"] as? Int, try Data(contentsOf: URL(fileURLWithPath: patch)).count)
        XCTAssertEqual(listed["file_sha256"] as? String, String(try run("/usr/bin/sha256sum", [patch]).stdout.prefix(64)))
        let validate = try run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
                manifest, TestPaths.repository.appendingPathComponent("schemas/manifest.schema.json").path,
            ])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        let notABundle = try run("gtfs-compile", ["manifest", TestSupport.zips + "/stored.zip", "-o", manifest])
        XCTAssertEqual(notABundle.status, 1)
        XCTAssertTrue(notABundle.stderr.contains("not a transit bundle"), notABundle.stderr)
    }

    /// Each `file` is the bundle's place relative to the manifest, percent-encoded; two
    /// bundles with one id are refused (a store could not tell them apart).
    func testManifestNamesFilesRelativeToItselfAndRefusesOneIDTwice() throws {
        let directory = TemporaryFolders.make()
        for folder in ["site/out", "site/other"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let spaced = directory.appendingPathComponent("site/out/zürich 1.db").path
        let other = directory.appendingPathComponent("site/other/valley.db").path
        XCTAssertEqual(
            try run("gtfs-compile", ["metro=\(TestSupport.samples)/metro", "-o", spaced, "--id", "zurich", "--quiet"]).status, 0)
        XCTAssertEqual(try run("gtfs-compile", [TestSupport.samples + "/valley", "-o", other, "--quiet"]).status, 0)
        let manifest = directory.appendingPathComponent("site/out/manifest.json").path
        let result = try run("gtfs-compile", ["manifest", spaced, other, "-o", manifest])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any]
        let files = (object?["bundles"] as? [[String: Any]])?.compactMap { $0["file"] as? String }
        XCTAssertEqual(files, ["z%C3%BCrich%201.db", "../other/valley.db"])
        // Resolved as a store resolves them, against the manifest's URL, they name the files.
        let base = URL(string: "https://example.org/site/out/manifest.json")!
        XCTAssertEqual(
            files?.compactMap { URL(string: $0, relativeTo: base)?.absoluteURL.path },
            ["/site/out/zürich 1.db", "/site/other/valley.db"])
        let twice = directory.appendingPathComponent("site/out/zurich-again.db").path
        XCTAssertEqual(try run("gtfs-compile", ["metro=\(TestSupport.samples)/metro", "-o", twice, "--id", "zurich", "--quiet"]).status, 0)
        let refused = try run("gtfs-compile", ["manifest", spaced, twice, "-o", manifest])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("bundle id \"zurich\" is also the id of"), refused.stderr)
        // A bundle of another schema is named, not read half-way.
        let db = try SQLiteDatabase(path: twice, writable: true)
        try db.execute("PRAGMA user_version = 4")
        let old = try run("gtfs-compile", ["manifest", twice, "-o", manifest])
        XCTAssertEqual(old.status, 1)
        XCTAssertTrue(old.stderr.contains("the bundle has schema 4, this compiler writes 9; compile it again"), old.stderr)
    }

    /// `gtfs-compile manifest` never writes a sequence it wrote before: one past the manifest
    /// it replaces (or `--previous`) when that one is ahead of the clock.
    func testManifestSequenceIsAlwaysPastThePreviousOne() throws {
        let directory = TemporaryFolders.make()
        let bundle = directory.appendingPathComponent("valley.db").path
        XCTAssertEqual(try run("gtfs-compile", [TestSupport.samples + "/valley", "-o", bundle, "--quiet"]).status, 0)
        let manifest = directory.appendingPathComponent("manifest.json").path
        func sequence(_ path: String) throws -> Int64? {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            return (object?["sequence"] as? NSNumber)?.int64Value
        }
        let ahead: Int64 = 99_999_999_999_999  // a clock far ahead wrote it
        XCTAssertEqual(try run("gtfs-compile", ["manifest", bundle, "-o", manifest, "--sequence", String(ahead)]).status, 0)
        XCTAssertEqual(try run("gtfs-compile", ["manifest", bundle, "-o", manifest]).status, 0)
        XCTAssertEqual(try sequence(manifest), ahead + 1, "one past the manifest it replaced")
        let elsewhere = directory.appendingPathComponent("next.json").path
        XCTAssertEqual(try run("gtfs-compile", ["manifest", bundle, "-o", elsewhere, "--previous", manifest]).status, 0)
        XCTAssertEqual(try sequence(elsewhere), ahead + 2)
        let fresh = directory.appendingPathComponent("fresh.json").path
        XCTAssertEqual(try run("gtfs-compile", ["manifest", bundle, "-o", fresh]).status, 0)
        XCTAssertLessThan(try XCTUnwrap(try sequence(fresh)), ahead, "without a previous one: the clock in milliseconds")
        let missing = try run("gtfs-compile", ["manifest", bundle, "-o", fresh, "--previous", directory.path + "/none.json"])
        XCTAssertEqual(missing.status, 64, missing.stderr)
    }

    /// The departures table as a person reads it: a trip of the previous service day says
    /// "+1", the hour that repeats when clocks go back shows its UTC offset, columns line up
    /// by display width with Japanese headsigns, and a long route name is shortened.
    func testDepartureTablesMarkDaysOffsetsAndAlignWideText() throws {
        let folder = TemporaryFolders.make()
        let feed = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        var files = TestSupport.minimalFeed
        files["routes.txt"] = "route_id,route_long_name,route_type\nR,Ligne du Lac par la Vallée Haute et le Col du Grand Saint-Bernard,3\n"
        files["trips.txt"] = "route_id,service_id,trip_id,trip_headsign\nR,D,T1,河口湖駅\nR,D,T2,甲府駅北口\nR,D,T3,Lac\n"
        files["stop_times.txt"] = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,24:36:00,24:36:00,S1,1
            T1,24:50:00,24:50:00,S2,2
            T2,01:30:00,01:30:00,S1,1
            T2,01:40:00,01:40:00,S2,2
            T3,02:30:00,02:30:00,S1,1
            T3,02:40:00,02:40:00,S2,2

            """
        _ = TestSupport.writeFeed(files, in: feed)
        let bundle = folder.appendingPathComponent("b.db").path
        XCTAssertEqual(try run("gtfs-compile", [feed.path, "-o", bundle, "--quiet"]).status, 0)
        let table = try run(
            "transit-query", ["departures", "--bundle", bundle, "--stop", "S1", "--at", "2026-10-25T00:00", "--window", "240"])
        XCTAssertEqual(table.status, 0, table.stderr)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, table.stdout)
        let times = lines.dropFirst(2).map { String($0.prefix { $0 != " " || false }) }
        XCTAssertEqual(
            lines.dropFirst(2).map { $0.components(separatedBy: "  ").first ?? "" }, ["00:36+1", "02:30 +02:00", "02:30 +01:00"], "\(times)"
        )
        // Every row's stop column starts at the same display column as the header's.
        func column(of text: String, in line: String) -> Int? {
            guard let range = line.range(of: text) else { return nil }
            return line[..<range.lowerBound].reduce(0) { width, character in
                width + (character.unicodeScalars.contains { (0x3000...0x9FFF).contains($0.value) } ? 2 : 1)
            }
        }
        let header = try XCTUnwrap(column(of: "stop", in: lines[0]))
        for line in lines.dropFirst(2) { XCTAssertEqual(column(of: "S1", in: line), header, line) }
        XCTAssertTrue(lines[2].contains("Ligne du Lac par la Val… "), lines[2])
        let json = try run(
            "transit-query", ["departures", "--bundle", bundle, "--stop", "S1", "--at", "2026-10-25T00:00", "--window", "240", "--json"])
        XCTAssertTrue(json.stdout.contains("Col du Grand Saint-Bernard"), "JSON keeps the whole name")
    }

    func testAFolderGivenAsBundleIsAnErrorNotACrash() throws {
        let result = try run("transit-query", ["departures", "--bundle", TestSupport.samples, "--stop", "X", "--at", "2026-03-30T08:00"])
        XCTAssertEqual(result.status, 66)
        XCTAssertEqual(result.stderr, "transit-query: \(TestSupport.samples) is not a transit bundle: it is a folder, not a file\n")
    }

    func testDeparturesAsJSONAndAsATable() throws {
        let bundle = TestSupport.sampleBundlePath
        let json = try run(
            "transit-query",
            ["departures", "--bundle", bundle, "--stop", "CENTRAL", "--at", "2026-03-28T23:50", "--window", "120", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.count, 2)
        // Every key but those without a value here (no trip_short_name, not a frequency instance).
        let keys = [
            "feed", "stop_id", "stop_name", "platform_code", "trip_id", "route_id", "route_short_name", "route_long_name",
            "route_type", "route_color", "route_text_color", "headsign", "service_date", "departure_secs", "departure_time",
            "pickup_type", "frequency_based", "wheelchair_accessible", "stop_sequence", "arrival_time", "drop_off_type", "timepoint",
            "direction_id", "agency_id", "agency_name", "bikes_allowed", "stops_remaining", "time_zone",
        ]
        XCTAssertEqual(Set(list[0].keys), Set(keys))
        XCTAssertEqual(list[0]["time_zone"] as? String, "Europe/Zurich")
        XCTAssertEqual(list[1]["departure_time"] as? String, "2026-03-29T01:30:00+01:00")
        XCTAssertEqual(list[1]["departure_secs"] as? Int, 91_800)
        XCTAssertEqual(list[1]["service_date"] as? String, "2026-03-28")
        let table = try run(
            "transit-query", ["departures", "--stop", "CENTRAL", "--at", "2026-03-28T23:50", "--window", "120"],
            environment: ["TRANSIT_BUNDLE": bundle])
        XCTAssertEqual(table.status, 0, table.stderr)
        // The night trip of Saturday's service leaves on Sunday: "+1".
        XCTAssertTrue(table.stdout.contains("01:30+1  N1     Hub Süd   CENTRAL_2  2         N1_SAT_2530  2026-03-28"), table.stdout)
    }

    func testErrorsAreOneLineAndNonZero() throws {
        let bundle = TestSupport.sampleBundlePath
        let ambiguous = try run("transit-query", ["departures", "--bundle", bundle, "--stop", "HUB", "--at", "2026-03-30T08:00"])
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertEqual(ambiguous.stderr, "transit-query: stop \"HUB\" is in several feeds (metro, valley); choose one with --feed\n")
        let badTime = try run("transit-query", ["departures", "--bundle", bundle, "--stop", "CENTRAL", "--at", "yesterday"])
        XCTAssertEqual(badTime.status, 64)
        XCTAssertTrue(badTime.stderr.hasPrefix("transit-query: bad time \"yesterday\""), badTime.stderr)
        let notBundle = try run("transit-query", ["info", "--bundle", TestSupport.zips + "/stored.zip"])
        XCTAssertEqual(notBundle.status, 66)
        XCTAssertTrue(notBundle.stderr.contains("is not a transit bundle: not an SQLite database"), notBundle.stderr)
        let noBundle = try run("transit-query", ["info"])
        XCTAssertEqual(noBundle.status, 64)
        XCTAssertTrue(noBundle.stderr.contains("TRANSIT_BUNDLE"), noBundle.stderr)
        // The sample's metro feed lists S2_GHOST, whose service is unknown: dropped, and the message says where to look.
        let dropped = try run("transit-query", ["trip", "--bundle", bundle, "--trip", "S2_GHOST", "--date", "2026-03-30"])
        XCTAssertEqual(dropped.status, 1)
        XCTAssertTrue(dropped.stderr.contains("the compiler dropped it, and gtfs-compile --report names it"), dropped.stderr)
        let unknownCity = try run("transit-query", ["city", "--bundle", bundle, "atlantis"])
        XCTAssertEqual(unknownCity.status, 1)
        XCTAssertEqual(unknownCity.stderr, "transit-query: unknown city \"atlantis\"\n")
        // With --json the error is also JSON on stdout.
        let jsonError = try run("transit-query", ["city", "--bundle", bundle, "atlantis", "--json"])
        XCTAssertEqual(jsonError.status, 1)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(jsonError.stdout.utf8)) as? [String: [String: String]])
        XCTAssertEqual(object["error"], ["code": "unknown_city", "message": "unknown city \"atlantis\""])
        // A damaged bundle (a packed column that does not decode) is its own status.
        let damaged = TemporaryFolders.make().appendingPathComponent("damaged.db").path
        try FileManager.default.copyItem(atPath: bundle, toPath: damaged)
        try SQLiteDatabase(path: damaged, writable: true).execute("UPDATE patterns SET trips = x'0080'")
        let broken = try run("transit-query", ["departures", "--bundle", damaged, "--stop", "CENTRAL", "--at", "2026-03-30"])
        XCTAssertEqual(broken.status, 65, broken.stderr)
        XCTAssertTrue(broken.stderr.hasPrefix("transit-query: the bundle is damaged: "), broken.stderr)
        // A date alone means its local midnight.
        let midnight = try run(
            "transit-query", ["departures", "--bundle", bundle, "--stop", "CENTRAL", "--at", "2026-03-30", "--window", "1440"])
        XCTAssertEqual(midnight.status, 0, midnight.stderr)
        let explicit = try run(
            "transit-query", ["departures", "--bundle", bundle, "--stop", "CENTRAL", "--at", "2026-03-30T00:00", "--window", "1440"])
        XCTAssertEqual(midnight.stdout, explicit.stdout)
        XCTAssertTrue(midnight.stdout.contains("T4_WK_0800"), "Monday's 08:00 is within the day: \(midnight.stdout)")
    }

    func testOtherCommands() throws {
        let bundle = TestSupport.sampleBundlePath
        // Southern and western points as people type them: the same answer as --near=VALUE.
        for command in ["stops", "cities"] {
            let spaced = try run("transit-query", [command, "--bundle", bundle, "--near", "-41.4388,-147.1347", "--json"])
            let joined = try run("transit-query", [command, "--bundle", bundle, "--near=-41.4388,-147.1347", "--json"])
            XCTAssertEqual(spaced.status, 0, spaced.stderr)
            XCTAssertEqual(spaced.stdout, joined.stdout)
        }
        let stops = try run("transit-query", ["stops", "--bundle", bundle, "--near", "47.3667,8.5450", "--radius", "300", "--json"])
        let near = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(stops.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(near.map { $0["stop_id"] as? String }, ["BELLEVUE", "OPERA"])
        XCTAssertNotNil(near.first?["distance_m"])
        let trip = try run("transit-query", ["trip", "--bundle", bundle, "--trip", "T4_WK_0800", "--date", "2026-03-30", "--json"])
        let details = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(trip.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((details["stop_times"] as? [[String: Any]])?.count, 4)
        XCTAssertEqual(details["headsign"] as? String, "Tiefenbrunnen")
        let info = try run("transit-query", ["info", "--bundle", bundle, "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])?["schema_version"] as? Int, 9)
        let city = try run("transit-query", ["city", "--bundle", bundle, "lisbon", "--json"])
        let lisbon = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(city.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(lisbon["alternate_names"] as? [String], ["Lisboa", "Lissabon", "Lisbonne"])
        XCTAssertEqual((lisbon["related_cities"] as? [[String: Any]])?.first?["name"] as? String, "Zürich")
        let cities = try run("transit-query", ["cities", "--bundle", bundle, "--country", "US", "--min-internet", "100"])
        XCTAssertTrue(cities.stdout.contains("San Francisco"), cities.stdout)
        XCTAssertFalse(cities.stdout.contains("Valleyton"), cities.stdout)
    }

    func testBatchAnswersEachLineInOrderAndSurvivesBadLines() throws {
        let input = """
            {"id":1,"op":"departures","stop":"CENTRAL","at":"2026-03-30T08:00","window":1}
            not json
            {"id":"x","op":"departures","stop":"NOWHERE","at":"2026-03-30T08:00"}
            {"id":3,"op":"stops","search":"bellevue"}
            {"id":4,"op":"trip","trip":"V1_0130","date":"2026-11-01"}
            {"id":5,"op":"city","city":"zurich"}
            {"id":6,"op":"cities","near":[38.7,-9.1],"limit":1}
            {"id":7,"op":"teleport"}
            """
        let result = try run("transit-query", ["batch", "--bundle", TestSupport.sampleBundlePath], input: input)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 8)
        XCTAssertEqual((lines[0]?["departures"] as? [[String: Any]])?.map { $0["trip_id"] as? String }, ["T4_WK_0800", "S2_FREQ"])
        XCTAssertEqual((lines[1]?["error"] as? [String: Any])?["code"] as? String, "bad_json")
        XCTAssertEqual(lines[2]?["id"] as? String, "x")
        XCTAssertEqual((lines[2]?["error"] as? [String: Any])?["code"] as? String, "unknown_stop")
        XCTAssertEqual((lines[3]?["stops"] as? [[String: Any]])?.first?["stop_id"] as? String, "BELLEVUE")
        XCTAssertEqual(
            ((lines[4]?["trip"] as? [String: Any])?["stop_times"] as? [[String: Any]])?.first?["departure_time"] as? String,
            "2026-11-01T01:30:00-05:00")
        XCTAssertEqual((lines[5]?["city"] as? [String: Any])?["name"] as? String, "Zürich")
        XCTAssertEqual((lines[6]?["cities"] as? [[String: Any]])?.first?["id"] as? String, "lisbon")
        XCTAssertEqual(lines[7]?["id"] as? Int, 7)
        XCTAssertEqual((lines[7]?["error"] as? [String: Any])?["code"] as? String, "bad_query")
    }

    /// Several threads answer a batch of several chunks (512 lines each) exactly as one does,
    /// every answer on its question's line.
    func testBatchThreadsKeepTheOrderAndTheAnswers() throws {
        let questions = [
            #""op":"departures","stop":"CENTRAL","at":"2026-03-30T08:00","window":1"#,
            #""op":"departures","stop":"NOWHERE","at":"2026-03-30T08:00""#,
            #""op":"stops","search":"bellevue""#,
            #""op":"trip","trip":"V1_0130","date":"2026-11-01""#,
            #""op":"teleport""#,
        ]
        var input = ""
        for n in 0..<1_300 { input += n % 97 == 0 ? "not json\n" : "{\"id\":\(n),\(questions[n % questions.count])}\n" }
        let one = try run("transit-query", ["batch", "--bundle", TestSupport.sampleBundlePath, "--jobs", "1"], input: input)
        XCTAssertEqual(one.status, 0, one.stderr)
        let ids = one.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
        }
        XCTAssertEqual(ids, (0..<1_300).map { $0 % 97 == 0 ? nil : $0 })
        for jobs in ["2", "3"] {
            let several = try run("transit-query", ["batch", "--bundle", TestSupport.sampleBundlePath, "--jobs", jobs], input: input)
            XCTAssertEqual(several.status, 0, several.stderr)
            XCTAssertEqual(several.stdout, one.stdout, "--jobs \(jobs)")
        }
        let refused = try run("transit-query", ["batch", "--bundle", TestSupport.sampleBundlePath, "--jobs", "0"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--jobs must be 1 to 64"), refused.stderr)
    }
}

extension CommandLineTests {
    /// `transit-query shape`: a trip's line as `[[lat, lon], ...]`, a route's lines, the
    /// batch op, and a usage error without exactly one of --trip and --route.
    func testShapeCommand() throws {
        let (log, path) = TestSupport.compile(TestFeeds.shapes)
        let bundle = try XCTUnwrap(path, log.summaryText())
        let trip = try run("transit-query", ["shape", "--bundle", bundle, "--trip", "T3", "--json"])
        XCTAssertEqual(trip.status, 0, trip.stderr)
        let line = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(trip.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(line["shape_id"] as? String, "SH2")
        XCTAssertEqual((line["points"] as? [[Double]])?.last, [47.99, 6.995])
        let route = try run("transit-query", ["shape", "--bundle", bundle, "--route", "R"])
        XCTAssertTrue(route.stdout.hasPrefix("shape SH1 (f): 4 points, 2.8 km\n48.0,7.0\n"), route.stdout)
        XCTAssertTrue(route.stdout.contains("through the stops of trip T2 (f): 2 points"), route.stdout)
        let batch = try run("transit-query", ["batch", "--bundle", bundle], input: "{\"id\":1,\"op\":\"shape\",\"route\":\"R\"}\n")
        let answer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((answer["shapes"] as? [[String: Any]])?.compactMap { $0["shape_id"] as? String }, ["SH1", "SH2"])
        XCTAssertEqual(try run("transit-query", ["shape", "--bundle", bundle]).status, 64)
        XCTAssertEqual(try run("transit-query", ["shape", "--bundle", bundle, "--route", "NOPE"]).status, 1)
    }
}

extension CommandLineTests {
    /// `agencies`, `routes`, `route` and `nearest`, and the JSON keys of stops, which must be
    /// the `Codable` keys of `Stop` (the library's types and the CLI speak one JSON).
    func testLineCommandsAndCodableKeys() throws {
        let (log, path) = TestSupport.compile(TestFeeds.routes)
        let bundle = try XCTUnwrap(path, log.summaryText())
        let json = { (args: [String]) throws -> Any in
            let result = try self.run("transit-query", args + ["--bundle", bundle, "--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        }
        let agencies = try XCTUnwrap(try json(["agencies"]) as? [[String: Any]])
        XCTAssertEqual(agencies.compactMap { $0["agency_name"] as? String }, ["Agency A", "Agency B"])
        let routes = try XCTUnwrap(try json(["routes", "--stop", "S3"]) as? [[String: Any]])
        XCTAssertEqual(routes.compactMap { $0["route_id"] as? String }, ["R"])
        XCTAssertEqual(routes.first?["route_color"] as? String, "FF0000")
        let route = try XCTUnwrap(try json(["route", "R"]) as? [String: Any])
        let directions = try XCTUnwrap(route["directions"] as? [[String: Any]])
        XCTAssertEqual((directions.first?["stops"] as? [[String: Any]])?.compactMap { $0["stop_id"] as? String }, ["S1", "S2", "S4", "S3"])
        let nearest = try XCTUnwrap(try json(["nearest", "--near", "48.0,7.0", "--count", "2"]) as? [[String: Any]])
        XCTAssertEqual(nearest.compactMap { $0["stop_id"] as? String }, ["S1", "S2"])
        // The CLI's keys for a stop are Stop's Codable keys (a field without a value left out).
        let first = try XCTUnwrap(nearest.first)
        let encoded = try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(
                Stop(feedID: "f", stopID: "S1", name: "One", latitude: 48, longitude: 7, wheelchairBoarding: .unknown, distanceMetres: 3)))
        XCTAssertEqual(Set(try XCTUnwrap(encoded as? [String: Any]).keys), Set(first.keys))
        XCTAssertEqual(try run("transit-query", ["routes", "--bundle", bundle, "--agency", "A", "--stop", "S1"]).status, 64)
        XCTAssertEqual(try run("transit-query", ["routes", "--bundle", bundle, "--agency", "Z"]).status, 1)
    }
}

extension CommandLineTests {
    /// The CLI's departures JSON is `Departure`'s `Codable` encoding: decoded, it is the
    /// library's own answer, and the library's encoding has the CLI's keys.
    func testDeparturesJSONIsTheCodableEncoding() throws {
        let bundle = TestSupport.sampleBundlePath
        let at = "2026-03-28T23:50"
        let result = try run(
            "transit-query", ["departures", "--bundle", bundle, "--stop", "CENTRAL", "--at", at, "--window", "240", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let decoded = try JSONDecoder().decode([Departure].self, from: Data(result.stdout.utf8))
        let library = try TransitBundle(path: bundle).departures(from: "CENTRAL", at: try QueryTime.parse(at), within: 240 * 60)
        XCTAssertFalse(library.isEmpty)
        XCTAssertEqual(decoded, library)
        let cli = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let encoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(library)) as? [[String: Any]])
        for (a, b) in zip(cli, encoded) { XCTAssertEqual(Set(a.filter { !($0.value is NSNull) }.keys), Set(b.keys)) }
        XCTAssertEqual(Set(library.map(\.id)).count, library.count, "ids are unique on a board")
    }
}

extension CommandLineTests {
    /// A batch id is echoed as written, also past 2^53 where a double would round it.
    func testBatchIdsComeBackExactly() throws {
        let input = """
            {"id":9007199254740993,"op":"info"}
            {"id":-42,"op":"info"}
            {"id":1.5,"op":"info"}
            {"id":"x","op":"stops","near":[47,8.5],"radius":100}
            {"id":123456789012345678901234567890,"op":"info"}
            {"id":-99999999999999999999,"op":"teleport"}

            """
        let result = try run("transit-query", ["batch", "--bundle", TestSupport.sampleBundlePath], input: input)
        XCTAssertEqual(result.status, 0, result.stderr)
        let ids = result.stdout.split(separator: "\n").map { $0.prefix { $0 != "," } }
        XCTAssertEqual(
            ids,
            [
                "{\"id\":9007199254740993", "{\"id\":-42", "{\"id\":1.5", "{\"id\":\"x\"", "{\"id\":123456789012345678901234567890",
                "{\"id\":-99999999999999999999",
            ])
    }

    /// A line longer than a batch line may be (10 MB here) is answered with an error naming
    /// its number and length, without being held in memory, and the lines after it are
    /// answered as usual.
    func testBatchLinesLongerThanTheLimitAreRefusedOneByOne() throws {
        let long = "{\"id\":2,\"op\":\"stops\",\"search\":\"" + String(repeating: "a", count: 10 << 20) + "\"}"
        let input = "{\"id\":1,\"op\":\"info\"}\n" + long + "\n" + long + "\r\n{\"id\":4,\"op\":\"stops\",\"search\":\"bellevue\"}\n"
        let result = try run("transit-query", ["batch", "--bundle", TestSupport.sampleBundlePath], input: input)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 4)
        XCTAssertNotNil(lines[0]?["info"])
        for (index, number) in [(1, 2), (2, 3)] {
            let error = try XCTUnwrap(lines[index]?["error"] as? [String: Any])
            XCTAssertEqual(error["code"] as? String, "line_too_long")
            XCTAssertEqual(error["message"] as? String, "line \(number) is \(long.utf8.count + index - 1) bytes (at most 65536); not read")
        }
        XCTAssertEqual((lines[3]?["stops"] as? [[String: Any]])?.first?["stop_id"] as? String, "BELLEVUE")
    }

    /// A city whose cost of living is not finite and whose internet speed is past any Int
    /// (a crafted bundle) prints, as text and JSON, with those values unknown.
    func testACityOfNumbersOutOfRangePrintsThemAsUnknown() throws {
        let bundle = try TestSupport.sampleBundleCopy(
            editedBy: "UPDATE cities SET cost_of_living = 1e999, internet_speed = 1e300 WHERE city_id = 'zurich'")
        let text = try run("transit-query", ["city", "--bundle", bundle, "zurich"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("Zürich"), text.stdout)
        XCTAssertFalse(text.stdout.contains("USD/month"), text.stdout)
        XCTAssertFalse(text.stdout.contains("Mbps"), text.stdout)
        let json = try run("transit-query", ["city", "--bundle", bundle, "zurich", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let city = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(city["name"] as? String, "Zürich")
        XCTAssertNil(city["cost_of_living"])
        XCTAssertNil(city["internet_speed"])
    }
}

extension CommandLineTests {
    /// `trip --json` is `TripDetails`' `Codable` encoding: decoded, it is the library's answer.
    func testTripJSONIsTheCodableEncoding() throws {
        let bundle = TestSupport.sampleBundlePath
        for trip in ["T4_WK_0800", "S2_FREQ"] {
            let result = try run("transit-query", ["trip", "--bundle", bundle, "--trip", trip, "--date", "2026-03-30", "--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let decoded = try JSONDecoder().decode(TripDetails.self, from: Data(result.stdout.utf8))
            XCTAssertEqual(decoded, try TransitBundle(path: bundle).trip(trip, on: ServiceDate("2026-03-30")!))
            XCTAssertFalse(decoded.stopTimes.isEmpty)
        }
    }
}
