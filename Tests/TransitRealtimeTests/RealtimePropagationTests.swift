import Foundation
import TestSupport
import XCTest

@testable import TransitRealtime

/// The propagation rules of docs/realtime-semantics.md on hand-made trips, the GTFS-Realtime
/// reference's worked example first.
final class RealtimePropagationTests: XCTestCase {
    private typealias Call = DelayPropagation.ScheduledCall
    private typealias Update = DelayPropagation.CallUpdate

    /// A trip of `count` stops (sequence 1...count), one every 600 s, 60 s dwell.
    private func trip(_ count: Int) -> [Call] {
        (1...count).map { Call(stopSequence: $0, arrival: 1_000_000 + $0 * 600, departure: 1_000_060 + $0 * 600) }
    }

    private func delayed(_ index: Int, _ seconds: Int) -> Update {
        Update(index: index, relationship: .scheduled, arrival: .init(delay: seconds), departure: nil)
    }

    /// The reference's example: a 20-stop trip, delay 300 s at sequence 3, 60 s at 8, NO_DATA at 10.
    func testTheReferenceExample() {
        let schedule = trip(20)
        let (calls, clamps) = DelayPropagation.predict(
            schedule, [delayed(2, 300), delayed(7, 60), Update(index: 9, relationship: .noData)])
        XCTAssertEqual(clamps, 0)
        for (i, call) in calls.enumerated() {
            let sequence = i + 1
            switch sequence {
            case 1...2:
                XCTAssertEqual(call.state, .scheduled, "stop \(sequence): no propagation upstream")
                XCTAssertNil(call.departure)
            case 3...7:
                XCTAssertEqual(call.state, .updated, "stop \(sequence)")
                XCTAssertEqual(call.departureDelay, 300, "stop \(sequence)")
                XCTAssertEqual(call.arrival, schedule[i].arrival + 300)
            case 8...9:
                XCTAssertEqual(call.departureDelay, 60, "stop \(sequence)")
            default:
                XCTAssertEqual(call.state, .noData, "stop \(sequence): NO_DATA stops propagation")
                XCTAssertNil(call.departure)
            }
        }
    }

    func testSkippedStopsDoNotStopPropagation() {
        let (calls, _) = DelayPropagation.predict(trip(6), [delayed(1, 120), Update(index: 3, relationship: .skipped)])
        XCTAssertEqual(calls.map(\.state), [.scheduled, .updated, .updated, .skipped, .updated, .updated])
        XCTAssertEqual(calls[4].departureDelay, 120)
        XCTAssertEqual(calls[5].departureDelay, 120)
    }

    func testAnAbsoluteTimeGivesItsDelayAgainstTheSchedule() {
        let schedule = trip(3)
        let update = Update(
            index: 0, relationship: .scheduled, arrival: nil, departure: .init(time: schedule[0].departure + 95, uncertainty: 30))
        let (calls, _) = DelayPropagation.predict(schedule, [update])
        XCTAssertEqual(calls[0].departureDelay, 95)
        XCTAssertEqual(calls[0].uncertainty, 30)
        XCTAssertEqual(calls[2].arrival, schedule[2].arrival + 95, "propagated downstream")
    }

    func testADepartureWithoutArrivalUsesTheCarriedDelayForTheArrival() {
        let schedule = trip(3)
        let updates = [delayed(0, 60), Update(index: 1, relationship: .scheduled, departure: .init(delay: 200))]
        let (calls, _) = DelayPropagation.predict(schedule, updates)
        XCTAssertEqual(calls[1].arrivalDelay, 60)
        XCTAssertEqual(calls[1].departureDelay, 200)
    }

    func testPredictionsNeverRunBackwards() {
        let schedule = trip(4)
        // 300 s late at stop 2, then 400 s early at stop 3: stop 3 would arrive before stop 2 leaves.
        let (calls, clamps) = DelayPropagation.predict(schedule, [delayed(1, 300), delayed(2, -600)])
        XCTAssertGreaterThan(clamps, 0)
        XCTAssertEqual(calls[2].arrival, calls[1].departure, "raised to the departure before it")
        var last = Int.min
        for call in calls where call.state == .updated {
            XCTAssertGreaterThanOrEqual(call.arrival!, last)
            XCTAssertGreaterThanOrEqual(call.departure!, call.arrival!)
            last = call.departure!
        }
    }

    func testMessagesThatAreNotFullDatasetsOrNotProtobufAreRefused() throws {
        XCTAssertThrowsError(try RealtimeMessage(data: Data("this is not protobuf".utf8))) { error in
            guard case RealtimeError.notAMessage = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try RealtimeMessage(data: Data())) { error in
            guard case RealtimeError.notAMessage = error else { return XCTFail("\(error)") }
        }
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.incrementality = .differential
        XCTAssertThrowsError(try RealtimeMessage(data: feed.serializedData())) { XCTAssertEqual($0 as? RealtimeError, .differential) }
        feed.header.incrementality = .fullDataset
        feed.header.timestamp = 1_700_000_000
        XCTAssertEqual(try RealtimeMessage(data: feed.serializedData()).timestamp, Date(timeIntervalSince1970: 1_700_000_000))
        // Every prefix of a real message is refused or decoded; none crashes.
        let whole = try feed.serializedData()
        for n in 0..<whole.count { _ = try? RealtimeMessage(data: whole.prefix(n)) }
    }
}
