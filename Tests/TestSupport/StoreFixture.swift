import Foundation
import GTFSCompiler
import TestKit
import TransitStore

/// A download site for the store's tests, served by `FaultServer`: bundles compiled from the
/// samples and their manifests.
///
/// - `metro-1.db` (id metro), `metro-2.db` (id metro, the next version, compiled with
///   --base), `metro-1-2.patch`, `valley.db` (id valley), `both.db` (id both)
/// - `v1.json`: metro-1, valley, both; `v2.json`: metro-2 with the patch, valley, both;
///   `v2-full.json`: metro-2 without a patch.
package final class StoreFixture: @unchecked Sendable {
    package let site: URL
    package let server: FaultServer

    package init() throws {
        let site = TemporaryFolders.make()
        self.site = site
        func path(_ name: String) -> String { site.appendingPathComponent(name).path }
        let samples = TestSupport.samples
        try Self.compile([.init(name: "metro", path: samples + "/metro")], id: "metro", to: site.appendingPathComponent("metro-1.db"))
        try Self.compile(
            [.init(name: "metro", path: try TestFeeds.metroNextVersion())], id: "metro", to: site.appendingPathComponent("metro-2.db"),
            base: site.appendingPathComponent("metro-1.db").path)
        _ = try BundleDiff.write(
            old: path("metro-1.db"), new: path("metro-2.db"), to: path("metro-1-2.patch"))
        try Self.compile([.init(name: "valley", path: samples + "/valley")], id: "valley", to: site.appendingPathComponent("valley.db"))
        try Self.compile(
            [.init(name: "metro", path: samples + "/metro"), .init(name: "valley", path: samples + "/valley")], id: "both",
            to: site.appendingPathComponent("both.db"))
        try BundleManifest(bundles: [path("metro-1.db"), path("valley.db"), path("both.db")]).write(to: path("v1.json"))
        try BundleManifest(bundles: [path("metro-2.db"), path("valley.db"), path("both.db")], patches: [path("metro-1-2.patch")])
            .write(to: path("v2.json"))
        try BundleManifest(bundles: [path("metro-2.db"), path("valley.db"), path("both.db")]).write(to: path("v2-full.json"))
        server = try FaultServer(serving: site)
    }

    package func path(_ name: String) -> String { site.appendingPathComponent(name).path }

    package func bytes(_ name: String) -> Int64 { Int64((try? Data(contentsOf: site.appendingPathComponent(name)))?.count ?? 0) }

    /// A store in a new folder (or `folder`), with short time-outs and retry pauses, on the
    /// default transport (`HTTPClientTransport` on Linux) or on URLSession.
    package func store(in folder: URL? = nil, timeout: Double = 5, retries: Int = 3, urlSession: Bool = false) throws -> BundleStore {
        let transport: any StoreTransport =
            urlSession ? URLSessionTransport(timeout: timeout) : BundleStore.defaultTransport(timeout: timeout)
        return try BundleStore(
            directory: (folder ?? TemporaryFolders.make()).path, transport: transport,
            retries: RetryPolicy(limit: retries, firstPause: 0.05, maxPause: 0.2))
    }

    private static func compile(_ feeds: [CompileRequest.Feed], id: String, to output: URL, base: String? = nil) throws {
        var request = CompileRequest(feeds: feeds, outputPath: output.path)
        request.bundleID = id
        request.basePath = base
        _ = try Compiler.compile(request)
    }
}
