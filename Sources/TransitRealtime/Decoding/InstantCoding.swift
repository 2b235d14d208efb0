import Foundation

/// Instants in the live values' JSON: ISO 8601 in UTC whatever the coder's date strategy, so
/// the command line, an app's cache and a default `JSONDecoder` read the same text.
extension KeyedDecodingContainer {
    /// The instant under `key`, nil when absent; text that is not ISO 8601 is refused.
    func decodeInstantIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not an ISO 8601 instant: \(text)")
        }
        return date
    }

    /// The instant under `key`, which must be there.
    func decodeInstant(forKey key: Key) throws -> Date {
        guard let date = try decodeInstantIfPresent(forKey: key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no \(key.stringValue)"))
        }
        return date
    }
}

extension KeyedEncodingContainer {
    /// `date` as ISO 8601 under `key`, nothing when nil.
    mutating func encodeInstantIfPresent(_ date: Date?, forKey key: Key) throws {
        try encodeIfPresent(date?.formatted(.iso8601), forKey: key)
    }
}
