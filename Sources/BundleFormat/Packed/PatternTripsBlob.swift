/// One trip of a pattern: what `patterns.trips` holds for it. Kept in 28 bytes (every
/// packed value fits in 32 bits, see `PackedReader`; the small codes in a byte): a board
/// decodes the trips of tens of patterns and copies the ones it lists.
///
/// `public` with `@inlinable` accessors, not `package`: Swift 6.3 inlines an accessor
/// into another module only when it is public, and a call per field read cost a board
/// more than the smaller records saved. BundleFormat is no product, so apps never see it.
public struct PatternTripRecord: Hashable, Sendable {
    @usableFromInline var tid32: Int32
    @usableFromInline var start32: Int32
    @usableFromInline var sv32: Int32
    @usableFromInline var rid32: Int32
    /// Optional ids as id + 1, 0 when none.
    @usableFromInline var hidPlusOne: Int32
    @usableFromInline var shpPlusOne: Int32
    @usableFromInline var directionPlusOne: UInt8
    @usableFromInline var wheelchair8: UInt8
    @usableFromInline var bikes8: UInt8
    /// A frequencies.txt template rather than a trip that runs once.
    public var frequency: Bool

    /// The trip's integer key.
    @inlinable public var tid: Int {
        get { Int(tid32) }
        set { tid32 = Int32(newValue) }
    }
    /// The departure at the pattern's first stop, GTFS seconds (for a frequency template,
    /// its stop_times' first departure; the windows are in `frequencies`).
    @inlinable public var startTime: Int {
        get { Int(start32) }
        set { start32 = Int32(newValue) }
    }
    /// The trip's service (`calendar.sv`).
    @inlinable public var sv: Int {
        get { Int(sv32) }
        set { sv32 = Int32(newValue) }
    }
    /// The trip's route (`routes.rid`).
    @inlinable public var rid: Int {
        get { Int(rid32) }
        set { rid32 = Int32(newValue) }
    }
    /// The trip_headsign's hid, nil when the trip has none.
    @inlinable public var hid: Int? {
        get { hidPlusOne == 0 ? nil : Int(hidPlusOne) - 1 }
        set { hidPlusOne = newValue.map { Int32($0 + 1) } ?? 0 }
    }
    /// direction_id, 0 or 1, nil when none.
    @inlinable public var directionID: Int? {
        get { directionPlusOne == 0 ? nil : Int(directionPlusOne) - 1 }
        set { directionPlusOne = newValue.map { UInt8($0 + 1) } ?? 0 }
    }
    /// wheelchair_accessible: 0 unknown, 1 yes, 2 no.
    @inlinable public var wheelchairAccessible: Int {
        get { Int(wheelchair8) }
        set { wheelchair8 = UInt8(newValue) }
    }
    /// The trip's shape (`shapes.shp`), nil when it has none.
    @inlinable public var shp: Int? {
        get { shpPlusOne == 0 ? nil : Int(shpPlusOne) - 1 }
        set { shpPlusOne = newValue.map { Int32($0 + 1) } ?? 0 }
    }
    /// bikes_allowed: 0 unknown, 1 yes, 2 no.
    @inlinable public var bikesAllowed: Int {
        get { Int(bikes8) }
        set { bikes8 = UInt8(newValue) }
    }

    /// The fields as stored (the decoder's, which has checked their ranges).
    @usableFromInline init(
        tid32: Int32, start32: Int32, sv32: Int32, rid32: Int32, hidPlusOne: Int32, shpPlusOne: Int32, directionPlusOne: UInt8,
        wheelchair8: UInt8, bikes8: UInt8, frequency: Bool
    ) {
        self.tid32 = tid32
        self.start32 = start32
        self.sv32 = sv32
        self.rid32 = rid32
        self.hidPlusOne = hidPlusOne
        self.shpPlusOne = shpPlusOne
        self.directionPlusOne = directionPlusOne
        self.wheelchair8 = wheelchair8
        self.bikes8 = bikes8
        self.frequency = frequency
    }

    /// Ids and times must fit in 32 bits, the codes in a byte (the compiler checks its
    /// input's ranges; the packed column cannot hold more).
    @inlinable public init(
        tid: Int, startTime: Int, sv: Int, rid: Int, hid: Int?, directionID: Int?, wheelchairAccessible: Int, frequency: Bool,
        shp: Int? = nil, bikesAllowed: Int = 0
    ) {
        tid32 = Int32(tid)
        start32 = Int32(startTime)
        sv32 = Int32(sv)
        rid32 = Int32(rid)
        hidPlusOne = hid.map { Int32($0 + 1) } ?? 0
        shpPlusOne = shp.map { Int32($0 + 1) } ?? 0
        directionPlusOne = directionID.map { UInt8($0 + 1) } ?? 0
        wheelchair8 = UInt8(wheelchairAccessible)
        bikes8 = UInt8(bikesAllowed)
        self.frequency = frequency
    }
}

