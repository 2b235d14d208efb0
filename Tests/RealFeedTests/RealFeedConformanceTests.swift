import Foundation
import GTFSCompiler
import TestKit
import TransitRuntime
import XCTest

/// Every real feed compiles, keeps every valid stop_time, and answers departures exactly
/// as the independent `ReferenceTimetable` does, on ordinary days, on each DST change
/// day inside the feed's range, and in the hours just after midnight.
final class RealFeedConformanceTests: XCTestCase {
    func testEveryRealFeedCompilesAndKeepsEveryValidTrip() throws {
        try RealFeeds.requireShared()
        let sources = try RealFeeds.sources()
        XCTAssertEqual(RealFeeds.names.count, 24)
        for name in RealFeeds.names {
            let (_, summary, log) = try RealFeeds.bundle(name)
            let expected = try XCTUnwrap(sources[name], name)
            if name == "saskatoon" {
                // 307 trips without stop_times and 33 with an untimed first or last stop are dropped, each reported.
                XCTAssertEqual(log.countsByCode[.tooFewStops], 307)
                XCTAssertEqual(log.countsByCode[.missingEndpointTime], 33)
                XCTAssertEqual(summary.trips, expected.trips - 307 - 33)
            } else {
                XCTAssertEqual(summary.trips, expected.trips, name)
                XCTAssertEqual(summary.stopTimes, expected.stopTimes, name)
                XCTAssertEqual(log.errorCount, 0, name)
            }
        }
    }

