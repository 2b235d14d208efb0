import Foundation
import ManifestFormat
import TransitRuntime

/// A download server's manifest as the store reads it (`gtfs-compile manifest` writes it;
/// `schemas/manifest.schema.json` documents it): the bundles on offer and the patches between
/// their versions, with the URL each file is fetched from.
///
/// ```swift
/// let catalogue = try Catalogue(json: data, base: URL(string: "https://example.org/bundles/manifest.json")!)
/// for entry in catalogue.bundles { print(entry.id, entry.bytes, entry.coverage.lastServiceDate?.description ?? "-") }
/// ```
public struct Catalogue: Sendable, Hashable {
    /// Service dates a bundle covers: first and last service date, last day with a trip.
    public struct Coverage: Sendable, Hashable, Codable {
        /// The first day with service, nil when the manifest does not say.
        public let firstServiceDate: ServiceDate?
        /// The last day with service, nil when the manifest does not say.
        public let lastServiceDate: ServiceDate?
        /// The last calendar day a trip runs on (after midnight trips), nil when not given.
        public let lastTripDate: ServiceDate?

        /// A coverage built by hand (previews, tests).
        public init(firstServiceDate: ServiceDate? = nil, lastServiceDate: ServiceDate? = nil, lastTripDate: ServiceDate? = nil) {
            self.firstServiceDate = firstServiceDate
            self.lastServiceDate = lastServiceDate
            self.lastTripDate = lastTripDate
        }

        private enum CodingKeys: String, CodingKey {
            case firstServiceDate = "first_service_date"
            case lastServiceDate = "last_service_date"
            case lastTripDate = "last_trip_date"
        }
    }

    /// One bundle on offer; `Codable` with the manifest's keys (`url` resolved).
    public struct Entry: Sendable, Hashable, Codable, Identifiable {
        public let id: String
        /// A name to show ("Strasbourg"), nil when the manifest gives none.
        public let label: String?
        /// The bundle's content hash (the same for the same timetable, whatever the file's bytes).
        public let contentHash: String
        /// Where the bundle's file is, resolved against the manifest's URL.
        public let url: URL
        /// The file size in bytes (what it takes on the device).
        public let bytes: Int64
        /// The file's SHA-256, checked after download.
        public let fileSHA256: String
        /// The days the bundle has service for.
        public let coverage: Coverage
        /// The catalogue cities the bundle serves.
        public let cityIDs: [String]
        /// Bytes on the wire when the server sends it gzip-compressed (what a download
        /// screen shows), nil when the manifest does not say.
        public let downloadBytes: Int64?
        /// The bundle's schema version, nil when the manifest does not say
        /// (`isReadableByThisRuntime` tells whether this app can open it).
        public let schemaVersion: Int?
        /// The feeds inside, each with its version and coverage.
        public let feeds: [FeedOffer]
        /// Where the bundle's stops lie (to pick the city the user is in), nil when not given.
        public let boundingBox: BoundingBox?

        /// An entry built by hand (previews, tests).
        public init(
            id: String, label: String? = nil, contentHash: String, url: URL, bytes: Int64, fileSHA256: String,
            coverage: Coverage = Coverage(), cityIDs: [String] = [], downloadBytes: Int64? = nil, schemaVersion: Int? = nil,
            feeds: [FeedOffer] = [], boundingBox: BoundingBox? = nil
        ) {
            self.id = id
            self.label = label
            self.contentHash = contentHash
            self.url = url
            self.bytes = bytes
            self.fileSHA256 = fileSHA256
            self.coverage = coverage
            self.cityIDs = cityIDs
            self.downloadBytes = downloadBytes
            self.schemaVersion = schemaVersion
            self.feeds = feeds
            self.boundingBox = boundingBox
        }

        /// Whether this app's runtime can open the bundle: its schema version is the one
        /// the runtime reads (`TransitBundle.supportedSchemaVersion`), or not given. A list
        /// of cities hides or marks the others ("needs an app update").
        public var isReadableByThisRuntime: Bool { schemaVersion.map { $0 == TransitBundle.supportedSchemaVersion } ?? true }

        private enum CodingKeys: String, CodingKey {
            case id, label
            case contentHash = "content_sha256"
            case url, bytes
            case fileSHA256 = "file_sha256"
            case coverage
            case cityIDs = "city_ids"
            case downloadBytes = "gzip_bytes"
            case schemaVersion = "schema_version"
            case feeds
            case boundingBox = "bounding_box"
        }
    }

