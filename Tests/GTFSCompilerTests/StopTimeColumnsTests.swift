import TestKit
import TestSupport
import XCTest

@testable import GTFSCompiler

/// The compact stop_times columns read back what a plain array per row would hold.
final class StopTimeColumnsTests: XCTestCase {
    /// Rows of random trips in runs (grouped files, shuffled files, a trip coming back),
    /// seeded (`TEST_SEED` replays): every row's trip and every trip's rows in file order.
    func testTripRunsGiveEachRowItsTrip() {
        let seed = SplitMix64.testSeed(0x5EED_0071)
        var rng = SplitMix64(state: seed)
        for _ in 0..<200 {
            var runs = TripRuns()
            var plain: [Int32] = []
            let rows = Int(rng.next() % 300)
            var trip = Int32(rng.next() % 20)
            for _ in 0..<rows {
                if rng.next() % 4 == 0 { trip = Int32(rng.next() % 20) }
                runs.append(trip)
                plain.append(trip)
            }
            XCTAssertEqual(runs.rowCount, plain.count, "TEST_SEED=\(seed)")
            var rebuilt: [Int32] = []
            for (run, trip) in runs.trips.enumerated() {
                rebuilt += runs.rows(ofRun: run).map { _ in trip }
                XCTAssertFalse(runs.rows(ofRun: run).isEmpty, "TEST_SEED=\(seed)")
            }
            XCTAssertEqual(rebuilt, plain, "TEST_SEED=\(seed)")
            XCTAssertTrue(zip(runs.trips, runs.trips.dropFirst()).allSatisfy { $0 != $1 }, "a run ends where the trip changes")
        }
    }

    /// Lines with random gaps (dropped rows, blank lines, quoted fields over several lines).
    func testRowLinesGiveEachRowItsLine() {
        let seed = SplitMix64.testSeed(0x5EED_0072)
        var rng = SplitMix64(state: seed)
        for _ in 0..<200 {
            var lines = RowLines()
            var plain: [Int32] = []
            var line: Int32 = 2
            for _ in 0..<Int(rng.next() % 500) {
                line += rng.next() % 5 == 0 ? Int32(rng.next() % 4) + 2 : 1
                lines.append(line)
                plain.append(line)
            }
            XCTAssertEqual(lines.count, plain.count)
            XCTAssertEqual((0..<plain.count).map { lines[$0] }, plain, "TEST_SEED=\(seed)")
        }
    }

    /// A feed whose stop_times rows are not grouped by trip compiles to the same trips as
    /// the same rows grouped, and its diagnostics name the same lines.
    func testAnUngroupedFileReadsLikeAGroupedOne() throws {
        let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        let grouped =
            header + "T1,08:00:00,08:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT1,08:20:00,08:20:00,S3,3\n"
            + "T2,09:00:00,09:00:00,S1,1\nT2,09:10:00,09:10:00,S2,2\nT2,09:20:00,09:20:00,S3,2\n"
        let mixed =
            header + "T2,09:00:00,09:00:00,S1,1\nT1,08:10:00,08:10:00,S2,2\nT2,09:10:00,09:10:00,S2,2\n"
            + "T1,08:00:00,08:00:00,S1,1\nT2,09:20:00,09:20:00,S3,2\nT1,08:20:00,08:20:00,S3,3\n"
        var dumps: [String] = []
        var lines: [[Int?]] = []
        for text in [grouped, mixed] {
            let (log, path) = TestSupport.compile(["stop_times.txt": text])
            dumps.append(try BundleDump(path: XCTUnwrap(path)).trips.map { "\($0.tripID) \($0.stopIDs)" }.joined(separator: "; "))
            lines.append(log.diagnostics.filter { $0.code == .badSequence }.map(\.line))
        }
        XCTAssertEqual(dumps[0], dumps[1])
        XCTAssertEqual(lines[0], [7], "T2's repeated stop_sequence 2 is line 7 of the grouped file")
        XCTAssertEqual(lines[1], [6], "and line 6 of the mixed one")
    }
}