    func testDeparturesAgreeWithTheReferenceReading() throws {
        try RealFeeds.requireShared()
        var total = 0
        for name in RealFeeds.names {
            let reference = try ReferenceTimetable(zip: RealFeeds.folder.appendingPathComponent(name + ".zip").path)
            let bundle = try RealFeeds.bundle(name).bundle
            let info = try bundle.info().feeds[0]
            var random = SplitMix64(state: UInt64(name.utf8.reduce(7) { $0 &* 31 &+ Int($1) }.magnitude))
            let stopIDs = reference.byStop.keys.sorted()
            var stops = (0..<12).map { _ in stopIDs[Int.random(in: 0..<stopIDs.count, using: &random)] }
            stops += reference.stops.filter { $0.value.type == 1 }.map(\.key).sorted().prefix(3)
            for day in try Self.days(info, reference.timeZone) {
                for hour in [0, 1, 2, 6, 8, 17, 23] {
                    var calendar = Calendar(identifier: .gregorian)
                    calendar.timeZone = reference.timeZone
                    guard let start = calendar.date(from: DateComponents(year: day.0, month: day.1, day: day.2, hour: hour, minute: 10))
                    else { continue }
                    let from = Int(start.timeIntervalSince1970)
                    for stop in stops {
                        for arrivals in [false, true] {
                            let expected = reference.calls(stop: stop, from: from, to: from + 90 * 60, arrivals: arrivals)
                            let board =
                                arrivals
                                ? try bundle.arrivals(to: [stop], at: .instant(start), within: 90 * 60, limit: 100_000)
                                : try bundle.departures(from: stop, at: .instant(start), within: 90 * 60, limit: 100_000)
                            let actual = board.map {
                                ReferenceTimetable.Departure(
                                    epoch: Int((arrivals ? $0.arrival : $0.departure).timeIntervalSince1970), stopID: $0.stopID,
                                    tripID: $0.tripID, serviceDate: $0.serviceDate.description, secs: $0.departureSecs,
                                    arrivalEpoch: Int($0.arrival.timeIntervalSince1970), sequence: $0.stopSequence,
                                    remaining: $0.stopsRemaining,
                                    direction: $0.directionID.map(String.init) ?? "", shortName: $0.tripShortName ?? "",
                                    timepoint: $0.timepoint)
                            }
                            XCTAssertEqual(actual, expected, "\(name) \(stop) \(day) \(hour):10 \(arrivals ? "arrivals" : "departures")")
                            total += expected.count
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(total, 10_000, "the comparison saw real departures (about 20,000 across the 24 feeds)")
    }

    /// A week day inside the range, the last day, and every day the clocks change.
    static func days(_ feed: BundleInfo.Feed, _ zone: TimeZone) throws -> [(Int, Int, Int)] {
        let first = try XCTUnwrap(feed.firstServiceDate).description
        let last = try XCTUnwrap(feed.lastServiceDate).description
        func parts(_ text: String) -> (Int, Int, Int) {
            let p = text.split(separator: "-").map { Int($0)! }
            return (p[0], p[1], p[2])
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let a = calendar.date(from: DateComponents(year: parts(first).0, month: parts(first).1, day: parts(first).2))!
        let b = calendar.date(from: DateComponents(year: parts(last).0, month: parts(last).1, day: parts(last).2))!
        var days = [calendar.date(byAdding: .day, value: 9, to: a)!, b]
        var probe = a
        while let change = zone.nextDaylightSavingTimeTransition(after: probe), change < b {
            days.append(change)
            probe = change
        }
        return days.map {
            let c = calendar.dateComponents([.year, .month, .day], from: $0)
            return (c.year!, c.month!, c.day!)
        }
    }

    func testDSTDaysNamedInTheIssueAreCovered() throws {
        try RealFeeds.requireShared()
        let cts = try Self.days(try RealFeeds.bundle("cts-strasbourg").bundle.info().feeds[0], TimeZone(identifier: "Europe/Paris")!)
        XCTAssertTrue(cts.contains { $0 == (2026, 3, 29) })
        let mnr = try Self.days(try RealFeeds.bundle("mnr-metro-north").bundle.info().feeds[0], TimeZone(identifier: "America/New_York")!)
        XCTAssertTrue(mnr.contains { $0 == (2026, 11, 1) })
        // On the spring-forward day a time after the change matches the wall clock.
        let board = try RealFeeds.bundle("cts-strasbourg").bundle.departures(
            from: "HOFER_04", at: try QueryTime.parse("2026-03-29T08:00"), limit: 1)
        XCTAssertEqual(board.first?.departureTime, "2026-03-29T08:00:00+02:00")
    }

    /// Every trip of the feeds with untimed stop_times (interpolated, departures-semantics.md
    /// "Untimed stops") against the reference's own interpolation: all of them, not a sample,
    /// so that a changed measure or rounding cannot hide.
    func testEveryTripWithInterpolatedTimesIsRebuiltExactly() throws {
        try RealFeeds.requireShared()
        var compared = 0
        for name in ["cairns", "island-transit", "saskatoon"] {
            guard RealFeeds.names.contains(name) else { throw TestPaths.missing("needs the real feed \(name)") }
            let reference = try ReferenceTimetable(zip: RealFeeds.folder.appendingPathComponent(name + ".zip").path)
            let bundle = try RealFeeds.bundle(name).bundle
            let date = try XCTUnwrap(bundle.info().feeds[0].firstServiceDate)
            for id in reference.interpolatedTrips.sorted() where reference.frequencies[id] == nil {
                let expected = try XCTUnwrap(reference.trips[id]).stopTimes
                let actual = try bundle.trip(id, on: date).stopTimes
                XCTAssertEqual(actual.map(\.arrivalSecs), expected.map(\.arrival), "\(name) \(id)")
                XCTAssertEqual(actual.map(\.departureSecs), expected.map(\.departure), "\(name) \(id)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 100, "trips with interpolated stops compared")
    }

    func testTripsAreRebuiltExactly() throws {
        try RealFeeds.requireShared()
        // saskatoon and trimet-2routes mark most stops timepoint 0.
        for name in ["cts-strasbourg", "saskatoon", "cdmx-mexico-city", "sncf-intercites", "trimet-2routes"] {
            let reference = try ReferenceTimetable(zip: RealFeeds.folder.appendingPathComponent(name + ".zip").path)
            let bundle = try RealFeeds.bundle(name).bundle
            let date = try XCTUnwrap(bundle.info().feeds[0].firstServiceDate)
            var random = SplitMix64(state: 42)
            let ids = reference.trips.keys.sorted()
            for _ in 0..<200 {
                let id = ids[Int.random(in: 0..<ids.count, using: &random)]
                let expected = reference.trips[id]!.stopTimes
                let actual = try bundle.trip(id, on: date).stopTimes
                XCTAssertEqual(actual.map(\.stopID), expected.map(\.stop), "\(name) \(id)")
                XCTAssertEqual(actual.map(\.stopSequence), expected.map(\.sequence), "\(name) \(id)")
                XCTAssertEqual(actual.map(\.timepoint), expected.map(\.timepoint), "\(name) \(id): timepoints")
                if reference.frequencies[id] == nil {
                    XCTAssertEqual(actual.map(\.arrivalSecs), expected.map(\.arrival), "\(name) \(id)")
                    XCTAssertEqual(actual.map(\.departureSecs), expected.map(\.departure), "\(name) \(id)")
                }
            }
        }
    }
}