    /// A patch from one content hash to another.
    public struct Patch: Sendable, Hashable, Codable, Identifiable {
        /// The content hash the patch applies to.
        public let from: String
        /// The content hash it produces.
        public let to: String
        /// Where the patch's file is.
        public let url: URL
        /// The patch's size in bytes.
        public let bytes: Int64
        /// The patch file's SHA-256.
        public let fileSHA256: String

        /// The two content hashes, "from>to".
        public var id: String { "\(from)>\(to)" }

        /// A patch built by hand (previews, tests).
        public init(from: String, to: String, url: URL, bytes: Int64, fileSHA256: String) {
            self.from = from
            self.to = to
            self.url = url
            self.bytes = bytes
            self.fileSHA256 = fileSHA256
        }

        private enum CodingKeys: String, CodingKey {
            case from = "from_content_sha256"
            case to = "to_content_sha256"
            case url, bytes
            case fileSHA256 = "file_sha256"
        }
    }

    /// The bundles offered, in the manifest's order.
    public let bundles: [Entry]
    /// The patches offered between versions.
    public let patches: [Patch]
    /// The manifest's sequence number, nil for a manifest without one: never lower than the
    /// last one the store accepted.
    public let sequence: Int64?
    /// When the manifest stops installing anything new, nil for never.
    public let expires: Date?

    /// A catalogue built by hand (previews, tests); apps read one with `init(json:base:)`.
    public init(bundles: [Entry], patches: [Patch] = [], sequence: Int64? = nil, expires: Date? = nil) {
        self.bundles = bundles
        self.patches = patches
        self.sequence = sequence
        self.expires = expires
    }

    /// Whether the manifest has expired at `date`.
    public func hasExpired(at date: Date) -> Bool { expires.map { $0 < date } ?? false }

    /// The entry with id `id`, nil when the manifest has none.
    public func entry(_ id: String) -> Entry? { bundles.first { $0.id == id } }

    /// The patch that brings `installedHash` to `entry`'s version, when one is listed.
    public func patch(from installedHash: String, to entry: Entry) -> Patch? {
        patches.first { $0.from == installedHash && $0.to == entry.contentHash }
    }

