import Foundation
import TransitJSON

/// The top level of a GTFS-Realtime `FeedMessage`, read by hand: where its header (field 1)
/// and each of its entities (field 2) lie in the bytes, every other field skipped by its
/// wire type. swift-protobuf then decodes the header at once and each entity on its own
/// when it is applied, so that a message is never held decoded whole (decoded, a message
/// takes many times its bytes).
///
/// ```swift
/// let framing = try FeedMessageFraming(bytes)
/// print(framing.entities.count)
/// ```
struct FeedMessageFraming {
    /// Where the header lies (a message may carry it in several pieces, merged in order).
    private(set) var header: [Range<Int>] = []
    private(set) var entities: [Range<Int>] = []

    /// Why the bytes are not a message: words for `RealtimeError.notAMessage`.
    struct Malformed: Error {
        let reason: String
    }

    /// - Throws: `Malformed` for a field cut short, a field number 0, a group or an
    ///   unknown wire type (GTFS-Realtime has no groups: text read as protobuf mostly has).
    init(_ data: [UInt8]) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in
            try Self.forEachField(of: bytes) { number, range in
                switch number {
                case 1: header.append(range)
                case 2: entities.append(range)
                default: break
                }
            }
        }
    }

    /// Calls `body` with the number of each length-delimited field of the message `bytes`
    /// and where its value lies in them; every other field is skipped by its wire type.
    /// - Throws: `Malformed` for a field cut short, a field number 0, a group or an
    ///   unknown wire type.
    private static func forEachField(of bytes: UnsafeRawBufferPointer, _ body: (_ number: UInt64, _ range: Range<Int>) -> Void) throws {
        var i = 0
        while i < bytes.count {
            let key = try varint(bytes, &i)
            guard key >> 3 > 0 else { throw Malformed(reason: "the bytes are not protobuf") }
            switch key & 7 {
            case 0: _ = try varint(bytes, &i)
            case 1: try skip(8, bytes, &i)
            case 5: try skip(4, bytes, &i)
            case 2:
                let length = try varint(bytes, &i)
                guard length <= UInt64(bytes.count - i) else { throw Malformed(reason: "the bytes end inside a field") }
                let range = i..<(i + Int(length))
                i = range.upperBound
                body(key >> 3, range)
            default: throw Malformed(reason: "the bytes are not protobuf")
            }
        }
    }

    /// The parts of an entity (the bytes at `range` of `data`) that holds only an id and a
    /// trip update, each once: the id and where the trip update lies. nil for any other
    /// entity, or bytes that do not read so (swift-protobuf then decodes the whole entity,
    /// and says what is wrong). Decoding the trip update alone spares the entity's own
    /// message object, a third of decoding an entity with swift-protobuf.
    static func tripUpdateEntity(_ data: [UInt8], _ range: Range<Int>) -> (id: String, tripUpdate: Range<Int>)? {
        var id: String?
        var tripUpdate: Range<Int>?
        let read = forEachLengthDelimitedField(of: data, in: range) { number, field, whole in
            switch number {
            case 1 where id == nil:
                let text = UnsafeRawBufferPointer(rebasing: whole[field])
                guard text.withMemoryRebound(to: UInt8.self, { $0.isEmpty || UTF8Check.isValid($0.baseAddress!, $0.count) })
                else { return false }
                id = String(decoding: text, as: UTF8.self)
            case 3 where tripUpdate == nil: tripUpdate = field
            default: return false
            }
            return true
        }
        guard read, let id, let tripUpdate else { return nil }
        return (id, tripUpdate)
    }

    /// The parts of a trip update (the bytes at `range` of `data`) that holds only its trip
    /// (once) and stop time updates: where each lies. nil for any other update (a vehicle,
    /// a timestamp, a delay, trip properties, an extension, a second trip, which protobuf
    /// would merge) or bytes that do not read so; swift-protobuf then decodes it whole.
    static func tripUpdateParts(_ data: [UInt8], _ range: Range<Int>) -> (trip: Range<Int>, stopTimeUpdates: [Range<Int>])? {
        var trip: Range<Int>?
        var stopTimeUpdates: [Range<Int>] = []
        let read = forEachLengthDelimitedField(of: data, in: range) { number, field, _ in
            switch number {
            case 1 where trip == nil: trip = field
            case 2: stopTimeUpdates.append(field)
            default: return false
            }
            return true
        }
        guard read, let trip else { return nil }
        return (trip, stopTimeUpdates)
    }

    /// The trip_id an entity (the bytes at `range` of `data`) names in its trip update's
    /// trip descriptor (entity field 3, then 1, then 1), nil when it has none or the bytes do
    /// not read so. Only a hint for looking the message's trips up together before its
    /// entities are read (`RealtimeMessage.tripIDs()`): reading an entity decides.
    static func tripID(_ data: [UInt8], _ range: Range<Int>) -> String? {
        data.withUnsafeBytes { (whole: UnsafeRawBufferPointer) -> String? in
            /// Field `number` of the message at `range` of the whole, as a range of the whole.
            func field(_ number: UInt64, of range: Range<Int>) -> Range<Int>? {
                lastField(number, in: UnsafeRawBufferPointer(rebasing: whole[range])).map {
                    (range.lowerBound + $0.lowerBound)..<(range.lowerBound + $0.upperBound)
                }
            }
            // The entity's trip_update (3), its trip (1), its trip_id (1).
            guard let update = field(3, of: range), let trip = field(1, of: update), let tripID = field(1, of: trip) else { return nil }
            let text = UnsafeRawBufferPointer(rebasing: whole[tripID])
            guard !text.isEmpty, text.withMemoryRebound(to: UInt8.self, { UTF8Check.isValid($0.baseAddress!, $0.count) }) else {
                return nil
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// Where the last length-delimited field `number` of the message `bytes` lies in it;
    /// nil when there is none or the bytes do not read as protobuf.
    private static func lastField(_ number: UInt64, in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        var found: Range<Int>?
        do {
            try forEachField(of: bytes) { field, range in if field == number { found = range } }
        } catch {
            return nil
        }
        return found
    }

    /// Calls `body` with each field of the message at `range` of `data`: its number, where
    /// its bytes lie in `data`, and `data`'s bytes. False as soon as a field is not
    /// length-delimited, the bytes end inside one, or `body` returns false (the message is
    /// then not one the short ways above read).
    private static func forEachLengthDelimitedField(
        of data: [UInt8], in range: Range<Int>, _ body: (_ number: UInt64, _ field: Range<Int>, _ whole: UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        data.withUnsafeBytes { (whole: UnsafeRawBufferPointer) -> Bool in
            let bytes = UnsafeRawBufferPointer(rebasing: whole[range])
            var i = 0
            while i < bytes.count {
                guard let key = try? varint(bytes, &i), key & 7 == 2, let length = try? varint(bytes, &i),
                    length <= UInt64(bytes.count - i)
                else { return false }
                let field = (range.lowerBound + i)..<(range.lowerBound + i + Int(length))
                i += Int(length)
                guard body(key >> 3, field, whole) else { return false }
            }
            return true
        }
    }

    private static func skip(_ count: Int, _ bytes: UnsafeRawBufferPointer, _ i: inout Int) throws {
        guard bytes.count - i >= count else { throw Malformed(reason: "the bytes end inside a field") }
        i += count
    }

    /// A base-128 varint of at most 10 bytes.
    private static func varint(_ bytes: UnsafeRawBufferPointer, _ i: inout Int) throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard i < bytes.count else { throw Malformed(reason: "the bytes end inside a field") }
            guard shift < 64 else { throw Malformed(reason: "the bytes are not protobuf") }
            let byte = bytes[i]
            i += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
