/// One stop of a pattern: what `patterns.stops` holds for it.
package struct PatternStopRecord: Hashable, Sendable {
    package var stopSequence: Int
    package var sid: Int
    /// Seconds from the trip's first departure.
    package var arrivalOffset: Int
    package var departureOffset: Int
    package var pickupType: Int
    package var dropOffType: Int
    package var interpolated: Bool
    /// timepoint 0 in the feed: its times for this stop are approximate.
    package var approximate: Bool
    /// The stop_headsign's hid, nil when the stop_time has none.
    package var hid: Int?

    /// Whether the times are exact: given by the feed and not marked approximate.
    package var isTimepoint: Bool { !interpolated && !approximate }

    package init(
        stopSequence: Int, sid: Int, arrivalOffset: Int, departureOffset: Int, pickupType: Int, dropOffType: Int,
        interpolated: Bool, approximate: Bool = false, hid: Int?
    ) {
        self.stopSequence = stopSequence
        self.sid = sid
        self.arrivalOffset = arrivalOffset
        self.departureOffset = departureOffset
        self.pickupType = pickupType
        self.dropOffType = dropOffType
        self.interpolated = interpolated
        self.approximate = approximate
        self.hid = hid
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
        var r = PackedReader(bytes)
        var stops: [PatternStopRecord] = []
        var sid = 0
        var departure = 0
        var sequence = 0
        while !r.isAtEnd {
            let flags = try r.unsigned()
            sid += try r.signed()
            departure += try r.signed()
            let arrival = flags & 1 != 0 ? departure - (try r.signed()) : departure
            sequence += flags & 2 != 0 ? try r.signed() : 1
            let hid = flags & 4 != 0 ? try r.unsigned() : nil
            stops.append(
                PatternStopRecord(
                    stopSequence: sequence, sid: sid, arrivalOffset: arrival, departureOffset: departure,
                    pickupType: flags >> 4 & 3, dropOffType: flags >> 6 & 3, interpolated: flags & 8 != 0, approximate: flags & 256 != 0,
                    hid: hid))
        }
        return stops
    }
}
