import BundleFormat
import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitSQLite
import XCTest

@testable import GTFSCompiler

final class CompilerTests: XCTestCase {
    func testBundleSchemaEqualsSchemasBundleSQL() throws {
        let text = try String(contentsOfFile: TestPaths.repository.appendingPathComponent("schemas/bundle.sql").path, encoding: .utf8)
        // A Swift multi-line literal leaves out the file's final line break.
        XCTAssertEqual(text, BundleSchema.sql + "\n", "run `make schema` after editing schemas/bundle.sql")
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        let q = try db.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var actual: [String] = []
        while try q.step() {
            let sql = q.string(0)
            // FTS5 and R*Tree shadow tables are created by SQLite itself.
            if sql.hasPrefix("CREATE TABLE '") || sql.hasPrefix("CREATE TABLE \"") { continue }
            actual.append(sql)
        }
        // Every statement of the schema but those of the optional tables the samples lack.
        let present = Set(actual.map { BundleSchema.indexedTable($0) ?? BundleSchema.tableName($0) })
        let expected = BundleSchema.splitStatements(text).filter { sql in
            let table =
                sql.hasPrefix("CREATE TABLE") || sql.hasPrefix("CREATE VIRTUAL")
                ? BundleSchema.tableName(sql) : BundleSchema.indexedTable(sql)!
            return present.contains(table) || !BundleSchema.optionalTables.contains(table)
        }
        XCTAssertEqual(actual.sorted(), expected.sorted())
        XCTAssertTrue(present.contains("fare_classes") && present.contains("cities") && !present.contains("pathways"), "\(present)")
    }

    func testSameInputsGiveByteIdenticalBundles() throws {
        let directory = TemporaryFolders.make()
        var outputs: [Data] = []
        // Two folders, one file name: the bundle id (the file's stem) is part of the content.
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
            let path = directory.appendingPathComponent(folder + "/city.db").path
            _ = try Compiler.compile(
                CompileRequest(
                    feeds: [
                        .init(name: "metro", path: TestSupport.samples + "/metro"),
                        .init(name: "valley", path: TestSupport.samples + "/valley"),
                    ],
                    citiesPath: TestSupport.samples + "/cities.json", outputPath: path))
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        XCTAssertEqual(outputs[0], outputs[1])
    }

