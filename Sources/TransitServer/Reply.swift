import FileIntegrity
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TransitCommands
import TransitJSON

/// A route's answer before the HTTP headers are set: the status, the body, and what the
/// headers follow from (the bundle version, whether live data went in).
struct Reply {
    var status: Int
    var body: [UInt8]
    var contentType = "application/json"
    /// Set by routes with a rule of their own; otherwise live answers get `max-age` of the
    /// fetch interval and the rest `no-cache`.
    var cacheControl: String?
    /// The version the answer came from: `X-Bundle-Content-Hash` and the `ETag`.
    var version: ServedBundle?
    var isLive = false
    var headers: [(String, String)] = []

    var contentHash: String? { version?.info.contentHash }

    init(status: Int, body: [UInt8], contentType: String = "application/json", cacheControl: String? = nil) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.cacheControl = cacheControl
    }

    init(status: Int, text: String) {
        self.init(status: status, body: Array(text.utf8), contentType: "text/plain; charset=utf-8", cacheControl: "no-store")
    }

    /// A JSON body of the server's own (bundle list, live report, readiness).
    init<T: Encodable>(json value: T) throws {
        self.init(status: 200, body: try CompactJSONEncoder().encode(value) + [0x0A], cacheControl: "no-cache")
    }

    /// A command's error: the command line's JSON error, with the status of its kind.
    init(_ failure: CommandFailure) {
        let status: Int
        switch failure.kind {
        case .notFound: status = 404
        case .badInput: status = 400
        case .damagedBundle, .unreadableBundle: status = 503
        case .failure: status = 500
        }
        self.init(status: status, body: failure.json + [0x0A], cacheControl: "no-store")
    }

    /// The server's own error, in the same JSON shape.
    init(_ failure: ServerFailure) {
        self.init(CommandFailure(code: failure.code, message: failure.message, kind: .badInput))
        status = failure.status
    }

    /// The HTTP response: `ETag` (from the version and the body: the same answer, the same
    /// tag), `304` for a matching `If-None-Match`, gzip when accepted and worth it.
    func response(to request: Request, state: ServerState) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = contentType
        fields[.cacheControl] = cacheControl ?? (isLive ? "max-age=\(max(1, Int(state.configuration.realtimeInterval)))" : "no-cache")
        if let hash = contentHash { fields[Self.contentHashField] = hash }
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields[field] = Self.headerSafe(value) }
        }
        if let origin = state.configuration.corsOrigin { fields[.accessControlAllowOrigin] = origin }
        let gzip = body.count >= Gzip.minimumBytes && request.headers[.acceptEncoding].map(Gzip.isAccepted) == true
        if body.count >= Gzip.minimumBytes { fields[.vary] = "Accept-Encoding" }
        if status == 200, let version {
            var hash = SHA256()
            Array(version.info.contentHash.utf8).withUnsafeBytes { hash.update($0) }
            body.withUnsafeBytes { hash.update($0) }
            let tag = "\"" + hash.finalizeHex().prefix(32) + (gzip ? "-gzip" : "") + "\""
            fields[.eTag] = tag
            if let wanted = request.headers[.ifNoneMatch], Self.matches(wanted, tag) {
                return Response(status: .notModified, headers: fields)
            }
        }
        var bytes = body
        if gzip, let compressed = Gzip.compress(body) {
            bytes = compressed
            fields[.contentEncoding] = "gzip"
        }
        return Response(
            status: HTTPResponse.Status(code: status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static let contentHashField = HTTPField.Name("X-Bundle-Content-Hash")!

    /// True when an `If-None-Match` value names `tag` (or is `*`); weak tags compare as strong.
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { item in
            var candidate = item.trimmingCharacters(in: .whitespaces)
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == "*" || candidate == tag
        }
    }

    /// A header value without control characters (a message quoted in a header).
    static func headerSafe(_ value: String) -> String {
        String(value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) }.prefix(500))
    }
}
