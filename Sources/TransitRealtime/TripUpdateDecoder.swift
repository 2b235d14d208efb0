import TransitJSON

/// The parts of a trip update a snapshot reads (its trip descriptor, each stop time update
/// with its events and properties), decoded by hand into swift-protobuf's own types. Only
/// the plain shape is read here: every field once, with its wire type, each enum value
/// one the reference names, each text valid UTF-8. Anything else (an unknown field or an
/// extension, a message field given twice, which protobuf merges, a newer field this
/// reader does not know) gives nil, and swift-protobuf decodes those bytes instead and
/// says what is wrong: the value is always the one swift-protobuf gives
/// (`TripUpdateDecoderTests`), in about half of its time (the parts of the 10,000 trip
/// updates of `transit-bench realtime`: 10.7-14.1 ms against 18.3-21.1 ms with the
/// framing, one core).
///
/// ```swift
/// let trip = TripUpdateDecoder.tripDescriptor(bytes) ?? (try TransitRealtime_TripDescriptor(serializedBytes: bytes))
/// ```
enum TripUpdateDecoder {
    /// A `TripDescriptor`, nil when the bytes are not of the plain shape.
    static func tripDescriptor(_ bytes: UnsafeRawBufferPointer) -> TransitRealtime_TripDescriptor? {
        var trip = TransitRealtime_TripDescriptor()
        var reader = Reader(bytes)
        while let field = reader.next() {
            switch (field.number, field.value) {
            case (1, .bytes(let text)):
                guard let value = Reader.text(text) else { return nil }
                trip.tripID = value
            case (2, .bytes(let text)):
                guard let value = Reader.text(text) else { return nil }
                trip.startTime = value
            case (3, .bytes(let text)):
                guard let value = Reader.text(text) else { return nil }
                trip.startDate = value
            case (4, .varint(let raw)):
                guard let value = TransitRealtime_TripDescriptor.ScheduleRelationship(rawValue: Int(Int32(truncatingIfNeeded: raw)))
                else { return nil }
                trip.scheduleRelationship = value
            case (5, .bytes(let text)):
                guard let value = Reader.text(text) else { return nil }
                trip.routeID = value
            case (6, .varint(let raw)): trip.directionID = UInt32(truncatingIfNeeded: raw)
            default: return nil
            }
        }
        return reader.failed ? nil : trip
    }

    /// A `StopTimeUpdate`, nil when the bytes are not of the plain shape.
    static func stopTimeUpdate(_ bytes: UnsafeRawBufferPointer) -> TransitRealtime_TripUpdate.StopTimeUpdate? {
        typealias Update = TransitRealtime_TripUpdate.StopTimeUpdate
        var update = Update()
        var reader = Reader(bytes)
        // Which message fields were read (swift-protobuf's `hasArrival` copies the event).
        var (hasArrival, hasDeparture, hasProperties) = (false, false, false)
        while let field = reader.next() {
            switch (field.number, field.value) {
            case (1, .varint(let raw)): update.stopSequence = UInt32(truncatingIfNeeded: raw)
            case (2, .bytes(let message)):
                guard !hasArrival, let event = stopTimeEvent(message) else { return nil }
                update.arrival = event
                hasArrival = true
            case (3, .bytes(let message)):
                guard !hasDeparture, let event = stopTimeEvent(message) else { return nil }
                update.departure = event
                hasDeparture = true
            case (4, .bytes(let text)):
                guard let value = Reader.text(text) else { return nil }
                update.stopID = value
            case (5, .varint(let raw)):
                guard let value = Update.ScheduleRelationship(rawValue: Int(Int32(truncatingIfNeeded: raw))) else { return nil }
                update.scheduleRelationship = value
            case (6, .bytes(let message)):
                guard !hasProperties, let properties = stopTimeProperties(message) else { return nil }
                update.stopTimeProperties = properties
                hasProperties = true
            case (7, .varint(let raw)):
                guard let value = TransitRealtime_VehiclePosition.OccupancyStatus(rawValue: Int(Int32(truncatingIfNeeded: raw)))
                else { return nil }
                update.departureOccupancyStatus = value
            default: return nil
            }
        }
        return reader.failed ? nil : update
    }

