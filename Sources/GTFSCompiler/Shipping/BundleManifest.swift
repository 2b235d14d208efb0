import BundleFormat
import Foundation
import ManifestFormat
import PatchEngine
import TransitSQLite

/// What a download server publishes about its bundles (`gtfs-compile manifest`): per bundle
/// its identity, content hash, file name, sizes (raw and gzip), the file's SHA-256, schema
/// version, coverage, feeds, cities and bounding box; per patch the content hashes it goes
/// from and to, file name, sizes and SHA-256. `schemas/manifest.schema.json` documents the
/// format.
///
/// ```swift
/// let manifest = try BundleManifest(bundles: ["out/lisbon.db", "out/zurich.db"], patches: ["out/zurich-1-2.patch"])
/// try manifest.write(to: "out/manifest.json")
/// ```
public struct BundleManifest {
    typealias Coverage = ManifestDocument.Coverage
    typealias Feed = ManifestDocument.Feed
    typealias BoundingBox = ManifestDocument.BoundingBox
    typealias Bundle = ManifestDocument.Bundle
    typealias Patch = ManifestDocument.Patch

    let bundles: [Bundle]
    let patches: [Patch]
    /// The manifest's sequence number (`gtfs-compile manifest` gives the Unix time of
    /// publication in milliseconds); nil writes none (a store then cannot tell a replay).
    public var sequence: Int64?
    /// When the manifest stops installing anything new; nil writes none.
    public var expires: Date?
    /// The absolute paths of the files described, in the order of `bundles` then `patches`.
    private let bundlePaths: [String]
    private let patchPaths: [String]

    /// Describes each bundle file (they must be bundles this compiler writes) and each patch
    /// file (from `gtfs-compile diff`; read and checked whole).
    /// - Throws: `FatalDiagnostic` (E_INPUT) for a file that is not a bundle or patch, and for
    ///   two bundles with one id (a store could not tell them apart).
    public init(bundles paths: [String], patches patchPaths: [String] = []) throws {
        bundles = try paths.map(Self.describe)
        patches = try patchPaths.map(Self.describePatch)
        bundlePaths = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.patchPaths = patchPaths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var seen: [String: String] = [:]
        for (bundle, path) in zip(bundles, paths) {
            if let first = seen[bundle.id] {
                throw FatalDiagnostic(
                    .unreadableInput, file: path,
                    message: "bundle id \"\(bundle.id)\" is also the id of \(first); a manifest lists each id once (compile with --id)")
            }
            seen[bundle.id] = path
        }
    }

