import Foundation
import TestKit
import TestSupport
import TransitCities
import TransitRuntime
import XCTest

/// The `async` twins of the queries, and `purge()`.
final class AsyncQueryTests: XCTestCase {
    func testAsyncQueriesAnswerAsTheirSynchronousTwins() async throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let at = try QueryTime.parse("2026-03-30T08:00")
        // A synchronous closure calls the synchronous query.
        let sync = try { try bundle.departures(from: "CENTRAL", at: at, within: 120 * 60) }()
        let async = try await bundle.departures(from: "CENTRAL", at: at, within: 120 * 60)
        XCTAssertFalse(sync.isEmpty)
        XCTAssertEqual(async, sync)
        let stops = try await bundle.stops(matching: "zurich")
        XCTAssertEqual(stops, try { try bundle.stops(matching: "zurich") }())
        let info = try await bundle.info()
        XCTAssertEqual(info, try { try bundle.info() }())
        let journeys = try await bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at)
        XCTAssertFalse(journeys.isEmpty)
        XCTAssertEqual(journeys, try { try bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at) }())
        let arriving = try await bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), arrivingBy: at)
        XCTAssertEqual(arriving, try { try bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), arrivingBy: at) }())
    }

    func testACancelledTaskGetsACancellationError() async throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let at = try QueryTime.parse("2026-03-30T08:00")
        let task = Task { () async throws -> [Departure] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await bundle.departures(from: "CENTRAL", at: at)
        }
        do {
            _ = try await task.value
            XCTFail("a cancelled task answered")
        } catch is CancellationError {
        }
    }

    /// A journey search stops between its rounds when its task is cancelled: the synchronous
    /// search, started inside a task cancelled before it, throws instead of answering (the
    /// async twin runs it in a task the caller's cancellation cancels; how fast it stops on
    /// a large bundle is `transit-bench cancel`).
    func testASearchInACancelledTaskStopsWithCancellationError() async throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let at = try QueryTime.parse("2026-03-30T08:00")
        let uncancelled = try {
            try bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at, within: 12 * 3600)
        }()
        XCTAssertFalse(uncancelled.isEmpty)
        for arriving in [false, true] {
            let task = Task { () throws -> [Journey] in
                withUnsafeCurrentTask { $0?.cancel() }
                return try {
                    arriving
                        ? try bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), arrivingBy: at)
                        : try bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at, within: 12 * 3600)
                }()
            }
            do {
                let answer = try await task.value
                XCTFail("a cancelled search answered \(answer.count) journeys (arriving: \(arriving))")
            } catch is CancellationError {
            }
        }
    }

    func testAStopHasItsCoordinate() throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let stop = try bundle.stop("CENTRAL")
        XCTAssertEqual(stop.coordinate, stop.latitude.flatMap { lat in stop.longitude.map { Coordinate(latitude: lat, longitude: $0) } })
        XCTAssertNotNil(stop.coordinate)
        XCTAssertNil(Stop(feedID: "f", stopID: "n", name: "Node").coordinate)
    }

    /// A `Stop` value, or its `id` ("feed/stop_id"), names the stop everywhere a text id does.
    func testAStopValueAndItsIDNameTheStop() throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let at = try QueryTime.parse("2026-03-30T08:00")
        let stop = try bundle.stop("CENTRAL_1", feed: "metro")
        XCTAssertEqual(stop.id, "metro/CENTRAL_1")
        XCTAssertEqual(try bundle.stop(stop.id), stop)
        let byText = try bundle.departures(from: "CENTRAL_1", feed: "metro", at: at)
        XCTAssertFalse(byText.isEmpty)
        XCTAssertEqual(try bundle.departures(from: stop.id, at: at), byText)
        XCTAssertEqual(try bundle.departures(from: stop, at: at), byText)
        XCTAssertEqual(try bundle.arrivals(to: stop, at: at), try bundle.arrivals(to: "CENTRAL_1", feed: "metro", at: at))
        XCTAssertThrowsError(try bundle.stop("nofeed/CENTRAL_1")) { error in
            XCTAssertEqual(error as? TransitError, .unknownStop("nofeed/CENTRAL_1"))
        }
    }

    func testAStopValueBoardOffTheCallerAnswersAsTheSynchronousOne() async throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let at = try QueryTime.parse("2026-03-30T08:00")
        let stop = try await bundle.stop("CENTRAL_1", feed: "metro")
        let board = try await bundle.departures(from: stop, at: at)
        XCTAssertFalse(board.isEmpty)
        XCTAssertEqual(board, try { try bundle.departures(from: stop, at: at) }())
        let arrivals = try await bundle.arrivals(to: stop, at: at)
        XCTAssertEqual(arrivals, try { try bundle.arrivals(to: stop, at: at) }())
    }

    /// The `Coordinate` forms answer as the latitude/longitude ones.
    func testCoordinateFormsAnswerAsLatitudeAndLongitude() async throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let point = Coordinate(latitude: 47.3667, longitude: 8.5450)
        let near = try { try bundle.stops(near: point, within: 800) }()
        XCTAssertFalse(near.isEmpty)
        XCTAssertEqual(near, try { try bundle.stops(near: Coordinate(latitude: 47.3667, longitude: 8.5450), within: 800) }())
        let nearAsync = try await bundle.stops(near: point, within: 800)
        XCTAssertEqual(nearAsync, near)
        let cities = try { try bundle.nearestCities(to: point, limit: 2) }()
        XCTAssertEqual(cities, try { try bundle.nearestCities(to: Coordinate(latitude: 47.3667, longitude: 8.5450), limit: 2) }())
        XCTAssertEqual(cities.first?.id, "zurich")
    }

    func testPurgeKeepsTheAnswers() throws {
        let bundle = try TransitBundle(path: TestSupport.sampleBundlePath)
        let at = try QueryTime.parse("2026-03-30T08:00")
        let before = try bundle.departures(from: "CENTRAL", at: at, within: 240 * 60)
        let line = try bundle.shape(trip: "T4_WK_0800")
        let journeys = try bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at)
        bundle.purge()
        XCTAssertEqual(try bundle.departures(from: "CENTRAL", at: at, within: 240 * 60), before)
        XCTAssertEqual(try bundle.shape(trip: "T4_WK_0800"), line)
        XCTAssertEqual(try bundle.journeys(from: .stop("CENTRAL"), to: .stop("TIEFENBRUNNEN"), departingAt: at), journeys)
    }
}
