/// One stop of a pattern: what `patterns.stops` holds for it. Kept in 24 bytes (every
/// packed value fits in 32 bits, see `PackedReader`): a board decodes tens of patterns,
/// and a cached pattern holds one record per stop.
///
/// `public` with `@inlinable` accessors, not `package`: Swift 6.3 inlines an accessor
/// into another module only when it is public, and a call per field read cost a board
/// more than the smaller records saved. BundleFormat is no product, so apps never see it.
public struct PatternStopRecord: Hashable, Sendable {
    @usableFromInline var sequence32: Int32
    @usableFromInline var sid32: Int32
    @usableFromInline var arrival32: Int32
    @usableFromInline var departure32: Int32
    /// hid + 1, 0 when none.
    @usableFromInline var hidPlusOne: Int32
    @usableFromInline var pickup8: UInt8
    @usableFromInline var dropOff8: UInt8
    public var interpolated: Bool
    /// timepoint 0 in the feed: its times for this stop are approximate.
    public var approximate: Bool

    /// The stop_time's stop_sequence.
    @inlinable public var stopSequence: Int {
        get { Int(sequence32) }
        set { sequence32 = Int32(newValue) }
    }
    /// The stop's integer key (`stops.sid`).
    @inlinable public var sid: Int {
        get { Int(sid32) }
        set { sid32 = Int32(newValue) }
    }
    /// Seconds from the trip's first departure.
    @inlinable public var arrivalOffset: Int {
        get { Int(arrival32) }
        set { arrival32 = Int32(newValue) }
    }
    /// Seconds from the trip's start to its departure here.
    @inlinable public var departureOffset: Int {
        get { Int(departure32) }
        set { departure32 = Int32(newValue) }
    }
    /// pickup_type, 0-3.
    @inlinable public var pickupType: Int {
        get { Int(pickup8) }
        set { pickup8 = UInt8(newValue) }
    }
    /// drop_off_type, 0-3.
    @inlinable public var dropOffType: Int {
        get { Int(dropOff8) }
        set { dropOff8 = UInt8(newValue) }
    }
    /// The stop_headsign's hid, nil when the stop_time has none.
    @inlinable public var hid: Int? {
        get { hidPlusOne == 0 ? nil : Int(hidPlusOne) - 1 }
        set { hidPlusOne = newValue.map { Int32($0 + 1) } ?? 0 }
    }

    /// The fields as stored (the decoder's, which has checked their ranges).
    @usableFromInline init(
        sequence32: Int32, sid32: Int32, arrival32: Int32, departure32: Int32, hidPlusOne: Int32, pickup8: UInt8, dropOff8: UInt8,
        interpolated: Bool, approximate: Bool
    ) {
        self.sequence32 = sequence32
        self.sid32 = sid32
        self.arrival32 = arrival32
        self.departure32 = departure32
        self.hidPlusOne = hidPlusOne
        self.pickup8 = pickup8
        self.dropOff8 = dropOff8
        self.interpolated = interpolated
        self.approximate = approximate
    }

    /// Whether the times are exact: given by the feed and not marked approximate.
    @inlinable public var isTimepoint: Bool { !interpolated && !approximate }

    /// Every number must fit in 32 bits (pickup and drop-off types in 0-3); the packed
    /// column cannot hold more, and the compiler checks its input's ranges.
    @inlinable public init(
        stopSequence: Int, sid: Int, arrivalOffset: Int, departureOffset: Int, pickupType: Int, dropOffType: Int,
        interpolated: Bool, approximate: Bool = false, hid: Int?
    ) {
        sequence32 = Int32(stopSequence)
        sid32 = Int32(sid)
        arrival32 = Int32(arrivalOffset)
        departure32 = Int32(departureOffset)
        pickup8 = UInt8(pickupType)
        dropOff8 = UInt8(dropOffType)
        self.interpolated = interpolated
        self.approximate = approximate
        hidPlusOne = hid.map { Int32($0 + 1) } ?? 0
    }
}