    private static func stopTimeEvent(_ bytes: UnsafeRawBufferPointer) -> TransitRealtime_TripUpdate.StopTimeEvent? {
        var event = TransitRealtime_TripUpdate.StopTimeEvent()
        var reader = Reader(bytes)
        while let field = reader.next() {
            switch (field.number, field.value) {
            case (1, .varint(let raw)): event.delay = Int32(truncatingIfNeeded: raw)
            case (2, .varint(let raw)): event.time = Int64(bitPattern: raw)
            case (3, .varint(let raw)): event.uncertainty = Int32(truncatingIfNeeded: raw)
            case (4, .varint(let raw)): event.scheduledTime = Int64(bitPattern: raw)
            default: return nil
            }
        }
        return reader.failed ? nil : event
    }

    private static func stopTimeProperties(_ bytes: UnsafeRawBufferPointer)
        -> TransitRealtime_TripUpdate.StopTimeUpdate.StopTimeProperties?
    {
        typealias Properties = TransitRealtime_TripUpdate.StopTimeUpdate.StopTimeProperties
        var properties = Properties()
        var reader = Reader(bytes)
        while let field = reader.next() {
            switch (field.number, field.value) {
            case (1, .bytes(let text)):
                guard let value = Reader.text(text) else { return nil }
                properties.assignedStopID = value
            case (2, .bytes(let text)):
                guard let value = Reader.text(text) else { return nil }
                properties.stopHeadsign = value
            case (3, .varint(let raw)):
                guard let value = Properties.DropOffPickupType(rawValue: Int(Int32(truncatingIfNeeded: raw))) else { return nil }
                properties.pickupType = value
            case (4, .varint(let raw)):
                guard let value = Properties.DropOffPickupType(rawValue: Int(Int32(truncatingIfNeeded: raw))) else { return nil }
                properties.dropOffType = value
            default: return nil
            }
        }
        return reader.failed ? nil : properties
    }

    /// Fields of one message, in order: varints and length-delimited values only (the
    /// messages above have no other wire type). `failed` once the bytes end inside a field,
    /// a varint runs past ten bytes or overflows 64 bits, or a key has field number 0 or
    /// another wire type.
    private struct Reader {
        enum Value {
            case varint(UInt64)
            case bytes(UnsafeRawBufferPointer)
        }

        private let bytes: UnsafeRawBufferPointer
        private var offset = 0
        private(set) var failed = false

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func next() -> (number: UInt64, value: Value)? {
            guard offset < bytes.count, !failed else { return nil }
            guard let key = varint(), key >> 3 > 0 else { return fail() }
            switch key & 7 {
            case 0:
                guard let value = varint() else { return fail() }
                return (key >> 3, .varint(value))
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - offset) else { return fail() }
                let value = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
                offset += Int(length)
                return (key >> 3, .bytes(value))
            default: return fail()
            }
        }

        private mutating func fail() -> (number: UInt64, value: Value)? {
            failed = true
            return nil
        }

        /// A base-128 varint of at most ten bytes whose value fits 64 bits.
        private mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: UInt64(0), to: 70, by: 7) {
                guard offset < bytes.count else { return nil }
                let byte = bytes[offset]
                offset += 1
                if shift == 63 && byte > 1 { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
            }
            return nil
        }

        /// `bytes` as text when they are valid UTF-8.
        static func text(_ bytes: UnsafeRawBufferPointer) -> String? {
            guard !bytes.isEmpty else { return "" }
            let valid = bytes.withMemoryRebound(to: UInt8.self) { UTF8Check.isValid($0.baseAddress!, $0.count) }
            return valid ? String(decoding: bytes, as: UTF8.self) : nil
        }
    }
}
