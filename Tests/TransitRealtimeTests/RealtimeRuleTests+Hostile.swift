import Foundation
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// Messages that decode as valid protobuf but carry values no producer should send (docs:
/// "Messages" and "Alerts" in docs/realtime-semantics.md): each is a clean error or a report
/// entry, never a trap. A trap here would take down every app showing a live board.
extension RealtimeRuleTests {
    /// A message whose header time is `timestamp` (raw), with `entities`.
    private func raw(timestamp: UInt64, _ entities: [TransitRealtime_FeedEntity]) throws -> Data {
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = timestamp
        feed.entity = entities
        return try feed.serializedData()
    }

    private func alert(_ id: String, periods: [(start: UInt64?, end: UInt64?)]) -> TransitRealtime_FeedEntity {
        var entity = TransitRealtime_FeedEntity()
        entity.id = id
        entity.alert.informedEntity = [
            {
                var selector = TransitRealtime_EntitySelector()
                selector.stopID = "S1"
                return selector
            }()
        ]
        entity.alert.activePeriod = periods.map { period in
            var range = TransitRealtime_TimeRange()
            if let start = period.start { range.start = start }
            if let end = period.end { range.end = end }
            return range
        }
        return entity
    }

    func testHeaderTimesPastTheYear9999AreRefused() throws {
        for timestamp: UInt64 in [1 << 63, UInt64.max, UInt64(Int64.max), 253_402_300_800] {
            let data = try raw(timestamp: timestamp, [entity("e", update("T1", date: "20260310", [(1, "S1", 60, false)]))])
            XCTAssertThrowsError(try RealtimeMessage(data: data), "\(timestamp)") {
                XCTAssertEqual(
                    ($0 as? RealtimeError)?.description,
                    "not a GTFS-Realtime message: header timestamp \(timestamp) is not a time between 1970 and 9999")
            }
        }
        // The last second of 9999 is still a time.
        XCTAssertNoThrow(try RealtimeMessage(data: try raw(timestamp: 253_402_300_799, [])))
    }

    func testAlertPeriodsThatEndBeforeTheyStartAreReportedAndLeftOut() throws {
        let now = try instant("2026-03-10T08:00")
        let t = UInt64(now.timeIntervalSince1970)
        let entities = [
            alert("inverted", periods: [(t + 3600, t - 3600)]),
            alert("half", periods: [(t + 3600, t - 3600), (t - 60, t + 60)]),
            alert("far", periods: [(1 << 63, nil), (UInt64.max, UInt64.max)]),
            alert("open", periods: [(nil, UInt64.max)]),
        ]
        let message = try RealtimeMessage(data: try raw(timestamp: t, entities))
        let snapshot = try RealtimeSnapshot(messages: [message], bundle: bundle)
        XCTAssertEqual(snapshot.report.alerts, 4)
        XCTAssertEqual(
            snapshot.report.unmatched.map { "\($0.entityID) \($0.reason.rawValue) \($0.detail ?? "")" },
            [
                "inverted bad_time alert active_period 1 starts after it ends or is not a time",
                "half bad_time alert active_period 1 starts after it ends or is not a time",
                "far bad_time alert active_period 1 starts after it ends or is not a time",
                "far bad_time alert active_period 2 starts after it ends or is not a time",
            ])
        let board = try self.board("S1", "2026-03-10T07:55", snapshot, now: "2026-03-10T08:00")
        let shown = Set(board.departures.flatMap { $0.alerts.map(\.id) })
        XCTAssertEqual(shown, ["half", "open"], "alerts left with no valid period never apply")
    }

    func testEventTimesOutsideTheYears1970To9999AreReportedAndLeftOut() throws {
        var late = update("T1", date: "20260310", [(1, "S1", 60, false)])
        late.stopTimeUpdate[0].departure.time = Int64.max
        var early = update("L1", date: "20260310", [(1, "S1", 60, false)])
        early.stopTimeUpdate[0].arrival.time = Int64.min
        let snapshot = try RealtimeSnapshot(messages: [try message("2026-03-10T07:58", [late, early])], bundle: bundle)
        XCTAssertEqual(
            snapshot.report.unmatched.map { "\($0.tripID ?? "") \($0.reason.rawValue) \($0.detail ?? "")" },
            [
                "T1 bad_time departure time \(Int64.max) is not a time between 1970 and 9999",
                "L1 bad_time arrival time \(Int64.min) is not a time between 1970 and 9999",
            ])
        let t1 = try board("S1", "2026-03-10T07:55", snapshot, now: "2026-03-10T07:58").departures.first { $0.scheduled.tripID == "T1" }
        XCTAssertEqual(t1?.isRealtime, false, "the update with the absurd time was left out")
    }
}
