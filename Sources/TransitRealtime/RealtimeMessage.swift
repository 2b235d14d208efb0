import Foundation
import SwiftProtobuf

/// A decoded GTFS-Realtime `FeedMessage` (trip updates, vehicle positions, alerts), checked:
/// protobuf, FULL_DATASET, at most `maximumBytes`.
///
/// ```swift
/// let message = try RealtimeMessage(contentsOf: "trip-updates.pb")
/// print(message.timestamp, message.entityCount)
/// ```
public struct RealtimeMessage: Sendable {
    /// The largest message accepted, 64 MB (a whole country's trip updates are a few MB).
    public static let maximumBytes = 64 << 20

    package let feed: TransitRealtime_FeedMessage

    /// The header's timestamp: when the producer built the message.
    public var timestamp: Date { Date(timeIntervalSince1970: TimeInterval(feed.header.timestamp)) }
    /// The header's gtfs_realtime_version.
    public var version: String { feed.header.gtfsRealtimeVersion }
    public var entityCount: Int { feed.entity.count }

    /// Decodes `data`.
    /// - Throws: `RealtimeError.notAMessage`, `.differential`, `.tooLarge`.
    public init(data: Data) throws {
        guard data.count <= Self.maximumBytes else { throw RealtimeError.tooLarge(bytes: data.count, limit: Self.maximumBytes) }
        let feed: TransitRealtime_FeedMessage
        do {
            var options = BinaryDecodingOptions()
            options.messageDepthLimit = 32
            feed = try TransitRealtime_FeedMessage(serializedBytes: data, options: options)
        } catch {
            throw RealtimeError.notAMessage(Self.explain(error))
        }
        guard feed.hasHeader, feed.header.hasGtfsRealtimeVersion else {
            throw RealtimeError.notAMessage("no header with gtfs_realtime_version")
        }
        guard feed.header.incrementality != .differential else { throw RealtimeError.differential }
        self.feed = feed
    }

    /// Reads and decodes a file.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RealtimeError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        try self.init(data: data)
    }

    init(feed: TransitRealtime_FeedMessage) { self.feed = feed }

    private static func explain(_ error: Error) -> String {
        switch error {
        case BinaryDecodingError.truncated: return "the bytes end inside a field"
        case BinaryDecodingError.malformedProtobuf: return "the bytes are not protobuf"
        case BinaryDecodingError.missingRequiredFields: return "a required field is missing"
        case BinaryDecodingError.messageDepthLimit: return "nested too deeply"
        case BinaryDecodingError.invalidUTF8: return "a text field is not UTF-8"
        default: return "\(error)"
        }
    }
}