    /// The `file` a manifest at `manifestPath` gives for `path`: the relative URL from the
    /// manifest's folder (`../` where the file lies elsewhere), each segment percent-encoded,
    /// so a server that serves both files as they lie on disk finds it.
    static func relativeReference(to path: String, from manifestPath: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: manifestPath).standardizedFileURL.deletingLastPathComponent().pathComponents
        var common = 0
        while common < min(target.count - 1, base.count) && target[common] == base[common] { common += 1 }
        let segments = Array(repeating: "..", count: base.count - common) + target[common...]
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#")
        return segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "/")
    }

    private static func describePatch(_ path: String) throws -> Patch {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FatalDiagnostic(.unreadableInput, file: path, message: "cannot read the patch")
        }
        let patch: BundlePatch
        do { patch = try BundlePatch(decoding: [UInt8](data)) } catch let error as PatchFormatError {
            throw FatalDiagnostic(.unreadableInput, file: path, message: error.description)
        }
        return Patch(
            from: patch.fromHash, to: patch.toHash, file: URL(fileURLWithPath: path).lastPathComponent, bytes: Int64(data.count),
            gzipBytes: Int64(try GzipSize.of(path: path)), fileSHA256: try sha256(of: [FileHandleStream(path: path)]))
    }

    /// Writes the manifest; each `file` is relative to where the manifest is written.
    public func write(to path: String) throws {
        try data(for: path).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The manifest's bytes as `write(to:)` writes them (for a `path` to resolve files against).
    public func data(for path: String) throws -> Data {
        var listed = bundles
        for index in listed.indices { listed[index].file = Self.relativeReference(to: bundlePaths[index], from: path) }
        var listedPatches = patches
        for index in listedPatches.indices { listedPatches[index].file = Self.relativeReference(to: patchPaths[index], from: path) }
        return try encoded(bundles: listed, patches: listedPatches)
    }

    private func encoded(bundles listed: [Bundle], patches listedPatches: [Patch]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expiry = expires.map { date -> String in
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withInternetDateTime]
            return format.string(from: date)
        }
        return try encoder.encode(ManifestDocument(bundles: listed, patches: listedPatches, sequence: sequence, expires: expiry))
    }

    /// The most credits a feed lists in the manifest (a real feed has a handful; a million
    /// made a 224 MB manifest that a store refuses whole): the feed's own first, then those
    /// of an agency, route or trip, in the file's order. The bundle keeps them all.
    static let maxAttributionsPerFeed = 20

    /// attributions.txt by fid, as the manifest lists them (`maxAttributionsPerFeed`).
    private static func attributions(_ db: SQLiteDatabase) throws -> [Int: [ManifestDocument.Attribution]] {
        var credits: [Int: [ManifestDocument.Attribution]] = [:]
        guard try db.hasTable("attributions") else { return credits }
        let rows = try db.prepare(
            """
            SELECT a.fid, a.organization_name, a.is_producer, a.is_operator, a.is_authority, g.agency_id, r.route_id, a.trip_id,
                   a.url, a.email, a.phone
            FROM attributions a LEFT JOIN agencies g ON g.aid = a.aid LEFT JOIN dict_route r ON r.rid = a.rid
            ORDER BY a.aid IS NOT NULL OR a.rid IS NOT NULL OR a.trip_id IS NOT NULL, a.attribution
            """)
        while try rows.step() {
            guard credits[rows.int(0), default: []].count < Self.maxAttributionsPerFeed else { continue }
            credits[rows.int(0), default: []].append(
                .init(
                    organizationName: rows.string(1), isProducer: rows.int(2) == 1, isOperator: rows.int(3) == 1,
                    isAuthority: rows.int(4) == 1, agencyID: rows.optionalString(5), routeID: rows.optionalString(6),
                    tripID: rows.optionalString(7), url: rows.optionalString(8), email: rows.optionalString(9),
                    phone: rows.optionalString(10)))
        }
        return credits
    }

    private static func describe(_ path: String) throws -> Bundle {
        let db: SQLiteDatabase
        do {
            db = try SQLiteDatabase(path: path, writable: false)
            guard let version = try BundleSchema.headerVersion(of: db) else {
                throw FatalDiagnostic(.unreadableInput, file: path, message: "not a transit bundle")
            }
            guard version == BundleSchema.version else {
                throw FatalDiagnostic(
                    .unreadableInput, file: path,
                    message: "the bundle has schema \(version), this compiler writes \(BundleSchema.version); compile it again")
            }
        } catch let error as SQLiteError {
            throw FatalDiagnostic(.unreadableInput, file: path, message: "not a transit bundle: \(error.message)")
        }
        var metadata: [String: String] = [:]
        let meta = try db.prepare("SELECT key, value FROM metadata")
        while try meta.step() { metadata[meta.string("key")] = meta.string("value") }
        func iso(_ value: Int?) -> String? { value.flatMap(CivilDate.init(yyyymmdd:))?.iso }
        var feeds: [Feed] = []
        let credits = try Self.attributions(db)
        let rows = try db.prepare(
            "SELECT fid, feed_id, feed_version, publisher_name, first_service_date, last_service_date, last_trip_date FROM feeds ORDER BY fid"
        )
        var firsts: [Int] = []
        var lasts: [Int] = []
        var lastTrips: [Int] = []
        while try rows.step() {
            let first = rows.optionalInt("first_service_date")
            let last = rows.optionalInt("last_service_date")
            let lastTrip = rows.optionalInt("last_trip_date")
            firsts += [first].compactMap { $0 }
            lasts += [last].compactMap { $0 }
            lastTrips += [lastTrip].compactMap { $0 }
            feeds.append(
                Feed(
                    feedID: rows.string("feed_id"), version: rows.optionalString("feed_version"),
                    coverage: Coverage(firstServiceDate: iso(first), lastServiceDate: iso(last), lastTripDate: iso(lastTrip)),
                    publisherName: rows.optionalString("publisher_name"), attributions: credits[rows.int("fid")]))
        }
        var cityIDs: [String] = []
        let hasCities = try db.hasTable("cities")
        if hasCities {
            let cities = try db.prepare("SELECT city_id FROM cities ORDER BY city_id")
            while try cities.step() { cityIDs.append(cities.string("city_id")) }
        }
        let box = try db.prepare(
            """
            SELECT min(lat) AS min_lat, min(lon) AS min_lon, max(lat) AS max_lat, max(lon) AS max_lon FROM (
              SELECT lat_e7 / 1e7 AS lat, lon_e7 / 1e7 AS lon FROM stops WHERE lat_e7 IS NOT NULL
            """ + (hasCities ? " UNION ALL SELECT lat, lng AS lon FROM cities)" : ")"))
        var boundingBox: BoundingBox?
        if try box.step(), let minLat = box.optionalDouble("min_lat") {
            boundingBox = BoundingBox(
                minLat: minLat, minLon: box.double("min_lon"), maxLat: box.double("max_lat"), maxLon: box.double("max_lon"))
        }
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Bundle(
            id: metadata["bundle_id"] ?? "", label: metadata["label"], contentSHA256: metadata["content_sha256"] ?? "",
            file: URL(fileURLWithPath: path).lastPathComponent, bytes: Int64(bytes), gzipBytes: Int64(try GzipSize.of(path: path)),
            fileSHA256: try sha256(of: [FileHandleStream(path: path)]), schemaVersion: Int(metadata["schema_version"] ?? "") ?? 0,
            compilerVersion: metadata["compiler_version"],
            coverage: Coverage(
                firstServiceDate: iso(firsts.min()), lastServiceDate: iso(lasts.max()), lastTripDate: iso(lastTrips.max())),
            feeds: feeds, cityIDs: cityIDs, boundingBox: boundingBox)
    }
}
