import Foundation
import SwiftProtobuf

/// A GTFS-Realtime `FeedMessage` (trip updates, vehicle positions, alerts), checked:
/// protobuf, FULL_DATASET, at most `maximumBytes`. The header is decoded at once; each
/// entity when a snapshot applies it (one at a time, so that a large message is never held
/// decoded whole), and an entity whose bytes do not decode is left out and reported
/// (`RealtimeReport.Reason.malformedEntity`), the others applied.
///
/// ```swift
/// let message = try RealtimeMessage(contentsOf: "trip-updates.pb")
/// print(message.timestamp, message.entityCount)
/// ```
public struct RealtimeMessage: Sendable {
    /// The largest message accepted, 64 MB (a whole country's trip updates are a few MB).
    public static let maximumBytes = 64 << 20

    package let header: TransitRealtime_FeedHeader
    /// The message's bytes and where each entity lies in them (an array, not `Data`: each
    /// entity is framed through a pointer, and `Data` checks exclusive access on each).
    private let bytes: [UInt8]
    private let entities: [Range<Int>]

    /// The Unix times a message may name: 1970-01-01 to 9999-12-31. A header timestamp
    /// outside them refuses the message; an event time or alert period outside them is
    /// left out and reported (`bad_time`).
    public static let plausibleTimes: ClosedRange<UInt64> = 0...253_402_300_799

    /// Whether an event time (Unix seconds) lies within `plausibleTimes`.
    static func isPlausible(_ time: Int64) -> Bool { time >= 0 && plausibleTimes.contains(UInt64(time)) }

    /// The header's timestamp: when the producer built the message.
    public var timestamp: Date { Date(timeIntervalSince1970: TimeInterval(header.timestamp)) }
    /// The header's gtfs_realtime_version.
    public var version: String { header.gtfsRealtimeVersion }
    /// The number of entities in the message.
    public var entityCount: Int { entities.count }

    /// Decodes `data`'s header and finds its entities.
    /// - Throws: `RealtimeError.notAMessage`, `.differential`, `.tooLarge`.
    public init(data: Data) throws {
        guard data.count <= Self.maximumBytes else { throw RealtimeError.tooLarge(bytes: data.count, limit: Self.maximumBytes) }
        let bytes = [UInt8](data)
        let framing: FeedMessageFraming
        do {
            framing = try FeedMessageFraming(bytes)
        } catch let error as FeedMessageFraming.Malformed {
            throw RealtimeError.notAMessage(error.reason)
        }
        guard !framing.header.isEmpty else { throw RealtimeError.notAMessage("no header with gtfs_realtime_version") }
        var header = TransitRealtime_FeedHeader()
        do {
            for range in framing.header { try header.merge(serializedBytes: Array(bytes[range]), partial: true, options: Self.options) }
        } catch {
            throw RealtimeError.notAMessage(Self.explain(error))
        }
        guard header.hasGtfsRealtimeVersion else { throw RealtimeError.notAMessage("no header with gtfs_realtime_version") }
        guard header.incrementality != .differential else { throw RealtimeError.differential }
        guard Self.plausibleTimes.contains(header.timestamp) else {
            throw RealtimeError.notAMessage("header timestamp \(header.timestamp) is not a time between 1970 and 9999")
        }
        self.header = header
        self.bytes = bytes
        self.entities = framing.entities
    }

    /// Entity `index` (from 0), decoded.
    /// - Throws: `RealtimeError.notAMessage` naming what is wrong with its bytes.
    package func entity(_ index: Int) throws -> TransitRealtime_FeedEntity {
        let entity: TransitRealtime_FeedEntity
        do {
            entity = try TransitRealtime_FeedEntity(serializedBytes: Array(bytes[entities[index]]), partial: true, options: Self.options)
        } catch {
            throw RealtimeError.notAMessage(Self.explain(error))
        }
        guard Self.hasRequiredFields(entity) else {
            throw RealtimeError.notAMessage(Self.explain(BinaryDecodingError.missingRequiredFields))
        }
        return entity
    }

    /// Entity `index` when it holds only an id and a trip update with its trip: the id and
    /// the trip update, decoded alone (what `entity(_:)` would give, for less), part by part
    /// when the update holds only its trip and stop time updates. nil for any other
    /// entity, or one whose bytes do not decode (`entity(_:)` then says why).
    /// `knownTripID`: the entity's trip_id as `tripIDs()` read it, used as the decoded
    /// trip_id when the bytes are the same.
    package func tripUpdateEntity(_ index: Int, knownTripID: String? = nil) -> (id: String, tripUpdate: TripUpdateParts)? {
        guard let entity = FeedMessageFraming.tripUpdateEntity(bytes, entities[index]) else { return nil }
        if let parts = FeedMessageFraming.tripUpdateParts(bytes, entity.tripUpdate) {
            // The trip by hand when it has the plain shape, else by swift-protobuf.
            return bytes.withUnsafeBytes { (whole: UnsafeRawBufferPointer) -> (id: String, tripUpdate: TripUpdateParts)? in
                guard
                    let trip = TripUpdateDecoder.tripDescriptor(
                        UnsafeRawBufferPointer(rebasing: whole[parts.trip]), knownTripID: knownTripID)
                        ?? (try? TransitRealtime_TripDescriptor(
                            serializedBytes: Array(bytes[parts.trip]), partial: true, options: Self.options))
                else { return nil }
                // Stop time updates of the plain shape only (they read back exactly as
                // `TripUpdateParts.whole`): any other leaves the entity to be decoded whole.
                var stopTimeUpdates: [StopUpdate] = []
                stopTimeUpdates.reserveCapacity(parts.stopTimeUpdates.count)
                for range in parts.stopTimeUpdates {
                    guard let stop = TripUpdateDecoder.stopTimeUpdate(UnsafeRawBufferPointer(rebasing: whole[range])) else { return nil }
                    stopTimeUpdates.append(stop)
                }
                return (entity.id, TripUpdateParts(trip: trip, stopTimeUpdates: stopTimeUpdates))
            }
        }
        guard
            let update = try? TransitRealtime_TripUpdate(
                serializedBytes: Array(bytes[entity.tripUpdate]), partial: true, options: Self.options),
            update.hasTrip
        else { return nil }
        return (entity.id, TripUpdateParts(update))
    }

    /// The trip_id each entity's trip update names, by entity (nil: none), a hint read
    /// without decoding the entities (see `FeedMessageFraming.tripID(_:_:)`).
    func tripIDs() -> [String?] {
        entities.map { FeedMessageFraming.tripID(bytes, $0) }
    }

    /// Whether `entity` has the fields the proto marks required. swift-protobuf's check
    /// walks every nested message (a fifth of decoding a trip update); the fields a trip
    /// update must have are its id and its trip, checked here, and any other entity is
    /// checked whole.
    private static func hasRequiredFields(_ entity: TransitRealtime_FeedEntity) -> Bool {
        let onlyTripUpdate =
            entity.hasTripUpdate && !entity.hasVehicle && !entity.hasAlert && !entity.hasShape && !entity.hasStop
            && !entity.hasTripModifications
        return onlyTripUpdate ? entity.hasID && entity.tripUpdate.hasTrip : entity.isInitialized
    }

    private static let options: BinaryDecodingOptions = {
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = 32
        return options
    }()

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
