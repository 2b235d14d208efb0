import BundleFormat
import Foundation
import TestSupport
import XCTest

@testable import TransitRealtime
@testable import TransitRuntime

/// A live trip keeps its calls as runs of consecutive calls with the same live data: each
/// call must still read as its own (the delays written out here from the rules of
/// docs/realtime-semantics.md, not from the code), and a board and a journey must apply
/// them call by call.
extension RealtimeRuleTests {
    func testCallsWithTheSameLiveDataReadAsTheirOwnFromOneRun() throws {
        // T1: 08:00 S1, 08:10 S2, 08:20 S3. A delay of 2 min at S1 holds for every later
        // call without its own update: the three calls are one run.
        let delayed = try RealtimeSnapshot(
            messages: [try message("2026-03-10T07:55", [update("T1", date: "20260310", [(1, nil, 120, false)])])], bundle: bundle)
        let t1 = try XCTUnwrap(delayed.trips.values.first)
        XCTAssertEqual(t1.calls.count, 1)
        for sequence in 1...3 {
            let call = try XCTUnwrap(t1.call(sequence), "stop_sequence \(sequence)")
            XCTAssertEqual([call.state], [.updated], "stop_sequence \(sequence)")
            XCTAssertEqual([call.arrivalDelay, call.departureDelay], [120, 120], "stop_sequence \(sequence)")
        }
        XCTAssertNil(t1.call(0))
        XCTAssertNil(t1.call(4))
        // The board at S2 shows 08:10 + 2 min.
        let s2 = try board("S2", "2026-03-10T08:00", delayed, now: "2026-03-10T07:56")
        let t1AtS2 = try XCTUnwrap(s2.departures.first { $0.scheduled.tripID == "T1" })
        XCTAssertEqual(t1AtS2.predictedDeparture, try instant("2026-03-10T08:12"))

        // L1: 09:00 S1 (1), 09:10 S2 (2), 09:20 S1 (3), 09:30 S3 (4). +1 min from stop 2,
        // stop 3 skipped: stop 1 keeps its schedule (no entry), stop 2 and stop 4 are +1 min
        // in runs of their own (the skipped call between them breaks the run).
        let skipped = try RealtimeSnapshot(
            messages: [
                try message("2026-03-10T08:55", [update("L1", date: "20260310", [(2, nil, 60, false), (3, nil, nil, true)])])
            ], bundle: bundle)
        let l1 = try XCTUnwrap(skipped.trips.values.first)
        XCTAssertEqual(l1.calls.count, 3)
        XCTAssertNil(l1.call(1))
        XCTAssertEqual(l1.call(2)?.state, .updated)
        XCTAssertEqual(l1.call(2)?.departureDelay, 60)
        XCTAssertEqual(l1.call(3)?.state, .skipped)
        XCTAssertEqual(l1.call(4)?.state, .updated)
        XCTAssertEqual(l1.call(4)?.arrivalDelay, 60)
        // Journeys read the same, by the index of each call in the trip's pattern, and in
        // the mirror (arrive-by searches) the same calls from the other end, delays negated
        // with arrival and departure swapped.
        let live = try XCTUnwrap(skipped.journeyLiveData(now: try instant("2026-03-10T08:56"), freshness: .init(), bundle: bundle))
        let l1Schedule = try bundle.tripSchedule("L1")
        let day = CivilDate(year: 2026, month: 3, day: 10)!.dayNumber
        let forward = try XCTUnwrap(live.times(tid: l1Schedule.tid, day: day, start: l1Schedule.base, mirrored: false))
        XCTAssertFalse(forward.cancelled)
        XCTAssertEqual((0..<4).map { live.arrivalDelay(forward, at: $0) }, [0, 60, 0, 60])
        XCTAssertEqual((0..<4).map { live.departureDelay(forward, at: $0) }, [0, 60, 0, 60])
        XCTAssertEqual((0..<4).map { live.skips(forward, at: $0) }, [false, false, true, false])
        let mirror = try XCTUnwrap(live.times(tid: l1Schedule.tid, day: day, start: -l1Schedule.base, mirrored: true))
        XCTAssertEqual((0..<4).map { live.arrivalDelay(mirror, at: $0) }, [-60, 0, -60, 0])
        XCTAssertEqual((0..<4).map { live.skips(mirror, at: $0) }, [false, true, false, false])
        XCTAssertNil(live.times(tid: l1Schedule.tid, day: day + 1, start: l1Schedule.base, mirrored: false))
    }
}
