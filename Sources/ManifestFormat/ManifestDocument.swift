/// The manifest's JSON shape (`schemas/manifest.schema.json`), in one place: the compiler
/// encodes it (`gtfs-compile manifest`), the store decodes it (`Catalogue`).
///
/// ```swift
/// let document = try JSONDecoder().decode(ManifestDocument.self, from: data)
/// ```
package struct ManifestDocument: Codable, Sendable {
    package struct Coverage: Codable, Sendable, Equatable {
        package let firstServiceDate: String?
        package let lastServiceDate: String?
        package let lastTripDate: String?

        package init(firstServiceDate: String?, lastServiceDate: String?, lastTripDate: String?) {
            self.firstServiceDate = firstServiceDate
            self.lastServiceDate = lastServiceDate
            self.lastTripDate = lastTripDate
        }

        enum CodingKeys: String, CodingKey {
            case firstServiceDate = "first_service_date"
            case lastServiceDate = "last_service_date"
            case lastTripDate = "last_trip_date"
        }
    }

    package struct Feed: Codable, Sendable {
        package let feedID: String
        package let version: String?
        package let coverage: Coverage
        /// feed_info's feed_publisher_name.
        package let publisherName: String?
        /// attributions.txt, nil when the feed has none (and in manifests written before).
        package let attributions: [Attribution]?

        package init(
            feedID: String, version: String?, coverage: Coverage, publisherName: String? = nil, attributions: [Attribution]? = nil
        ) {
            self.feedID = feedID
            self.version = version
            self.coverage = coverage
            self.publisherName = publisherName
            self.attributions = attributions
        }

        enum CodingKeys: String, CodingKey {
            case feedID = "feed_id"
            case version, coverage
            case publisherName = "publisher_name"
            case attributions
        }
    }

    /// An organisation to credit (attributions.txt), as the store shows it before a download.
    package struct Attribution: Codable, Sendable, Equatable {
        package let organizationName: String
        package let isProducer: Bool
        package let isOperator: Bool
        package let isAuthority: Bool
        package let agencyID: String?
        package let routeID: String?
        package let tripID: String?
        package let url: String?
        package let email: String?
        package let phone: String?

        package init(
            organizationName: String, isProducer: Bool, isOperator: Bool, isAuthority: Bool, agencyID: String?, routeID: String?,
            tripID: String?, url: String?, email: String?, phone: String?
        ) {
            self.organizationName = organizationName
            self.isProducer = isProducer
            self.isOperator = isOperator
            self.isAuthority = isAuthority
            self.agencyID = agencyID
            self.routeID = routeID
            self.tripID = tripID
            self.url = url
            self.email = email
            self.phone = phone
        }

        enum CodingKeys: String, CodingKey {
            case organizationName = "organization_name"
            case isProducer = "is_producer"
            case isOperator = "is_operator"
            case isAuthority = "is_authority"
            case agencyID = "agency_id"
            case routeID = "route_id"
            case tripID = "trip_id"
            case url, email, phone
        }
    }

    package struct BoundingBox: Codable, Sendable {
        package let minLat: Double, minLon: Double, maxLat: Double, maxLon: Double

        package init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double) {
            (self.minLat, self.minLon, self.maxLat, self.maxLon) = (minLat, minLon, maxLat, maxLon)
        }

        enum CodingKeys: String, CodingKey {
            case minLat = "min_lat"
            case minLon = "min_lon"
            case maxLat = "max_lat"
            case maxLon = "max_lon"
        }
    }

    package struct Bundle: Codable, Sendable {
        package let id: String
        package let label: String?
        package let contentSHA256: String
        package var file: String
        package let bytes: Int64
        package let gzipBytes: Int64
        package let fileSHA256: String
        package let schemaVersion: Int
        package let compilerVersion: String?
        package let coverage: Coverage
        package let feeds: [Feed]
        package let cityIDs: [String]
        package let boundingBox: BoundingBox?

        package init(
            id: String, label: String?, contentSHA256: String, file: String, bytes: Int64, gzipBytes: Int64, fileSHA256: String,
            schemaVersion: Int, compilerVersion: String?, coverage: Coverage, feeds: [Feed], cityIDs: [String], boundingBox: BoundingBox?
        ) {
            self.id = id
            self.label = label
            self.contentSHA256 = contentSHA256
            self.file = file
            self.bytes = bytes
            self.gzipBytes = gzipBytes
            self.fileSHA256 = fileSHA256
            self.schemaVersion = schemaVersion
            self.compilerVersion = compilerVersion
            self.coverage = coverage
            self.feeds = feeds
            self.cityIDs = cityIDs
            self.boundingBox = boundingBox
        }

        enum CodingKeys: String, CodingKey {
            case id, label, file, bytes, coverage, feeds
            case contentSHA256 = "content_sha256"
            case gzipBytes = "gzip_bytes"
            case fileSHA256 = "file_sha256"
            case schemaVersion = "schema_version"
            case compilerVersion = "compiler_version"
            case cityIDs = "city_ids"
            case boundingBox = "bounding_box"
        }
    }

    package struct Patch: Codable, Sendable {
        package let from: String
        package let to: String
        package var file: String
        package let bytes: Int64
        package let gzipBytes: Int64
        package let fileSHA256: String

        package init(from: String, to: String, file: String, bytes: Int64, gzipBytes: Int64, fileSHA256: String) {
            self.from = from
            self.to = to
            self.file = file
            self.bytes = bytes
            self.gzipBytes = gzipBytes
            self.fileSHA256 = fileSHA256
        }

        enum CodingKeys: String, CodingKey {
            case from = "from_content_sha256"
            case to = "to_content_sha256"
            case file, bytes
            case gzipBytes = "gzip_bytes"
            case fileSHA256 = "file_sha256"
        }
    }

    package static let version = 1
    package let manifestVersion: Int
    /// Grows with every manifest the server publishes (the compiler writes the Unix time of
    /// publication): a store refuses one lower than the last it accepted (a replay).
    package let sequence: Int64?
    /// After this instant (ISO 8601, UTC) the manifest installs nothing new (a frozen
    /// mirror cannot keep devices on old versions for ever).
    package let expires: String?
    package let bundles: [Bundle]
    package let patches: [Patch]

    package init(bundles: [Bundle], patches: [Patch], sequence: Int64? = nil, expires: String? = nil) {
        manifestVersion = Self.version
        self.sequence = sequence
        self.expires = expires
        self.bundles = bundles
        self.patches = patches
    }

    enum CodingKeys: String, CodingKey {
        case manifestVersion = "manifest_version"
        case sequence, expires, bundles, patches
    }
}
