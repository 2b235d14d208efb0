import Foundation

/// stop_times.txt, the large one: read row by row into columns, with ids looked up
/// as bytes. Rows are grouped into trips later, so the file may be in any order.
enum StopTimesFile {
    static func read(_ t: CSVTable, into feed: FeedData) throws {
        let tripColumn = t.column("trip_id")
        let arrivalColumn = t.column("arrival_time")
        let departureColumn = t.column("departure_time")
        let stopColumn = t.column("stop_id")
        let sequenceColumn = t.column("stop_sequence")
        let headsignColumn = t.column("stop_headsign")
        let pickupColumn = t.column("pickup_type")
        let dropColumn = t.column("drop_off_type")
        let distanceColumn = t.column("shape_dist_traveled")
        let timepointColumn = t.column("timepoint")
        var columns = FeedData.StopTimes()
        columns.hasDistances = distanceColumn >= 0
        columns.hasTimepoints = timepointColumn >= 0
        columns.hasHeadsigns = headsignColumn >= 0
        var lastTripKey: [UInt8] = []
        var lastTrip: Int32 = -1
        var guess = StopSequenceGuess()
        while try t.next() {
            // Columns sized once from the first rows, instead of doubling up to 2x the rows.
            if t.rowCount == 50_000, let rows = t.estimatedRowCount { columns.reserve(rows) }
            // The trip: most files are sorted by trip, so compare with the previous row first.
            let tripKey = t.bytes(tripColumn)
            var trip = lastTrip
            if tripKey.count != lastTripKey.count || !lastTripKey.withUnsafeBufferPointer({ memcmpEqual($0, tripKey) }) {
                lastTripKey.removeAll(keepingCapacity: true)
                lastTripKey.append(contentsOf: tripKey)
                lastTrip = feed.tripIDs.find(tripKey) ?? -1
                trip = lastTrip
                guess.startTrip()
            }
            guard trip >= 0 else {
                t.unknownReference(column: tripColumn, to: FeedReader.tripSources, message: "trip_id names no trip; row dropped")
                continue
            }
            // The stop: mostly the one the previous trip had at this position (accepted then).
            let stopKey = t.bytes(stopColumn)
            let guessed = guess.stop(matching: stopKey)
            guard let stop = guessed ?? feed.stopIDs.find(stopKey) else {
                t.unknownReference(
                    column: stopColumn, to: ["stops.txt"], entity: lastTripKeyString(lastTripKey),
                    message: "stop_id names no stop; row dropped")
                continue
            }
            if guessed == nil {
                let locationType = feed.stops[Int(stop)].locationType
                guard locationType == 0 || locationType == 4 else {
                    t.warn(
                        .badValue, column: stopColumn, entity: lastTripKeyString(lastTripKey),
                        message: "stop_times must name a stop or platform, not location_type \(locationType); row dropped")
                    continue
                }
            }
            guess.record(stopKey, id: stop)
            guard let sequence = FieldParser.integer(t.bytes(sequenceColumn)), sequence >= 0, sequence <= Int(Int32.max) else {
                t.warn(
                    .badSequence, column: sequenceColumn, entity: lastTripKeyString(lastTripKey),
                    message: "stop_sequence must be a non-negative integer; row dropped")
                continue
            }
            var arrival = time(t, arrivalColumn, lastTripKey)
            var departure = time(t, departureColumn, lastTripKey)
            if (arrival < 0) != (departure < 0) {
                let missing = arrival < 0 ? arrivalColumn : departureColumn
                t.warn(
                    .oneSidedTime, column: missing, entity: lastTripKeyString(lastTripKey),
                    message:
                        "\(arrival < 0 ? "arrival_time" : "departure_time") is empty while \(arrival < 0 ? "departure_time" : "arrival_time") is set; copied from it"
                )
                if arrival < 0 { arrival = departure } else { departure = arrival }
            }
            if max(arrival, departure) > GTFSTime.limit {
                t.warn(
                    .timeLimit, column: departure > GTFSTime.limit ? departureColumn : arrivalColumn,
                    entity: lastTripKeyString(lastTripKey),
                    message: "time is past 168:00:00, the 7-day limit of a trip; trip dropped")
                feed.refusedTrips.insert(trip)
                continue
            }
            if max(arrival, departure) > GTFSTime.lateWarning {
                t.warn(
                    .lateTime, column: departure > GTFSTime.lateWarning ? departureColumn : arrivalColumn,
                    entity: lastTripKeyString(lastTripKey),
                    message: "time is past 48:00:00 (the trip runs into its third service day); kept")
            }
            var headsign: Int32 = -1
            if !t.isEmpty(headsignColumn) { headsign = feed.stopHeadsigns.intern(t.bytes(headsignColumn)).id }
            var distance = Double.nan
            if !t.isEmpty(distanceColumn) {
                if let value = FieldParser.double(t.bytes(distanceColumn)), value >= 0 {
                    distance = value
                } else {
                    t.warn(
                        .badValue, column: distanceColumn, entity: lastTripKeyString(lastTripKey),
                        message: "shape_dist_traveled is not a non-negative number; ignored")
                }
            }
            columns.trips.append(trip)
            columns.sequence.append(Int32(sequence))
            columns.stop.append(stop)
            columns.arrival.append(arrival)
            columns.departure.append(departure)
            let pickup = UInt8(t.integer(pickupColumn, in: 0...3, default: 0))
            let dropOff = UInt8(t.integer(dropColumn, in: 0...3, default: 0))
            columns.boarding.append(pickup | dropOff << 2)
            if columns.hasHeadsigns { columns.headsigns.append(headsign) }
            if columns.hasDistances { columns.distances.append(distance) }
            if columns.hasTimepoints {
                // Empty means exact; a timepoint of 1 on an untimed row is an interpolated time anyway.
                columns.approximate.append(t.integer(timepointColumn, in: 0...1, default: 1, entity: lastTripKeyString(lastTripKey)) == 0)
            }
            columns.lines.append(Int32(clamping: t.line))
        }
        feed.stopTimes = columns
    }

    /// A time in seconds, or -1 when empty or malformed (malformed ones are reported).
    private static func time(_ t: CSVTable, _ column: Int, _ trip: [UInt8]) -> Int32 {
        let field = t.bytes(column)
        if field.isEmpty { return -1 }
        if let seconds = FieldParser.time(field) { return seconds }
        t.warn(.badTime, column: column, entity: lastTripKeyString(trip), message: "not a H:MM:SS time; treated as empty")
        return -1
    }

    private static func lastTripKeyString(_ key: [UInt8]) -> String { String(decoding: key, as: UTF8.self) }

    private static func memcmpEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }
}
