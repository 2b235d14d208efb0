import Foundation
import TestSupport
import TransitRuntime
import XCTest

/// A range query with a budget of searches (`JourneyOptions.rangeSearches`) answers for the
/// start of its window: exactly what a query with the window ending at the first instant
/// left out answers, and that end is a departure the unbudgeted answer's window holds.
final class JourneyRangeBudgetTests: XCTestCase {
    func testABudgetAnswersForTheWindowUpToTheFirstInstantLeftOut() throws {
        let bundle = TestSupport.sampleBundle
        let at = try QueryTime.parse("2026-03-30T08:00")
        let start = try bundle.journeyRange(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at, within: 0).end
        let window: TimeInterval = 6 * 3600
        let whole = try bundle.journeyRange(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at, within: window)
        XCTAssertEqual(whole.end, start.addingTimeInterval(window), "no budget: the whole window")
        XCTAssertTrue(whole.isComplete)
        XCTAssertGreaterThan(whole.journeys.count, 3)
        var ends: [Date] = []
        for searches in 1...4 {
            let cut = try bundle.journeyRange(
                from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at, within: window,
                options: JourneyOptions(rangeSearches: searches))
            XCTAssertGreaterThan(cut.end, start, "\(searches) searches")
            XCTAssertLessThan(cut.end, whole.end, "\(searches) searches: the window holds more instants")
            XCTAssertFalse(cut.isComplete)
            XCTAssertEqual(cut.endLocal.description.prefix(10), "2026-03-30")
            let shorter = try bundle.journeys(
                from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at, within: cut.end.timeIntervalSince(start))
            XCTAssertEqual(cut.journeys, shorter, "\(searches) searches")
            XCTAssertTrue(cut.journeys.allSatisfy { $0.departure < cut.end })
            // The journeys of the whole window leaving before that end are the same.
            XCTAssertEqual(cut.journeys, whole.journeys.filter { $0.departure < cut.end }, "\(searches) searches")
            ends.append(cut.end)
        }
        XCTAssertEqual(ends, ends.sorted(), "a larger budget reaches farther")
        XCTAssertEqual(Set(ends).count, ends.count)
        XCTAssertThrowsError(
            try bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), options: JourneyOptions(rangeSearches: 0)))
    }
}
