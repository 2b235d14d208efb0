import TransitJSON

/// The parts of a trip update a snapshot reads (its trip descriptor, each stop time update
/// with its events and properties), decoded by hand: the trip into swift-protobuf's own
/// type, each stop time update into plain values (`StopUpdate`). Only
/// the plain shape is read here: every field once, with its wire type, each enum value
/// one the reference names, each text valid UTF-8. Anything else (an unknown field or an
/// extension, a message field given twice, which protobuf merges, a newer field this
/// reader does not know) gives nil, and swift-protobuf decodes those bytes instead and
/// says what is wrong: the value is always the one swift-protobuf gives (read as a
/// `StopUpdate` for an update; `TripUpdateDecoderTests`), in less time
/// (bench/RESULTS.md).
///
/// ```swift
/// let trip = TripUpdateDecoder.tripDescriptor(bytes) ?? (try TransitRealtime_TripDescriptor(serializedBytes: bytes))
/// ```
enum TripUpdateDecoder {
    /// A `TripDescriptor`, nil when the bytes are not of the plain shape.
    /// `knownTripID`: the trip_id read ahead for this entity (`RealtimeMessage.tripIDs()`);
    /// when the descriptor's trip_id has its bytes, that text is used (no second copy of it,
    /// and comparing the two later is comparing one text with itself).
    static func tripDescriptor(_ bytes: UnsafeRawBufferPointer, knownTripID: String? = nil) -> TransitRealtime_TripDescriptor? {
        try? decodeTrip(bytes, knownTripID: knownTripID)
    }

    /// A `StopTimeUpdate` as plain values, nil when the bytes are not of the plain shape.
    static func stopTimeUpdate(_ bytes: UnsafeRawBufferPointer) -> StopUpdate? {
        try? decodeUpdate(bytes)
    }

    /// Bytes not of the plain shape: swift-protobuf reads them.
    private struct NotPlain: Error {}

    private static func decodeTrip(_ bytes: UnsafeRawBufferPointer, knownTripID: String?) throws -> TransitRealtime_TripDescriptor {
        var trip = TransitRealtime_TripDescriptor()
        var reader = Reader(bytes)
        while let field = try reader.next() {
            switch (field.number, field.value) {
            case (1, .bytes(let text)):
                if var known = knownTripID, known.withUTF8({ $0.elementsEqual(text) }) {
                    trip.tripID = known
                } else {
                    trip.tripID = try Reader.text(text)
                }
            case (2, .bytes(let text)): trip.startTime = try Reader.text(text)
            case (3, .bytes(let text)): trip.startDate = try Reader.text(text)
            case (4, .varint(let raw)): trip.scheduleRelationship = try Reader.named(raw)
            case (5, .bytes(let text)): trip.routeID = try Reader.text(text)
            case (6, .varint(let raw)): trip.directionID = UInt32(truncatingIfNeeded: raw)
            default: throw NotPlain()
            }
        }
        return trip
    }

    private static func decodeUpdate(_ bytes: UnsafeRawBufferPointer) throws -> StopUpdate {
        var update = StopUpdate()
        var reader = Reader(bytes)
        // The message fields read, by bit: one given twice is merged by protobuf, not the
        // plain shape.
        var messages: UInt8 = 0
        func once(_ number: UInt64) throws {
            let bit = UInt8(1) << number
            guard messages & bit == 0 else { throw NotPlain() }
            messages |= bit
        }
        while let field = try reader.next() {
            switch (field.number, field.value) {
            case (1, .varint(let raw)): update.stopSequence = UInt32(truncatingIfNeeded: raw)
            case (2, .bytes(let message)):
                try once(2)
                update.arrival = try decodeEvent(message)
            case (3, .bytes(let message)):
                try once(3)
                update.departure = try decodeEvent(message)
            case (4, .bytes(let text)): update.stopID = try Reader.text(text)
            case (5, .varint(let raw)): update.relationship = try Reader.named(raw)
            case (6, .bytes(let message)):
                try once(6)
                update.properties = try decodeProperties(message)
            case (7, .varint(let raw)): update.departureOccupancy = try Reader.named(raw)
            default: throw NotPlain()
            }
        }
        return update
    }

    private static func decodeEvent(_ bytes: UnsafeRawBufferPointer) throws -> StopUpdate.Event {
        var event = StopUpdate.Event()
        var reader = Reader(bytes)
        while let field = try reader.next() {
            switch (field.number, field.value) {
            case (1, .varint(let raw)): event.delay = Int32(truncatingIfNeeded: raw)
            case (2, .varint(let raw)): event.time = Int64(bitPattern: raw)
            case (3, .varint(let raw)): event.uncertainty = Int32(truncatingIfNeeded: raw)
            case (4, .varint(let raw)): event.scheduledTime = Int64(bitPattern: raw)
            default: throw NotPlain()
            }
        }
        return event
    }

    private static func decodeProperties(_ bytes: UnsafeRawBufferPointer) throws -> StopUpdate.Properties {
        var properties = StopUpdate.Properties()
        var reader = Reader(bytes)
        while let field = try reader.next() {
            switch (field.number, field.value) {
            case (1, .bytes(let text)): properties.assignedStopID = try Reader.text(text)
            case (2, .bytes(let text)): properties.stopHeadsign = try Reader.text(text)
            case (3, .varint(let raw)): properties.pickupType = try Reader.named(raw)
            case (4, .varint(let raw)): properties.dropOffType = try Reader.named(raw)
            default: throw NotPlain()
            }
        }
        return properties
    }

    /// Fields of one message, in order: varints and length-delimited values only (the
    /// messages above have no other wire type). Throws once the bytes end inside a field,
    /// a varint runs past ten bytes or overflows 64 bits, or a key has field number 0 or
    /// another wire type.
    private struct Reader {
        enum Value {
            case varint(UInt64)
            case bytes(UnsafeRawBufferPointer)
        }

        private let bytes: UnsafeRawBufferPointer
        private var offset = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        /// The next field, nil at the end.
        mutating func next() throws -> (number: UInt64, value: Value)? {
            guard offset < bytes.count else { return nil }
            let key = try varint()
            guard key >> 3 > 0 else { throw NotPlain() }
            switch key & 7 {
            case 0: return (key >> 3, .varint(try varint()))
            case 2:
                let length = try varint()
                guard length <= UInt64(bytes.count - offset) else { throw NotPlain() }
                let value = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
                offset += Int(length)
                return (key >> 3, .bytes(value))
            default: throw NotPlain()
            }
        }

        /// A base-128 varint of at most ten bytes whose value fits 64 bits.
        private mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: UInt64(0), to: 70, by: 7) {
                guard offset < bytes.count else { throw NotPlain() }
                let byte = bytes[offset]
                offset += 1
                if shift == 63 && byte > 1 { throw NotPlain() }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
            }
            throw NotPlain()
        }

        /// `bytes` as text, when they are valid UTF-8.
        static func text(_ bytes: UnsafeRawBufferPointer) throws -> String {
            guard !bytes.isEmpty else { return "" }
            guard bytes.withMemoryRebound(to: UInt8.self, { UTF8Check.isValid($0.baseAddress!, $0.count) }) else { throw NotPlain() }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The enum value `raw` names (an int32 on the wire), when the reference names it.
        static func named<Named: RawRepresentable>(_ raw: UInt64) throws -> Named where Named.RawValue == Int {
            guard let value = Named(rawValue: Int(Int32(truncatingIfNeeded: raw))) else { throw NotPlain() }
            return value
        }
    }
}
