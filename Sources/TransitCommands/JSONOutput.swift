import Foundation
import TransitCities
import TransitJSON
import TransitRuntime

/// The command's JSON: every result is the `Codable` encoding of the library's type (one
/// field list per type, snake_case keys in the type's order, a field without a value left out), so an
/// app decodes what the command prints into the type it already has.
enum JSONOutput {
    /// A value's `Codable` encoding (keys in the type's order; a nil field is left out; dates ISO 8601).
    /// - Throws: `TransitError.corruptBundle` when the value holds a number JSON cannot
    ///   write (not finite: only a damaged bundle or message makes one), never a silent `null`.
    static func encoded<T: Encodable>(_ value: T) throws -> [UInt8] {
        do {
            return try CompactJSONEncoder().encode(value)
        } catch EncodingError.invalidValue(let number, let context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw TransitError.corruptBundle(reason: "the answer's \(path.isEmpty ? "value" : path) is \(number), which JSON cannot write")
        }
    }

    /// `encoded(value)` as text.
    static func text<T: Encodable>(_ value: T) throws -> String { String(decoding: try encoded(value), as: UTF8.self) }

    /// An error's JSON, which always encodes (two strings and the line's id as parsed).
    static func text(_ error: ErrorOutput) -> String { String(decoding: encoded(error), as: UTF8.self) }

    static func encoded(_ error: ErrorOutput) -> [UInt8] {
        (try? CompactJSONEncoder().encode(error)) ?? Array(#"{"error":{"code":"internal","message":"unencodable error"}}"#.utf8)
    }

    /// A city with its distance to a tenth of a metre, as stops print theirs.
    static func roundingDistance(_ city: City) -> City {
        var city = city
        city.distanceMetres = city.distanceMetres.map { ($0 * 10).rounded() / 10 }
        return city
    }

    /// A stop with its distance to a tenth of a metre.
    static func roundingDistance(_ stop: Stop) -> Stop {
        var stop = stop
        stop.distanceMetres = stop.distanceMetres.map { ($0 * 10).rounded() / 10 }
        return stop
    }
}

/// `{"id": ..., "<key>": <value>, ...}`: a result under the key that names it (a batch
/// answer, `plan --json`'s `{"journeys": [...]}`), with the batch line's `id` echoed as it
/// came and, for a live board that could not use its realtime data, why.
struct KeyedOutput: Encodable {
    var id: JSONValue?
    var key: String
    var value: any Encodable
    var realtimeNotApplied: String?
    /// A range query's end when its budget cut it short (`searched_until`).
    var searchedUntil: LocalDateTime?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        if let id { try c.encode(id, forKey: Key("id")) }
        try c.encode(value, forKey: Key(key))
        try c.encodeIfPresent(realtimeNotApplied, forKey: Key("realtime_not_applied"))
        try c.encodeIfPresent(searchedUntil, forKey: Key("searched_until"))
    }
}

/// `{"error": {"code": ..., "message": ...}}` (with a batch line's `id` when it had one).
struct ErrorOutput: Encodable {
    struct Body: Encodable {
        var code: String
        var message: String
    }
    var id: JSONValue?
    var error: Body

    init(id: JSONValue? = nil, code: String, message: String) {
        self.id = id
        self.error = Body(code: code, message: message)
    }
}
