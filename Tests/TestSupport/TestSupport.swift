import BundleFormat
import Foundation
import GTFSCompiler
import TestKit
import TransitRuntime
import TransitSQLite
import XCTest

/// Paths and helpers shared by the unit tests.
package enum TestSupport {
    package static var samples: String { TestPaths.repository.appendingPathComponent("gtfs-samples").path }
    package static var zips: String { TestPaths.repository.appendingPathComponent("Tests/Fixtures/zips").path }

    /// The sample bundle (metro + valley + cities), compiled once per test run.
    package static let sampleBundlePath: String = {
        let path = TemporaryFolders.make().appendingPathComponent("samples.db").path
        let request = CompileRequest(
            feeds: [.init(name: "metro", path: samples + "/metro"), .init(name: "valley", path: samples + "/valley")],
            citiesPath: samples + "/cities.json", outputPath: path)
        _ = try! Compiler.compile(request)
        return path
    }()

    package static let sampleBundle: TransitBundle = try! TransitBundle(path: sampleBundlePath)

    /// A copy of the sample bundle in a new folder, edited by `sql` (a crafted bundle).
    package static func sampleBundleCopy(editedBy sql: String) throws -> String {
        let path = TemporaryFolders.make().appendingPathComponent("edited.db").path
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: path)
        let db = try SQLiteDatabase(path: path, writable: true)
        try addEmptyOptionalTables(to: db)
        try db.execute(sql)
        return path
    }

    /// Makes every optional table `db` lacks, empty, as a patch may leave them (a crafted
    /// edit then has them to write into).
    package static func addEmptyOptionalTables(to db: SQLiteDatabase) throws {
        for table in BundleSchema.optionalTables.sorted() {
            if try db.hasTable(table) { continue }
            for sql in BundleSchema.createStatements(of: table) { try db.execute(sql) }
        }
    }

    /// Each copy of the sample bundle edited by a case's `sql` (a crafted planner table)
    /// opens, then refuses its first journey as a damaged bundle whose reason contains the
    /// case's `reason`: never an answer, a trap or another error.
    package static func assertFirstJourneyRefuses(
        _ cases: [(sql: String, reason: String)], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (from, to) = (JourneyPlace.stop("CENTRAL_1", feed: "metro"), JourneyPlace.stop("AIRPORT", feed: "metro"))
        for (sql, reason) in cases {
            let bundle = try TransitBundle(path: try sampleBundleCopy(editedBy: sql))
            do {
                _ = try bundle.journeys(from: from, to: to, departingAt: .local(LocalDate("2026-11-11")!, secondsOfDay: 8 * 3600))
                XCTFail("\(sql): answered", file: file, line: line)
            } catch TransitError.corruptBundle(let why) {
                XCTAssertTrue(why.contains(reason), "\(sql): \(why)", file: file, line: line)
            } catch {
                XCTFail("\(sql): \(error)", file: file, line: line)
            }
        }
    }

    /// Writes a feed folder from file name -> CSV text.
    package static func writeFeed(_ files: [String: String], in directory: URL) -> String {
        for (name, text) in files {
            try! Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory.path
    }

    /// A minimal valid feed; tests override single files to make one problem.
    package static let minimalFeed: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.org,Europe/Paris\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,48.0,7.0\nS2,Two,48.01,7.01\nS3,Three,48.02,7.02\n",
        "routes.txt": "route_id,route_short_name,route_type\nR,1,3\n",
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20261231\n",
        "trips.txt": "route_id,service_id,trip_id\nR,D,T1\nR,D,T2\n",
        "stop_times.txt":
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT1,08:20:00,08:20:00,S3,3\nT2,09:00:00,09:00:00,S1,1\nT2,09:10:00,09:10:00,S2,2\n",
    ]

    /// Compiles a feed made of `minimalFeed` with `overrides`; returns the log and, on success, the bundle path.
    package static func compile(_ overrides: [String: String?], strict: Bool = false) -> (log: DiagnosticLog, bundle: String?) {
        var files = minimalFeed
        for (name, text) in overrides { files[name] = text }
        let directory = TemporaryFolders.make()
        let feedDirectory = directory.appendingPathComponent("feed")
        try! FileManager.default.createDirectory(at: feedDirectory, withIntermediateDirectories: true)
        _ = writeFeed(files.compactMapValues { $0 }, in: feedDirectory)
        let output = directory.appendingPathComponent("out.db").path
        let log = DiagnosticLog()
        do {
            _ = try Compiler.compile(
                CompileRequest(feeds: [.init(name: "f", path: feedDirectory.path)], outputPath: output, strict: strict), log: log)
            return (log, output)
        } catch {
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "a failed compile must not leave a bundle")
            return (log, nil)
        }
    }
}
