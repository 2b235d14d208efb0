import Foundation
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// The async forms of the snapshot and of the live boards and journeys answer as the
/// synchronous ones; a snapshot asked for by a cancelled task is not built.
extension RealtimeRuleTests {
    func testTheAsyncLiveFormsAnswerAsTheSynchronousOnes() async throws {
        let message = try message("2026-03-10T07:55", [update("T1", date: "20260310", [(2, "S2", 120, false)])])
        let now = try instant("2026-03-10T07:56")
        let snapshot = try await RealtimeSnapshot(messages: [message], bundle: bundle, now: now)
        let synchronous = try { try RealtimeSnapshot(messages: [message], bundle: self.bundle, now: now) }()
        XCTAssertEqual(snapshot.report, synchronous.report)
        XCTAssertEqual(snapshot.report.tripUpdatesMatched, 1)
        let at = try QueryTime.parse("2026-03-10T07:55")
        let board = try await bundle.departures(from: "S2", at: at, realtime: snapshot, now: now)
        XCTAssertEqual(board, try { try self.bundle.departures(from: "S2", at: at, realtime: snapshot, now: now) }())
        XCTAssertEqual(board.departures.first { $0.scheduled.tripID == "T1" }?.delay, 120)
        let arrivals = try await bundle.arrivals(to: ["S3"], at: at, realtime: snapshot, now: now)
        XCTAssertEqual(arrivals, try { try self.bundle.arrivals(to: ["S3"], at: at, realtime: snapshot, now: now) }())
        let journeys = try await bundle.journeys(from: .stop("S1"), to: .stop("S3"), departingAt: at, realtime: snapshot, now: now)
        XCTAssertFalse(journeys.isEmpty)
        XCTAssertEqual(
            journeys, try { try self.bundle.journeys(from: .stop("S1"), to: .stop("S3"), departingAt: at, realtime: snapshot, now: now) }())
    }

    func testASnapshotForACancelledTaskIsNotBuilt() async throws {
        let message = try message("2026-03-10T07:55", [update("T1", date: "20260310", [(2, "S2", 120, false)])])
        let bundle = bundle
        let task = Task { () async throws -> RealtimeSnapshot in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await RealtimeSnapshot(messages: [message], bundle: bundle)
        }
        do {
            _ = try await task.value
            XCTFail("a cancelled task got a snapshot")
        } catch is CancellationError {
        }
    }
}
