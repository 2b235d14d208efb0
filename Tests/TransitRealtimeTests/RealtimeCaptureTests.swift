import Foundation
import GTFSCompiler
import TestKit
import TestSupport
import TransitRuntime
import XCTest

@testable import TransitRealtime

/// The real captures of ../shared/realtime (Caltrain, BART) matched against bundles of
/// their static feeds: every trip update is matched or its miss explained, and each
/// predicted departure on a board equals the capture's time, read independently from the
/// capture's JSON rendering (not through the protobuf decoder).
final class RealtimeCaptureTests: XCTestCase {
    private static let bundles = Locked<[String: String]>([:])

    /// The bundle of a static feed, compiled once per run.
    private func bundle(_ feed: String, _ zip: URL) throws -> TransitBundle {
        let path = try Self.bundles.withLock { cache -> String in
            if let path = cache[feed] { return path }
            let path = TemporaryFolders.make().appendingPathComponent("\(feed).db").path
            _ = try Compiler.compile(CompileRequest(feeds: [.init(name: feed, path: zip.path)], outputPath: path))
            cache[feed] = path
            return path
        }
        return try TransitBundle(path: path)
    }

    private func json(_ url: URL) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    private func check(feed: String, staticZip: URL, capture: URL) throws -> RealtimeReport {
        let bundle = try bundle(feed, staticZip)
        let message = try RealtimeMessage(contentsOf: capture.path)
        let snapshot = try RealtimeSnapshot(messages: [message], bundle: bundle)
        let report = snapshot.report
        let missedTrips = Set(report.unmatched.filter { $0.stopID == nil && $0.stopSequence == nil }.map(\.entityID))
        XCTAssertEqual(report.tripUpdatesMatched + missedTrips.count, report.tripUpdates, "each trip update matched or explained")
        XCTAssertEqual(
            report.stopTimeUpdates,
            report.stopTimeUpdatesMatched + report.unmatched.filter { $0.stopSequence != nil }.count
                + snapshotSkippedStops(report, missedTrips, capture))

        // The independent reading: the capture's JSON, each stop's departure time.
        let document = try json(URL(fileURLWithPath: capture.path + ".json"))
        let now = message.timestamp
        var compared = 0
        for entity in try XCTUnwrap(document["entity"] as? [[String: Any]]) {
            guard let id = entity["id"] as? String, !missedTrips.contains(id),
                let update = entity["tripUpdate"] as? [String: Any], let trip = update["trip"] as? [String: Any],
                let tripID = trip["tripId"] as? String
            else { continue }
            // In stop_sequence order; `latest` is the latest time the message gave before each stop.
            let stopUpdates = (update["stopTimeUpdate"] as? [[String: Any]] ?? []).sorted {
                ($0["stopSequence"] as? Int ?? 0) < ($1["stopSequence"] as? Int ?? 0)
            }
            var latest = TimeInterval(-Double.greatestFiniteMagnitude)
            for stopUpdate in stopUpdates {
                let times = ["arrival", "departure"].compactMap {
                    ((stopUpdate[$0] as? [String: Any])?["time"] as? String).flatMap(TimeInterval.init)
                }
                defer { latest = max(latest, times.max() ?? latest) }
                guard let stop = stopUpdate["stopId"] as? String, let departure = stopUpdate["departure"] as? [String: Any],
                    let text = departure["time"] as? String, let time = TimeInterval(text)
                else { continue }
                let instant = Date(timeIntervalSince1970: time)
                let from = QueryTime.instant(instant.addingTimeInterval(-7200))
                let offline = try bundle.departures(from: stop, at: from, within: 14_400, limit: 10_000)
                // Its last stop has no departure; an update whose stop_sequence is another stop in
                // the timetable (BART's message is for another version) is not applied.
                guard let scheduled = offline.first(where: { $0.tripID == tripID }),
                    scheduled.stopSequence == stopUpdate["stopSequence"] as? Int
                else { continue }
                let live = try bundle.departures(from: stop, at: from, within: 14_400, limit: 10_000, realtime: snapshot, now: now)
                XCTAssertTrue(live.realtimeApplied, live.notApplied ?? "")
                let calls = live.departures.filter { $0.scheduled.tripID == tripID }
                XCTAssertEqual(calls.count, 1, "\(feed) trip \(tripID) at \(stop)")
                guard let call = calls.first, let predicted = call.predictedDeparture else {
                    XCTFail("\(feed) trip \(tripID) at \(stop): no prediction")
                    continue
                }
                XCTAssertEqual(call.state, .updated)
                if latest <= (times.min() ?? time) {
                    XCTAssertEqual(predicted, instant, "\(feed) trip \(tripID) at \(stop)")
                } else {
                    // The message runs backwards here: the prediction is raised, never lowered.
                    XCTAssertGreaterThanOrEqual(predicted, instant, "\(feed) trip \(tripID) at \(stop)")
                    XCTAssertGreaterThan(report.clamps, 0)
                }
                XCTAssertEqual(call.delay, predicted.timeIntervalSince(call.scheduled.departure))
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 10, "\(feed): predictions compared")
        return report
    }

    /// Stop time updates of trips not matched are not counted as matched stops.
    private func snapshotSkippedStops(_ report: RealtimeReport, _ missed: Set<String>, _ capture: URL) -> Int {
        guard let document = try? json(URL(fileURLWithPath: capture.path + ".json")),
            let entities = document["entity"] as? [[String: Any]]
        else { return 0 }
        return entities.filter { missed.contains($0["id"] as? String ?? "") }.reduce(0) {
            $0 + (($1["tripUpdate"] as? [String: Any])?["stopTimeUpdate"] as? [Any] ?? []).count
        }
    }

    func testBartTripUpdatesWithoutStartDate() throws {
        let folder = try TestPaths.requireShared("realtime")
        let report = try check(
            feed: "bart", staticZip: folder.appendingPathComponent("bart-rt.zip"),
            capture: folder.appendingPathComponent("bart-trip-updates.pb"))
        XCTAssertEqual(report.tripUpdates, 91)
        print("bart:", report.tripUpdatesMatched, "matched,", Dictionary(grouping: report.unmatched, by: \.reason).mapValues(\.count))
    }

    /// The second and later messages on an open bundle read trip ids and stop lists from
    /// its caches: they must give what a freshly opened bundle gives.
    func testAMessageAppliedAgainOnAnOpenBundleGivesTheSameSnapshot() throws {
        let folder = try TestPaths.requireShared("realtime")
        let open = try bundle("bart", folder.appendingPathComponent("bart-rt.zip"))
        let message = try RealtimeMessage(contentsOf: folder.appendingPathComponent("bart-trip-updates.pb").path)
        func rendering(_ snapshot: RealtimeSnapshot) -> [String] {
            snapshot.trips.map { "\($0.key) \($0.value.state) \($0.value.calls) \($0.value.assignedStops)" }.sorted()
        }
        let first = try RealtimeSnapshot(messages: [message], bundle: open)
        let again = try RealtimeSnapshot(messages: [message], bundle: open)
        let fresh = try RealtimeSnapshot(messages: [message], bundle: try bundle("bart", folder.appendingPathComponent("bart-rt.zip")))
        XCTAssertGreaterThan(first.report.tripUpdatesMatched, 60)
        for other in [again, fresh] {
            XCTAssertEqual(other.report, first.report)
            XCTAssertEqual(rendering(other), rendering(first))
        }
        // The schedules matching read (from the caches, by now) against the trip as
        // `trip(_:on:)` reads it, stop by stop from the bundle's rows.
        for instance in first.trips.keys {
            let schedule = try open.tripSchedule(instance.tripID, on: instance.serviceDate)
            let trip = try open.trip(instance.tripID, on: instance.serviceDate)
            XCTAssertEqual(try schedule.sids.map { try open.stopID(sid: $0) }, trip.stopTimes.map(\.stopID), instance.tripID)
            XCTAssertEqual(schedule.stopSequences, trip.stopTimes.map(\.stopSequence), instance.tripID)
            XCTAssertEqual(schedule.departureSecs, trip.stopTimes.map(\.departureSecs), instance.tripID)
            XCTAssertEqual(try open.names(of: schedule).headsign, trip.headsign, instance.tripID)
            XCTAssertEqual(try open.names(of: schedule).routeID, trip.routeID, instance.tripID)
        }
        // After purge() the bundle reads everything again, and still agrees.
        open.purge()
        XCTAssertEqual(rendering(try RealtimeSnapshot(messages: [message], bundle: open)), rendering(first))
    }

    func testCaltrainTripUpdatesByStartDateAndSequence() throws {
        let folder = try TestPaths.requireShared("realtime")
        let feeds = try TestPaths.requireShared("feeds")
        let report = try check(
            feed: "ct", staticZip: feeds.appendingPathComponent("ct.zip"), capture: folder.appendingPathComponent("ct-trip-updates.pb"))
        XCTAssertEqual(report.tripUpdates, 19)
        print("ct:", report.tripUpdatesMatched, "matched,", Dictionary(grouping: report.unmatched, by: \.reason).mapValues(\.count))
    }
}
