import Foundation
import TestKit
import TestSupport
import TransitRuntime
import TransitStore
import XCTest

/// What a saved-cities screen reads from the manifest through `Catalogue.Entry`: the
/// transfer size, whether this runtime can open the bundle, its feeds and where it lies;
/// and the store's lists as labelled, hashable values.
final class StoreCatalogueTests: XCTestCase {
    func testAnEntryCarriesWhatACitiesScreenShows() async throws {
        let site = try StoreFixture()
        let store = try site.store()
        let catalogue = try await store.refreshCatalogue(from: site.server.url("v1.json"))
        // The manifest read as plain JSON, beside the library's reading of it.
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: site.site.appendingPathComponent("v1.json"))) as? [String: Any])
        let listed = try XCTUnwrap((json["bundles"] as? [[String: Any]])?.first { $0["id"] as? String == "metro" })
        let metro = try XCTUnwrap(catalogue.entry("metro"))
        XCTAssertEqual(metro.downloadBytes, (listed["gzip_bytes"] as? NSNumber)?.int64Value)
        XCTAssertLessThan(try XCTUnwrap(metro.downloadBytes), metro.bytes, "gzip makes a bundle smaller")
        XCTAssertEqual(metro.schemaVersion, listed["schema_version"] as? Int)
        XCTAssertTrue(metro.isReadableByThisRuntime)
        XCTAssertEqual(metro.feeds.map(\.feedID), ["metro"])
        XCTAssertEqual(metro.feeds.first?.coverage, metro.coverage)
        // Who to credit, before the download (gtfs-samples/metro/feed_info.txt and attributions.txt).
        XCTAssertEqual(metro.feeds.first?.publisherName, "Transit toolkit samples")
        XCTAssertEqual(
            metro.feeds.first?.attributions,
            [
                Attribution(organizationName: "Transit toolkit samples", isProducer: true, url: "https://example.org/samples"),
                Attribution(organizationName: "Metro Operations", isOperator: true, url: "https://example.org/metro"),
            ])
        let listedFeed = try XCTUnwrap((listed["feeds"] as? [[String: Any]])?.first)
        XCTAssertEqual(
            (listedFeed["attributions"] as? [[String: Any]])?.map { $0["organization_name"] as? String },
            ["Transit toolkit samples", "Metro Operations"])
        // Zürich Hauptbahnhof (gtfs-samples/metro/stops.txt) is inside; Lisbon is not.
        let box = try XCTUnwrap(metro.boundingBox)
        XCTAssertTrue(box.contains(Coordinate(latitude: 47.37790, longitude: 8.54030)))
        XCTAssertFalse(box.contains(Coordinate(latitude: 38.72, longitude: -9.14)))
        let both = try XCTUnwrap(catalogue.entry("both"))
        XCTAssertEqual(Set(both.feeds.map(\.feedID)), ["metro", "valley"])

        // A bundle of a schema this runtime does not read is marked, not hidden.
        var newer = json
        newer["bundles"] = (json["bundles"] as? [[String: Any]])?.map { entry -> [String: Any] in
            var entry = entry
            entry["schema_version"] = TransitBundle.supportedSchemaVersion + 1
            return entry
        }
        try JSONSerialization.data(withJSONObject: newer).write(to: site.site.appendingPathComponent("newer.json"))
        let later = try await store.refreshCatalogue(from: site.server.url("newer.json"))
        XCTAssertEqual(later.bundles.filter(\.isReadableByThisRuntime).count, 0)
        XCTAssertEqual(later.entry("metro")?.schemaVersion, TransitBundle.supportedSchemaVersion + 1)
    }

    func testPendingJobsAreLabelledValues() async throws {
        let site = try StoreFixture()
        let store = try site.store()
        try await store.refreshCatalogue(from: site.server.url("v1.json"))
        try await store.setPreferences(StorePreferences(autoUpdate: false))
        // The file answers after 3 s: the job is still running when it is paused.
        try await site.server.inject(["path": "/valley.db", "delay": 3.0, "times": 1])
        let job = try await store.download("valley", explicit: true)
        try await store.pause("valley")
        _ = await job.finished()
        let pending = try await store.pendingJobs()
        XCTAssertEqual(pending, [PendingJob(id: "valley", explicit: true, paused: true)])
        XCTAssertEqual(Set([JobState.paused, .paused, .done]).count, 2, "job states are Hashable")
    }
}
