/// One trip of a pattern: what `patterns.trips` holds for it.
package struct PatternTripRecord: Hashable, Sendable {
    package var tid: Int
    /// The departure at the pattern's first stop, GTFS seconds (for a frequency template,
    /// its stop_times' first departure; the windows are in `frequencies`).
    package var startTime: Int
    package var sv: Int
    package var rid: Int
    /// The trip_headsign's hid, nil when the trip has none.
    package var hid: Int?
    package var directionID: Int?
    package var wheelchairAccessible: Int
    /// A frequencies.txt template rather than a trip that runs once.
    package var frequency: Bool
    /// The trip's shape (`shapes.shp`), nil when it has none.
    package var shp: Int?
    /// bikes_allowed: 0 unknown, 1 yes, 2 no.
    package var bikesAllowed: Int

    package init(
        tid: Int, startTime: Int, sv: Int, rid: Int, hid: Int?, directionID: Int?, wheelchairAccessible: Int, frequency: Bool,
        shp: Int? = nil, bikesAllowed: Int = 0
    ) {
        self.tid = tid
        self.startTime = startTime
        self.sv = sv
        self.rid = rid
        self.hid = hid
        self.directionID = directionID
        self.wheelchairAccessible = wheelchairAccessible
        self.frequency = frequency
        self.shp = shp
        self.bikesAllowed = bikesAllowed
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
        var trips: [PatternTripRecord] = []
        try forEach(in: bytes) { trips.append($0) }
        return trips
    }

    /// Calls `body` with each trip in column order, keeping none (for a question about a
    /// few fields of every trip, such as the shapes of a route).
    package static func forEach(in bytes: [UInt8], _ body: (PatternTripRecord) throws -> Void) throws {
        var r = PackedReader(bytes)
        var t = beforeFirst
        while !r.isAtEnd {
            let flags = try r.unsigned()
            t.frequency = flags & 1 != 0
            t.tid += try r.signed()
            t.startTime += try r.signed()
            if flags & 2 != 0 { t.sv = try r.unsigned() }
            if flags & 4 != 0 { t.rid = try r.unsigned() }
            if flags & 8 != 0 {
                let hid = try r.unsigned()
                t.hid = hid == 0 ? nil : hid - 1
            }
            if flags & 16 != 0 {
                let direction = try r.unsigned()
                t.directionID = direction == 0 ? nil : direction - 1
            }
            if flags & 32 != 0 { t.wheelchairAccessible = try r.unsigned() }
            if flags & 64 != 0 {
                let shp = try r.unsigned()
                t.shp = shp == 0 ? nil : shp - 1
            }
            if flags & 128 != 0 { t.bikesAllowed = try r.unsigned() }
            try body(t)
        }
    }
}
