import Foundation
import GTFSCompiler
import TestKit
import TransitStore

/// A download site on Debian's nginx for the offline-mode tests: bundles whose cities list
/// photos on the same server, and two manifests (before and after a weekly update).
///
/// - `metro-1.db`, `metro-2.db` (id metro; city "zurich" with five photos), `valley.db`,
///   `both.db` (metro and valley), `spare.db` (listed, then deleted: its download fails)
/// - `img/`: `hero.png`, `gallery.png`, `tram.png` (as listed), `late.png` (listed, missing
///   until `publishLatePhoto()`), `huge.png` (listed at 2,000 bytes, over 100 KB)
/// - `manifest.json`: v1 (metro-1, valley, both, spare); `publishUpdate()` puts v2 (metro-2) there
public final class OfflineSite: @unchecked Sendable {
    public let site: URL
    public let nginx: NginxServer
    public var manifestURL: URL { nginx.url("files/manifest.json") }

    /// The photos listed for zurich: name, pixel size, listed bytes (nil: the file's).
    static let photos: [(name: String, type: String, width: Int, height: Int)] = [
        ("hero.png", "hero", 64, 40), ("gallery.png", "gallery", 48, 48), ("tram.png", "attraction", 40, 30),
        ("late.png", "gallery", 32, 32), ("huge.png", "gallery", 400, 300),
    ]

    public init() throws {
        site = TemporaryFolders.make()
        nginx = try NginxServer(serving: site)
        let images = site.appendingPathComponent("img")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        var listed: [[String: Any]] = []
        for (index, photo) in Self.photos.enumerated() {
            let data = PNGImage.make(width: photo.width, height: photo.height, seed: UInt8(index + 1))
            if photo.name != "late.png" { try data.write(to: images.appendingPathComponent(photo.name)) }
            let size = photo.name == "huge.png" ? 2_000 : data.count
            listed.append([
                "id": "zurich-\(index)", "url": nginx.url("files/img/\(photo.name)").absoluteString, "type": photo.type,
                "width": photo.width, "height": photo.height, "size": size,
            ])
        }
        let cities: [String: Any] = [
            "version": 1,
            "cities": [
                [
                    "id": "zurich", "name": "Zürich", "country": "CH", "location": ["lat": 47.3769, "lng": 8.5417],
                    "timezone": "Europe/Zurich", "population": 421_878, "images": listed, "feeds": ["metro"],
                ] as [String: Any]
            ],
        ]
        let catalogue = site.appendingPathComponent("cities.json")
        try JSONSerialization.data(withJSONObject: cities).write(to: catalogue)
        let samples = TestSupport.samples
        func path(_ name: String) -> String { site.appendingPathComponent(name).path }
        try Self.compile([.init(name: "metro", path: samples + "/metro")], id: "metro", cities: catalogue.path, to: path("metro-1.db"))
        try Self.compile(
            [.init(name: "metro", path: try TestFeeds.metroNextVersion())], id: "metro", cities: catalogue.path, to: path("metro-2.db"))
        try Self.compile([.init(name: "valley", path: samples + "/valley")], id: "valley", to: path("valley.db"))
        try Self.compile(
            [.init(name: "metro", path: samples + "/metro"), .init(name: "valley", path: samples + "/valley")], id: "both",
            to: path("both.db"))
        try Self.compile([.init(name: "valley", path: samples + "/valley")], id: "spare", to: path("spare.db"))
        var v1 = try BundleManifest(bundles: [path("metro-1.db"), path("valley.db"), path("both.db"), path("spare.db")])
        v1.sequence = 1
        try v1.write(to: path("v1.json"))
        var v2 = try BundleManifest(bundles: [path("metro-2.db"), path("valley.db"), path("both.db")])
        v2.sequence = 2
        try v2.write(to: path("v2.json"))
        try FileManager.default.removeItem(atPath: path("spare.db"))
        try FileManager.default.copyItem(atPath: path("v1.json"), toPath: path("manifest.json"))
    }

    public func path(_ name: String) -> String { site.appendingPathComponent(name).path }

    /// The bytes of a file of the site.
    public func data(_ name: String) -> Data { (try? Data(contentsOf: site.appendingPathComponent(name))) ?? Data() }

    /// Puts manifest v2 (metro's next version) at `manifest.json`.
    public func publishUpdate() throws {
        try FileManager.default.removeItem(atPath: path("manifest.json"))
        try FileManager.default.copyItem(atPath: path("v2.json"), toPath: path("manifest.json"))
    }

    /// Puts the photo that was missing (404) in place.
    public func publishLatePhoto() throws {
        let index = Self.photos.firstIndex { $0.name == "late.png" }!
        let photo = Self.photos[index]
        try PNGImage.make(width: photo.width, height: photo.height, seed: UInt8(index + 1)).write(
            to: site.appendingPathComponent("img/late.png"))
    }

    /// A store in a new folder on the default transport with short time-outs.
    public func store(
        in folder: URL? = nil, connectivity: ConnectivityMonitor = ConnectivityMonitor(), clock: SettableClock = SettableClock()
    ) throws -> BundleStore {
        try BundleStore(
            directory: (folder ?? TemporaryFolders.make()).path, transport: BundleStore.defaultTransport(timeout: 5),
            retries: RetryPolicy(limit: 1, firstPause: 0.05, maxPause: 0.1), connectivity: connectivity, clock: clock.function)
    }

    private static func compile(_ feeds: [CompileRequest.Feed], id: String, cities: String? = nil, to output: String) throws {
        var request = CompileRequest(feeds: feeds, citiesPath: cities, outputPath: output)
        request.bundleID = id
        _ = try Compiler.compile(request)
    }
}