    func testFinishedBundleHasNoJournalStatisticsAndNoFreePages() throws {
        let directory = URL(fileURLWithPath: TestSupport.sampleBundlePath).deletingLastPathComponent()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "samples.db" }
        XCTAssertEqual(leftovers, [], "no journal, WAL or temporary file beside the bundle")
        let db = try SQLiteDatabase(path: TestSupport.sampleBundlePath, writable: false)
        XCTAssertGreaterThan(try db.scalarInt("SELECT count(*) FROM sqlite_stat1") ?? 0, 0)
        XCTAssertEqual(try db.scalarInt("PRAGMA freelist_count"), 0)
    }

    func testFailedCompileLeavesOutputUntouchedAndNoTemporaryFile() throws {
        let directory = TemporaryFolders.make()
        let output = directory.appendingPathComponent("city.db")
        try Data("previous bundle".utf8).write(to: output)
        XCTAssertThrowsError(
            try Compiler.compile(
                CompileRequest(
                    feeds: [.init(name: "bad", path: TestSupport.zips + "/bomb.zip")],
                    outputPath: output.path))
        ) { error in
            XCTAssertTrue((error as? CompileFailure)?.diagnostics.countsByCode[.unreadableArchive] ?? 0 > 0, "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "previous bundle")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["city.db"])
    }

    func testEveryTripsStopTimesCanBeRebuilt() throws {
        let trip = try TestSupport.sampleBundle.trip("S2_FREQ", on: ServiceDate("2026-03-30")!)
        XCTAssertEqual(trip.stopTimes.map(\.stopSequence), [1, 2, 3])
        XCTAssertEqual(trip.stopTimes.map(\.arrivalSecs), [21_600, 22_020, 22_500])
        XCTAssertEqual(trip.stopTimes.map(\.departureSecs), [21_600, 22_080, 22_500])
        XCTAssertEqual(trip.frequencies.map(\.headwaySecs), [600, 900])
        XCTAssertEqual(trip.frequencies.map(\.exactTimes), [false, true])
        XCTAssertTrue(trip.runsOnDate)
        XCTAssertFalse(try TestSupport.sampleBundle.trip("S2_FREQ", on: ServiceDate("2026-03-28")!).runsOnDate)
    }

    func testTripsWithEqualOffsetsSharePatterns() throws {
        let dump = try BundleDump(path: TestSupport.sampleBundlePath)
        let pids = Dictionary(uniqueKeysWithValues: dump.trips.map { ($0.tripID, $0.pid) })
        XCTAssertEqual(pids["T4_WK_0800"], pids["T4_WK_0815"])
        XCTAssertEqual(pids["T4_WK_0800"], pids["T4_WE_0800"])
        XCTAssertNotEqual(pids["T4_WK_0800"], pids["T4_WK_0830"], "different stops and pickup types")
    }

    // MARK: - Diagnostics on small feeds

    private func codes(_ log: DiagnosticLog) -> Set<DiagnosticCode> { Set(log.countsByCode.keys) }

    func testMissingRequiredFileOrColumnStopsTheBuild() {
        let missing = TestSupport.compile(["stops.txt": nil])
        XCTAssertNil(missing.bundle)
        XCTAssertEqual(missing.log.diagnostics.first?.code, .missingFile)
        XCTAssertEqual(missing.log.diagnostics.first?.file, "stops.txt")
        let column = TestSupport.compile(["trips.txt": "route_id,trip_id\nR,T1\n"])
        XCTAssertNil(column.bundle)
        XCTAssertEqual(column.log.diagnostics.first { $0.code == .missingColumn }?.field, "service_id")
        let noCalendar = TestSupport.compile(["calendar.txt": nil])
        XCTAssertEqual(noCalendar.log.diagnostics.first?.code, .missingFile)
    }

    func testUnknownReferencesDropTheRowWithFileLineAndField() throws {
        let result = TestSupport.compile(["stop_times.txt": TestSupport.minimalFeed["stop_times.txt"]! + "T1,08:30:00,08:30:00,NOWHERE,4\n"]
        )
        XCTAssertNotNil(result.bundle)
        let d = try XCTUnwrap(result.log.diagnostics.first { $0.code == .unknownReference })
        XCTAssertEqual(d.file, "stop_times.txt")
        XCTAssertEqual(d.line, 7)
        XCTAssertEqual(d.column, 4)
        XCTAssertEqual(d.field, "stop_id")
        XCTAssertEqual(d.value, "NOWHERE")
        XCTAssertEqual(
            d.formatted, "f/stop_times.txt:7:4: warning: [W_UNKNOWN_REF] stop_id \"NOWHERE\": stop_id names no stop; row dropped")
    }

    func testDuplicateIDsKeepTheFirst() throws {
        let result = TestSupport.compile([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,48.0,7.0\nS1,Again,48.0,7.0\nS2,Two,48.01,7.01\nS3,Three,48.02,7.02\n"
        ])
        XCTAssertEqual(codes(result.log), [.duplicateID])
        let bundle = try TransitBundle(path: try XCTUnwrap(result.bundle))
        XCTAssertEqual(try bundle.stops(matching: "one").map(\.name), ["One"])
        XCTAssertEqual(try bundle.stops(matching: "again").count, 0)
    }

    func testBadTimesBackwardsTimesAndShortTripsAreReported() {
        let times =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + "T1,08:00:00,08:00:00,S1,1\nT1,8:5:00,8:5:00,S2,2\nT1,08:20:00,08:20:00,S3,3\n"
            + "T2,09:00:00,09:00:00,S1,1\nT2,08:50:00,08:50:00,S2,2\n"
        let result = TestSupport.compile(["stop_times.txt": times, "trips.txt": "route_id,service_id,trip_id\nR,D,T1\nR,D,T2\nR,D,T3\n"])
        XCTAssertEqual(codes(result.log), [.badTime, .timeTravel, .tooFewStops])
        XCTAssertNotNil(result.bundle, "T1 survives with S2 interpolated")
    }

    /// One stop time a minute earlier than the one before costs that stop its times, not the
    /// trip: it is interpolated between its neighbours and the warning names trip and stop.
    func testABackwardsStopTimeIsInterpolatedAndTheTripKept() throws {
        let times =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + "T1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT1,08:09:00,08:09:00,S3,3\nT1,08:30:00,08:30:00,S1,4\n"
        let result = TestSupport.compile(["stop_times.txt": times, "trips.txt": "route_id,service_id,trip_id\nR,D,T1\n"])
        XCTAssertEqual(codes(result.log), [.timeTravel])
        let warning = try XCTUnwrap(result.log.diagnostics.first)
        XCTAssertTrue(warning.message.contains("trip T1, stop S3 (stop_sequence 3): 8:09:00 is before 8:10:00 at stop S2"), warning.message)
        XCTAssertEqual(warning.line, 4)
        let bundle = try TransitBundle(path: try XCTUnwrap(result.bundle))
        let trip = try bundle.trip("T1", on: ServiceDate("2026-03-30")!)
        XCTAssertEqual(trip.stopTimes.count, 4)
        let third = trip.stopTimes[2]
        XCTAssertTrue(third.interpolated)
        // Between 08:10 (S2) and 08:30 (S1 again), by great-circle distance.
        XCTAssertGreaterThan(third.departureSecs, 8 * 3600 + 600)
        XCTAssertLessThan(third.departureSecs, 8 * 3600 + 1800)
    }

    func testFeedWithNoUsableTripsIsAnError() {
        let result = TestSupport.compile([
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\n"
        ])
        XCTAssertNil(result.bundle)
        XCTAssertTrue(codes(result.log).contains(.noUsableTrips))
    }

    func testStrictMakesWarningsFatal() {
        let overrides: [String: String?] = ["routes.txt": "route_id,route_short_name,route_type,route_color\nR,1,3,notacolor\n"]
        XCTAssertNotNil(TestSupport.compile(overrides).bundle)
        let strict = TestSupport.compile(overrides, strict: true)
        XCTAssertNil(strict.bundle)
        XCTAssertEqual(strict.log.diagnostics.first?.code, .badValue)
    }

    /// Inverted and headway-less windows are dropped; overlapping ones are kept (every start,
    /// the shared ones once: 08:00 to 08:50, six instants here) and noted.
    func testInvertedFrequenciesAreDroppedAndOverlappingOnesKept() {
        let result = TestSupport.compile([
            "frequencies.txt":
                "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,09:00:00,600\nT1,08:00:00,10:00:00,600\nT1,12:00:00,11:00:00,600\nT1,13:00:00,14:00:00,0\n"
        ])
        XCTAssertEqual(result.log.countsByCode[.badFrequency], 2)
        XCTAssertEqual(result.log.countsByCode[.frequencyOverlap], 1)
        // Two windows starting together: the first row wins (the bundle keys windows by start).
        let twice = TestSupport.compile([
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,07:00:00,600\nT1,06:00:00,07:00:00,600\n"
        ])
        XCTAssertNotNil(twice.bundle, twice.log.summaryText())
        XCTAssertEqual(twice.log.countsByCode[.badFrequency], 1)
        XCTAssertTrue(
            result.log.diagnostics.contains {
                $0.code == .frequencyOverlap && $0.message.contains("6 start instant(s) both produce count once")
            })
        XCTAssertNotNil(result.bundle)
    }

    func testBadParentStationAndTimezone() {
        let stops =
            "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\nS1,One,48.0,7.0,0,S2\nS2,Two,48.01,7.01,0,\nS3,Three,48.02,7.02,0,GONE\n"
        XCTAssertEqual(TestSupport.compile(["stops.txt": stops]).log.countsByCode[.badParentStation], 2)
        let agency = "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Mars/Pluto\n"
        let result = TestSupport.compile(["agency.txt": agency])
        XCTAssertNil(result.bundle)
        XCTAssertEqual(codes(result.log), [.badTimezone, .noTimezone])
    }

    // MARK: - Zip archives

    private func compileZip(_ name: String) -> (DiagnosticLog, Bool) {
        let (log, bundle) = compileZipToBundle(name)
        return (log, bundle != nil)
    }

    private func compileZipToBundle(_ name: String) -> (DiagnosticLog, String?) {
        let log = DiagnosticLog()
        let output = TemporaryFolders.make().appendingPathComponent("z.db").path
        let ok =
            (try? Compiler.compile(
                CompileRequest(feeds: [.init(name: "z", path: TestSupport.zips + "/" + name)], outputPath: output), log: log)) != nil
        return (log, ok ? output : nil)
    }

    /// Every trip of a bundle as text: id, start, and each stop's sequence, id and offsets.
    private func trips(_ path: String) throws -> [String] {
        try BundleDump(path: path).trips.flatMap { trip in
            zip(trip.stops, trip.stopIDs).map { stop, stopID in
                "\(trip.tripID) \(trip.record.startTime) \(stop.stopSequence) \(stopID) \(stop.arrivalOffset) \(stop.departureOffset)"
            }
        }
    }

    func testZipVariantsCompileToTheSameTrips() throws {
        let folder = TemporaryFolders.make().appendingPathComponent("folder.db").path
        _ = try Compiler.compile(CompileRequest(feeds: [.init(name: "z", path: TestSupport.samples + "/metro")], outputPath: folder))
        let expected = try trips(folder)
        XCTAssertEqual(Set(expected.map { $0.split(separator: " ")[0] }).count, 9, "the metro sample's 9 usable trips")
        for name in ["stored.zip", "deflated.zip", "data-descriptor.zip", "zip64.zip", "in-folder.zip", "unsafe-paths.zip"] {
            let (log, bundle) = compileZipToBundle(name)
            let path = try XCTUnwrap(bundle, "\(name): \(log.summaryText())")
            XCTAssertEqual(try trips(path), expected, name)
        }
        let (folderLog, _) = compileZip("in-folder.zip")
        XCTAssertTrue(folderLog.diagnostics.contains { $0.code == .unknownFile && $0.file == "metro-2026/notes/readme.txt" })
        XCTAssertFalse(folderLog.diagnostics.contains { $0.file?.contains("__MACOSX") == true }, "__MACOSX is skipped silently")
        let (unsafeLog, _) = compileZip("unsafe-paths.zip")
        XCTAssertEqual(unsafeLog.diagnostics.filter { $0.message.contains("unsafe path") }.count, 2)
    }

    func testDamagedZipsEndInAnArchiveError() {
        for name in ["bomb.zip", "size-too-small.zip", "size-too-large.zip", "not-a-zip.zip", "truncated.zip"] {
            let (log, ok) = compileZip(name)
            XCTAssertFalse(ok, name)
            XCTAssertTrue(log.diagnostics.contains { $0.code == .unreadableArchive }, "\(name): \(log.summaryText())")
        }
    }
}