    /// Reads a manifest; file names are resolved against `base` (the manifest's own URL).
    /// - Throws: `StoreError.badManifest` naming the field that is wrong.
    public init(json: Data, base: URL) throws {
        let document: ManifestDocument
        do {
            document = try JSONDecoder().decode(ManifestDocument.self, from: json)
        } catch let error as DecodingError {
            if WebPageCheck.looksLikeHTML(json) { throw StoreError.badManifest(WebPageCheck.explanation(base)) }
            throw StoreError.badManifest(Self.explain(error))
        }
        guard document.manifestVersion == ManifestDocument.version else {
            throw StoreError.badManifest("manifest_version \(document.manifestVersion) is not 1")
        }
        if let sequence = document.sequence, sequence < 0 { throw StoreError.badManifest("sequence \(sequence) is negative") }
        sequence = document.sequence
        expires = try document.expires.map { text in
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withInternetDateTime]
            guard let date = format.date(from: text) else { throw StoreError.badManifest("expires \"\(text)\" is not an ISO 8601 time") }
            return date
        }
        var seen = Set<String>()
        bundles = try document.bundles.map { bundle in
            guard BundleFiles.isSafeID(bundle.id) else {
                throw StoreError.badManifest("bundle id \"\(bundle.id)\" is not a safe file name (letters, digits, . _ -)")
            }
            guard seen.insert(bundle.id).inserted else { throw StoreError.badManifest("bundle id \"\(bundle.id)\" is listed twice") }
            try Self.checkHash(bundle.contentSHA256, "content_sha256 of \(bundle.id)")
            try Self.checkHash(bundle.fileSHA256, "file_sha256 of \(bundle.id)")
            try Self.checkBytes(bundle.bytes, "bytes of \(bundle.id)")
            return Entry(
                id: bundle.id, label: bundle.label, contentHash: bundle.contentSHA256, url: try Self.resolve(bundle.file, base),
                bytes: bundle.bytes, fileSHA256: bundle.fileSHA256,
                coverage: Coverage(
                    firstServiceDate: try Self.date(bundle.coverage.firstServiceDate, bundle.id),
                    lastServiceDate: try Self.date(bundle.coverage.lastServiceDate, bundle.id),
                    lastTripDate: try Self.date(bundle.coverage.lastTripDate, bundle.id)), cityIDs: bundle.cityIDs,
                downloadBytes: bundle.gzipBytes > 0 ? bundle.gzipBytes : nil, schemaVersion: bundle.schemaVersion,
                feeds: try bundle.feeds.map { feed in
                    FeedOffer(
                        feedID: feed.feedID, version: feed.version,
                        coverage: Coverage(
                            firstServiceDate: try Self.date(feed.coverage.firstServiceDate, bundle.id),
                            lastServiceDate: try Self.date(feed.coverage.lastServiceDate, bundle.id),
                            lastTripDate: try Self.date(feed.coverage.lastTripDate, bundle.id)),
                        publisherName: feed.publisherName,
                        attributions: (feed.attributions ?? []).map {
                            Attribution(
                                organizationName: $0.organizationName, isProducer: $0.isProducer, isOperator: $0.isOperator,
                                isAuthority: $0.isAuthority, agencyID: $0.agencyID, routeID: $0.routeID, tripID: $0.tripID, url: $0.url,
                                email: $0.email, phone: $0.phone)
                        })
                },
                boundingBox: bundle.boundingBox.map {
                    BoundingBox(minLatitude: $0.minLat, minLongitude: $0.minLon, maxLatitude: $0.maxLat, maxLongitude: $0.maxLon)
                })
        }
        patches = try document.patches.map { patch in
            try Self.checkHash(patch.fileSHA256, "file_sha256 of patch \(patch.file)")
            try Self.checkBytes(patch.bytes, "bytes of patch \(patch.file)")
            return Patch(
                from: patch.from, to: patch.to, url: try Self.resolve(patch.file, base), bytes: patch.bytes,
                fileSHA256: patch.fileSHA256)
        }
    }

    /// A relative URL reference resolved against the manifest's URL. Names written unencoded
    /// (older `gtfs-compile manifest`: "bart 1.db") are percent-encoded first.
    private static func resolve(_ file: String, _ base: URL) throws -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert("%")
        let reference =
            file.unicodeScalars.allSatisfy { allowed.contains($0) } ? file : file.addingPercentEncoding(withAllowedCharacters: allowed)
        guard !file.isEmpty, let reference, let url = URL(string: reference, relativeTo: base)?.absoluteURL else {
            throw StoreError.badManifest("file \"\(file)\" is not a valid URL path")
        }
        // A manifest from a server names files on servers: a file: URL there would make the
        // device read its own files (or a FIFO, or /dev/zero). Only a file: manifest may.
        let scheme = url.scheme?.lowercased() ?? ""
        let schemes: Set<String> = base.isFileURL ? ["file", "http", "https"] : ["http", "https"]
        guard schemes.contains(scheme) else {
            throw StoreError.badManifest(
                "file \"\(file)\" is a \(scheme.isEmpty ? "schemeless" : scheme + ":") URL; a manifest fetched over "
                    + "\(base.scheme ?? "?") may name only http and https files")
        }
        return url
    }

    /// The largest file a manifest may list, 8 GiB (a country's bundle is about 100 MB): sizes
    /// add up in the storage budget and size the download, so they are bounded.
    public static let maximumFileBytes: Int64 = 1 << 33

    private static func checkBytes(_ value: Int64, _ field: String) throws {
        guard value > 0, value <= maximumFileBytes else {
            throw StoreError.badManifest("\(field) is \(value); a file has 1 to \(maximumFileBytes) bytes")
        }
    }

    private static func checkHash(_ value: String, _ field: String) throws {
        guard value.utf8.count == 64, value.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw StoreError.badManifest("\(field) is not 64 lower-case hex digits")
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the document" : String(keys.dropFirst(keys.hasPrefix(".") ? 1 : 0))
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)): field \"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context): return "not JSON or damaged at \(path(context)): \(context.debugDescription)"
        @unknown default: return "not a manifest"
        }
    }

    /// A coverage date of the manifest (`YYYY-MM-DD`), nil when absent.
    private static func date(_ text: String?, _ id: String) throws -> ServiceDate? {
        guard let text else { return nil }
        guard let date = ServiceDate(text) else { throw StoreError.badManifest("coverage date \"\(text)\" of \(id) is not YYYY-MM-DD") }
        return date
    }
}
