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

/// A live board takes what an offline one takes: a `Stop` value or a `StopRef`, and
/// answers as the text id does.
extension RealtimeRuleTests {
    func testLiveBoardsTakeStopValuesAndReferences() async throws {
        let message = try message("2026-03-10T07:55", [update("T1", date: "20260310", [(2, "S2", 120, false)])])
        let now = try instant("2026-03-10T07:56")
        let snapshot = try await RealtimeSnapshot(messages: [message], bundle: bundle, now: now)
        let at = try QueryTime.parse("2026-03-10T07:55")
        let byID = try { try self.bundle.departures(from: "S2", at: at, realtime: snapshot, now: now) }()
        XCTAssertEqual(byID.departures.first { $0.scheduled.tripID == "T1" }?.delay, 120)
        let stop = try await bundle.stop("S2")
        let ref = StopRef(feedID: stop.feedID, stopID: stop.stopID)
        XCTAssertEqual(try { try self.bundle.departures(from: stop, at: at, realtime: snapshot, now: now) }(), byID)
        XCTAssertEqual(try { try self.bundle.departures(from: ref, at: at, realtime: snapshot, now: now) }(), byID)
        let viaStop = try await bundle.departures(from: stop, at: at, realtime: snapshot, now: now)
        let viaRef = try await bundle.departures(from: ref, at: at, realtime: snapshot, now: now)
        XCTAssertEqual(viaStop, byID)
        XCTAssertEqual(viaRef, byID)
        let arrivals = try { try self.bundle.arrivals(to: ["S3"], at: at, realtime: snapshot, now: now) }()
        let s3 = try await bundle.stop("S3")
        XCTAssertEqual(try { try self.bundle.arrivals(to: s3, at: at, realtime: snapshot, now: now) }(), arrivals)
        let asyncArrivals = try await bundle.arrivals(
            to: StopRef(feedID: s3.feedID, stopID: s3.stopID), at: at, realtime: snapshot, now: now)
        XCTAssertEqual(asyncArrivals, arrivals)
    }
}