/// The `patterns.trips` column: the trips of a pattern, regular trips first by start time
/// and tid, then frequency templates by start time and tid, one record each, every number
/// a varint (see `PackedWriter`); a field that equals the previous trip's is left out:
///
///     flags       bit 0 frequency template, bits 1-7: sv, rid, hid, direction_id,
///                 wheelchair_accessible, shape, bikes_allowed follow (they differ from the
///                 previous trip's)
///     tid         signed, minus the previous trip's tid (the first: minus 0)
///     start       signed, minus the previous trip's start time
///     [sv] [rid]  unsigned
///     [hid]       unsigned, hid + 1 (0: none)
///     [direction] unsigned, direction_id + 1 (0: none)
///     [wheelchair] unsigned
///     [shape]     unsigned, shp + 1 (0: none)
///     [bikes]     unsigned
///
/// Before the first trip every field is 0 or none. A typical trip takes 3 to 5 bytes.
package enum PatternTripsBlob {
    /// What each field is compared with before the first trip.
    private static let beforeFirst = PatternTripRecord(
        tid: 0, startTime: 0, sv: 0, rid: 0, hid: nil, directionID: nil, wheelchairAccessible: 0, frequency: false)

    /// Sorts `trips` in the column's order.
    package static func canonicalOrder(_ trips: [PatternTripRecord]) -> [PatternTripRecord] {
        trips.sorted { ($0.frequency ? 1 : 0, $0.startTime, $0.tid) < ($1.frequency ? 1 : 0, $1.startTime, $1.tid) }
    }

    /// Writes `trips` in `canonicalOrder` (the order the format needs).
    package static func encode(_ trips: [PatternTripRecord]) -> [UInt8] {
        var w = PackedWriter()
        var previous = beforeFirst
        for t in canonicalOrder(trips) {
            var flags = t.frequency ? 1 : 0
            if t.sv != previous.sv { flags |= 2 }
            if t.rid != previous.rid { flags |= 4 }
            if t.hid != previous.hid { flags |= 8 }
            if t.directionID != previous.directionID { flags |= 16 }
            if t.wheelchairAccessible != previous.wheelchairAccessible { flags |= 32 }
            if t.shp != previous.shp { flags |= 64 }
            if t.bikesAllowed != previous.bikesAllowed { flags |= 128 }
            w.unsigned(flags)
            w.signed(t.tid - previous.tid)
            w.signed(t.startTime - previous.startTime)
            if flags & 2 != 0 { w.unsigned(t.sv) }
            if flags & 4 != 0 { w.unsigned(t.rid) }
            if flags & 8 != 0 { w.unsigned(t.hid.map { $0 + 1 } ?? 0) }
            if flags & 16 != 0 { w.unsigned(t.directionID.map { $0 + 1 } ?? 0) }
            if flags & 32 != 0 { w.unsigned(t.wheelchairAccessible) }
            if flags & 64 != 0 { w.unsigned(t.shp.map { $0 + 1 } ?? 0) }
            if flags & 128 != 0 { w.unsigned(t.bikesAllowed) }
            previous = t
        }
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws -> [PatternTripRecord] {
        // A trip takes at least 3 bytes (flags, tid, start).
        try .decoded(from: bytes, recordsOfAtLeast: 3) { column, add in
            try forEach(in: column) { trip in
                try add(trip)
                return true
            }
        }
    }

    /// Calls `body` with each trip in column order, keeping none (for a question about a
    /// few fields of every trip, such as the shapes of a route).
    package static func forEach(in bytes: [UInt8], _ body: (PatternTripRecord) throws -> Void) throws {
        try bytes.withUnsafeBufferPointer { column in
            try forEach(in: column) { trip in
                try body(trip)
                return true
            }
        }
    }

    /// Calls `body` with each trip in column order until it returns false (the trips a
    /// realtime message names are a few of their pattern's: the rest is not read, nor
    /// checked for damage, which whoever reads it finds).
    package static func forEach(in bytes: [UInt8], while body: (PatternTripRecord) throws -> Bool) throws {
        try bytes.withUnsafeBufferPointer { column in try forEach(in: column, body) }
    }

    @inline(__always)
    private static func forEach(in column: UnsafeBufferPointer<UInt8>, _ body: (PatternTripRecord) throws -> Bool) throws {
        var r = PackedBufferReader(column)
        var tid = 0
        var start = 0
        var sv = 0
        var rid = 0
        // Optional ids as id + 1 (0: none), as the column and the record hold them.
        var hidPlusOne = 0
        var directionPlusOne = 0
        var wheelchair = 0
        var shpPlusOne = 0
        var bikes = 0
        while !r.isAtEnd {
            let flags = try r.unsigned()
            tid += try r.signed()
            start += try r.signed()
            if flags & 2 != 0 { sv = try r.unsigned() }
            if flags & 4 != 0 { rid = try r.unsigned() }
            if flags & 8 != 0 { hidPlusOne = try r.unsigned() }
            if flags & 16 != 0 { directionPlusOne = try r.unsigned() }
            if flags & 32 != 0 { wheelchair = try r.unsigned() }
            if flags & 64 != 0 { shpPlusOne = try r.unsigned() }
            if flags & 128 != 0 { bikes = try r.unsigned() }
            // Sums of damaged deltas may leave 32 bits, an optional id plus one must stay
            // under 2^31 - 1 (as `PackedReader.optional()`), and the codes are small.
            guard PackedReader.fits32(tid), PackedReader.fits32(start), PackedReader.fits32(sv), PackedReader.fits32(rid),
                hidPlusOne < Int(Int32.max), shpPlusOne < Int(Int32.max), directionPlusOne < 256, wheelchair < 256, bikes < 256
            else { throw PackedReader.Damaged() }
            let goOn = try body(
                PatternTripRecord(
                    tid32: Int32(truncatingIfNeeded: tid), start32: Int32(truncatingIfNeeded: start), sv32: Int32(truncatingIfNeeded: sv),
                    rid32: Int32(truncatingIfNeeded: rid), hidPlusOne: Int32(truncatingIfNeeded: hidPlusOne),
                    shpPlusOne: Int32(truncatingIfNeeded: shpPlusOne), directionPlusOne: UInt8(truncatingIfNeeded: directionPlusOne),
                    wheelchair8: UInt8(truncatingIfNeeded: wheelchair), bikes8: UInt8(truncatingIfNeeded: bikes), frequency: flags & 1 != 0)
            )
            if !goOn { return }
        }
    }
}