/// The `patterns.stops` column: a pattern's stops in order, one record each, every
/// number a varint (see `PackedWriter`):
///
///     flags       bit 0 arrival differs from departure, bit 1 stop_sequence does not step
///                 by 1, bit 2 has a stop headsign, bit 3 interpolated, bits 4-5 pickup_type,
///                 bits 6-7 drop_off_type, bit 8 approximate (timepoint 0; a flags value
///                 over 127 takes a second byte, so only such stops pay for it)
///     sid         signed, minus the previous stop's sid (the first: minus 0)
///     departure   signed, minus the previous stop's departure offset
///     [dwell]     signed, departure minus arrival                    when bit 0
///     [step]      signed, stop_sequence minus the previous one's     when bit 1 (before the first: 0)
///     [hid]       unsigned                                           when bit 2
///
/// A typical stop takes 3 to 5 bytes, against about 33 as a row with its index entry.
package enum PatternStopsBlob {
    package static func encode(_ stops: [PatternStopRecord]) -> [UInt8] {
        var w = PackedWriter()
        var previous = PatternStopRecord(
            stopSequence: 0, sid: 0, arrivalOffset: 0, departureOffset: 0, pickupType: 0, dropOffType: 0, interpolated: false, hid: nil)
        for s in stops {
            let step = s.stopSequence - previous.stopSequence
            var flags = s.pickupType << 4 | s.dropOffType << 6
            if s.arrivalOffset != s.departureOffset { flags |= 1 }
            if step != 1 { flags |= 2 }
            if s.hid != nil { flags |= 4 }
            if s.interpolated { flags |= 8 }
            if s.approximate { flags |= 256 }
            w.unsigned(flags)
            w.signed(s.sid - previous.sid)
            w.signed(s.departureOffset - previous.departureOffset)
            if flags & 1 != 0 { w.signed(s.departureOffset - s.arrivalOffset) }
            if flags & 2 != 0 { w.signed(step) }
            if let hid = s.hid { w.unsigned(hid) }
            previous = s
        }
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws -> [PatternStopRecord] {
        // A stop takes at least 3 bytes (flags, sid, departure).
        try .decoded(from: bytes, recordsOfAtLeast: 3) { column, add in try forEach(in: column, add) }
    }

    /// Appends the stops' departure and arrival offsets to `departures` and `arrivals`
    /// and returns how many stops there were: the journey planner's read, without records.
    /// Throws `PackedReader.Damaged` as `decode` does, and for a stop outside 1...`maxSid`
    /// (what was appended before the damage stays: the caller drops it). The loop of
    /// `forEach` without its records, on purpose: the same loop through a shared cursor
    /// type took markedly more instructions (bench/RESULTS.md).
    package static func appendOffsets(
        of bytes: [UInt8], departures: inout [Int32], arrivals: inout [Int32], maxSid: Int
    ) throws -> Int {
        // A stop takes at least 3 bytes (flags, sid, departure): the offsets are decoded
        // into room for that many on the stack, then appended in two copies (appending
        // zeros to overwrite and removing what was left over cost more than the decoding:
        // 82,160 patterns on 40 x Strasbourg).
        let room = bytes.count / 3
        return try withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * max(1, room)) { buffer in
            let departureOut = buffer.baseAddress!
            let arrivalOut = departureOut + room
            var count = 0
            defer {
                departures.append(contentsOf: UnsafeBufferPointer(start: departureOut, count: count))
                arrivals.append(contentsOf: UnsafeBufferPointer(start: arrivalOut, count: count))
            }
            try bytes.withUnsafeBufferPointer { column in
                var r = PackedBufferReader(column)
                var sid = 0
                var departure = 0
                while !r.isAtEnd {
                    let flags = try r.unsigned()
                    sid += try r.signed()
                    departure += try r.signed()
                    let arrival = flags & 1 != 0 ? departure - (try r.signed()) : departure
                    if flags & 2 != 0 { _ = try r.signed() }
                    if flags & 4 != 0 { _ = try r.unsigned() }
                    guard sid >= 1, sid <= maxSid, PackedReader.fits32(departure), PackedReader.fits32(arrival), count < room
                    else { throw PackedReader.Damaged() }
                    departureOut[count] = Int32(departure)
                    arrivalOut[count] = Int32(arrival)
                    count += 1
                }
            }
            return count
        }
    }

    /// Calls `body` with each stop in order, decoding into no array.
    package static func forEach(in bytes: [UInt8], _ body: (PatternStopRecord) throws -> Void) throws {
        try bytes.withUnsafeBufferPointer { column in try forEach(in: column, body) }
    }

    @inline(__always)
    private static func forEach(in column: UnsafeBufferPointer<UInt8>, _ body: (PatternStopRecord) throws -> Void) throws {
        var r = PackedBufferReader(column)
        var sid = 0
        var departure = 0
        var sequence = 0
        while !r.isAtEnd {
            let flags = try r.unsigned()
            sid += try r.signed()
            departure += try r.signed()
            let arrival = flags & 1 != 0 ? departure - (try r.signed()) : departure
            sequence += flags & 2 != 0 ? try r.signed() : 1
            let hidPlusOne = flags & 4 != 0 ? try r.unsigned() + 1 : 0
            // Sums of damaged deltas may leave 32 bits; a record holds no more.
            guard PackedReader.fits32(sid), PackedReader.fits32(departure), PackedReader.fits32(arrival), PackedReader.fits32(sequence),
                PackedReader.fits32(hidPlusOne - 1)
            else { throw PackedReader.Damaged() }
            try body(
                PatternStopRecord(
                    sequence32: Int32(truncatingIfNeeded: sequence), sid32: Int32(truncatingIfNeeded: sid),
                    arrival32: Int32(truncatingIfNeeded: arrival), departure32: Int32(truncatingIfNeeded: departure),
                    hidPlusOne: Int32(truncatingIfNeeded: hidPlusOne), pickup8: UInt8(truncatingIfNeeded: flags >> 4 & 3),
                    dropOff8: UInt8(truncatingIfNeeded: flags >> 6 & 3), interpolated: flags & 8 != 0, approximate: flags & 256 != 0))
        }
    }
}
