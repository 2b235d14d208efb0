import Foundation

/// A deliberately plain reading of a GTFS feed and of departures-semantics.md, written
/// separately from the compiler and runtime, to check them on real feeds: files come
/// from `unzip -p`, CSV is split by a simple state machine, times are placed with
/// Foundation's Calendar, and every query scans the stop's stop_times.
final class ReferenceTimetable {
    struct StopTime {
        var stop: String
        var sequence: Int
        var arrival: Int?
        var departure: Int?
        var pickup: Int
        var dropOff: Int
        var distance: Double?
        /// timepoint 0.
        var approximate = false
    }
    struct Trip {
        var id: String
        var service: String
        var route = ""
        /// direction_id as written ("" when absent) and trip_short_name.
        var direction: String
        var shortName: String
        var stopTimes: [(stop: String, sequence: Int, arrival: Int, departure: Int, pickup: Int, dropOff: Int, timepoint: Bool)]
    }
    struct Frequency {
        var start: Int
        var end: Int
        var headway: Int
        var exactTimes = false
    }
    /// A trip's call at a stop, as a departures or arrivals board lists it.
    struct Departure: Equatable, CustomStringConvertible {
        var epoch: Int
        var stopID: String
        var tripID: String
        var serviceDate: String
        var secs: Int
        var arrivalEpoch = 0
        var sequence = 0
        var remaining = 0
        var direction = ""
        var shortName = ""
        var timepoint = true
        var description: String {
            "\(tripID)@\(stopID) \(epoch) \(serviceDate) \(secs) arr \(arrivalEpoch) seq \(sequence) rem \(remaining) dir \(direction) \(shortName)"
                + (timepoint ? "" : " approximate")
        }
    }

    let timeZone: TimeZone
    var stops: [String: (lat: Double?, lon: Double?, type: Int, parent: String?)] = [:]
    var trips: [String: Trip] = [:]
    var frequencies: [String: [Frequency]] = [:]
    var weekly: [String: (days: [Bool], start: String, end: String)] = [:]
    var exceptions: [String: [String: Int]] = [:]
    /// Trips with at least one stop_time whose times were interpolated (or repaired).
    var interpolatedTrips: Set<String> = []
    /// stop_id -> (trip_id, index in the trip)
    var byStop: [String: [(String, Int)]] = [:]
    var maxTime = 0

    /// The rows of file `name` in the feed `zip`, read with `unzip -p` (none when it is absent).
    static func table(_ name: String, in zip: String) throws -> [Row] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-p", zip, name]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return parseCSV(data)
    }

    init(zip: String) throws {
        func table(_ name: String) throws -> [Row] { try Self.table(name, in: zip) }
        let agencies = try table("agency.txt")
        timeZone = TimeZone(identifier: agencies.compactMap { $0["agency_timezone"] }.first { TimeZone(identifier: $0) != nil } ?? "UTC")!
        for row in try table("stops.txt") {
            guard let id = row["stop_id"], !id.isEmpty, stops[id] == nil else { continue }
            stops[id] = (
                Double(row["stop_lat"] ?? ""), Double(row["stop_lon"] ?? ""), Int(row["location_type"] ?? "") ?? 0,
                (row["parent_station"] ?? "").isEmpty ? nil : row["parent_station"]
            )
        }
        for row in try table("calendar.txt") {
            guard let id = row["service_id"], weekly[id] == nil, let start = row["start_date"], let end = row["end_date"] else { continue }
            let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map { row[$0] == "1" }
            weekly[id] = (days, start, end)
        }
        for row in try table("calendar_dates.txt") {
            guard let id = row["service_id"], let date = row["date"], let type = Int(row["exception_type"] ?? "") else { continue }
            if exceptions[id, default: [:]][date] == nil { exceptions[id, default: [:]][date] = type }
        }
        var services: [String: String] = [:]
        var details: [String: (direction: String, shortName: String, route: String)] = [:]
        for row in try table("trips.txt") {
            guard let id = row["trip_id"], let service = row["service_id"], services[id] == nil else { continue }
            services[id] = service
            let direction = row["direction_id"] ?? ""
            details[id] = (
                ["0", "1"].contains(direction) ? direction : "", row["trip_short_name"] ?? "", row["route_id"] ?? ""
            )
        }
        var raw: [String: [StopTime]] = [:]
        for row in try table("stop_times.txt") {
            guard let trip = row["trip_id"], services[trip] != nil, let stop = row["stop_id"], stops[stop] != nil,
                let sequence = Int(row["stop_sequence"] ?? "")
            else { continue }
            let arrival = Self.seconds(row["arrival_time"])
            let departure = Self.seconds(row["departure_time"])
            raw[trip, default: []].append(
                StopTime(
                    stop: stop, sequence: sequence, arrival: arrival ?? departure, departure: departure ?? arrival,
                    pickup: Int(row["pickup_type"] ?? "") ?? 0, dropOff: Int(row["drop_off_type"] ?? "") ?? 0,
                    distance: Double(row["shape_dist_traveled"] ?? ""),
                    approximate: row["timepoint"] == "0"))
        }
        for (id, rows) in raw {
            let sorted = rows.sorted { $0.sequence < $1.sequence }
            guard sorted.count >= 2, sorted.first?.arrival != nil, sorted.last?.arrival != nil,
                let service = services[id], let times = interpolate(sorted)
            else { continue }
            trips[id] = Trip(
                id: id, service: service, route: details[id]?.route ?? "", direction: details[id]?.direction ?? "",
                shortName: details[id]?.shortName ?? "", stopTimes: times)
            if sorted.contains(where: { $0.arrival == nil }) || Swift.zip(sorted, times).contains(where: { $0.arrival != $1.arrival }) {
                interpolatedTrips.insert(id)
            }
            for (index, st) in times.enumerated() { byStop[st.stop, default: []].append((id, index)) }
            maxTime = max(maxTime, times.last!.departure)
        }
        for row in try table("frequencies.txt") {
            guard let trip = row["trip_id"], let start = Self.seconds(row["start_time"]), let end = Self.seconds(row["end_time"]),
                let headway = Int(row["headway_secs"] ?? ""), headway > 0, end > start
            else { continue }
            frequencies[trip, default: []].append(
                Frequency(start: start, end: end, headway: headway, exactTimes: row["exact_times"] == "1"))
            if let span = trips[trip].map({ $0.stopTimes.last!.departure - $0.stopTimes[0].departure }) {
                maxTime = max(maxTime, end + span)
            }
        }
    }

    /// departures-semantics.md, "Untimed stops", read afresh in three steps: (1) the repair
    /// of times that go backwards, (2) the trip's measure of distance, (3) each run of
    /// untimed stops between two timed ones placed by that measure, or by position.
    private func interpolate(_ rows: [StopTime]) -> [(
        stop: String, sequence: Int, arrival: Int, departure: Int, pickup: Int, dropOff: Int, timepoint: Bool
    )]? {
        // (1) A stop_time earlier than the last one kept as timed, or departing before it
        // arrives, loses both its times.
        var times: [(arrival: Int, departure: Int)?] = []
        var keptDeparture: Int?
        for row in rows {
            guard let a = row.arrival, let d = row.departure else {
                times.append(nil)
                continue
            }
            let backwards = d < a || (keptDeparture.map { a < $0 || d < $0 } ?? false)
            times.append(backwards ? nil : (a, d))
            if !backwards { keptDeparture = d }
        }
        guard times.first! != nil, times.last! != nil else { return nil }

        // (2) shape_dist_traveled on every row and never decreasing, else great circles.
        let written = rows.map(\.distance)
        let byShape = !written.contains(nil) && zip(written, written.dropFirst()).allSatisfy { $0! <= $1! }
        func position(_ stop: String) -> (Double, Double)? {
            guard let lat = stops[stop]?.lat, let lon = stops[stop]?.lon else { return nil }
            guard (-90...90).contains(lat), (-180...180).contains(lon), !(lat == 0 && lon == 0) else { return nil }
            return (lat, lon)
        }
        func greatCircle(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let radius = 6_371_008.8
            let (lat1, lat2) = (a.0 * .pi / 180, b.0 * .pi / 180)
            let dLat = lat2 - lat1
            let dLon = (b.1 - a.1) * .pi / 180
            let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
            return 2 * radius * asin(min(1, h.squareRoot()))
        }
        /// Distance along the trip from row `from` to each row of from...to; nil when the
        /// measure cannot place every one of them.
        func along(_ from: Int, _ to: Int) -> [Double]? {
            if byShape { return (from...to).map { written[$0]! - written[from]! } }
            var out = [0.0]
            var here = position(rows[from].stop)
            for k in (from + 1)...to {
                guard let a = here, let b = position(rows[k].stop) else { return nil }
                out.append(out.last! + greatCircle(a, b))
                here = b
            }
            return out
        }

        // (3) Runs of untimed rows between timed anchors.
        var result: [(stop: String, sequence: Int, arrival: Int, departure: Int, pickup: Int, dropOff: Int, timepoint: Bool)] = []
        var k = 0
        while k < rows.count {
            if let t = times[k] {
                result.append(
                    (rows[k].stop, rows[k].sequence, t.arrival, t.departure, rows[k].pickup, rows[k].dropOff, !rows[k].approximate))
                k += 1
                continue
            }
            let before = k - 1
            var after = k
            while times[after] == nil { after += 1 }
            let leave = Double(times[before]!.departure)
            let reach = Double(times[after]!.arrival)
            let distances = along(before, after)
            let total = distances?.last ?? 0
            for j in k..<after {
                let share: Double
                if let distances, total > 0 {
                    share = distances[j - before] / total
                } else {
                    share = Double(j - before) / Double(after - before)
                }
                let t = Int((leave + (reach - leave) * share).rounded(.down))
                result.append((rows[j].stop, rows[j].sequence, t, t, rows[j].pickup, rows[j].dropOff, false))
            }
            k = after
        }
        return result
    }

    func runs(_ service: String, on date: String, weekday: Int) -> Bool {
        if let type = exceptions[service]?[date] { return type == 1 }
        guard let w = weekly[service] else { return false }
        return w.start <= date && date <= w.end && w.days[weekday]
    }

    /// GTFS time 0 of a service day: noon local time minus 12 hours.
    func dayStart(_ y: Int, _ m: Int, _ d: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: 12))!
        return Int(noon.timeIntervalSince1970) - 43_200
    }

    /// The service days `offsets` days from `day` (year, month, day), in the feed's time zone.
    func days(around day: (Int, Int, Int), offsets: ClosedRange<Int>) -> [(Int, Int, Int)] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = calendar.date(from: DateComponents(year: day.0, month: day.1, day: day.2, hour: 12))!
        return offsets.map { offset in
            let c = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: offset, to: noon)!)
            return (c.year!, c.month!, c.day!)
        }
    }

    /// Departures at `stop` (or a station's children) in [from, to), in the contract's order.
    func departures(stop: String, from: Int, to: Int) -> [Departure] { calls(stop: stop, from: from, to: to, arrivals: false) }

    /// Departures, or arrivals (alighting allowed, not a trip's first stop, at the arrival
    /// time), at `stop` (or a station's children) in [from, to), in the contract's order.
    func calls(stop: String, from: Int, to: Int, arrivals: Bool) -> [Departure] {
        var targets = [stop]
        if stops[stop]?.type == 1 { targets += stops.filter { $0.value.parent == stop }.map(\.key) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let first = calendar.startOfDay(for: Date(timeIntervalSince1970: TimeInterval(from)))
        var result: [Departure] = []
        for offset in (-(maxTime / 86_400 + 1))...2 {
            let day = calendar.date(byAdding: .day, value: offset, to: first)!
            let c = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
            let date = String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
            let iso = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
            let weekday = (c.weekday! + 5) % 7
            let base = dayStart(c.year!, c.month!, c.day!)
            for target in targets {
                for (tripID, index) in byStop[target] ?? [] {
                    let trip = trips[tripID]!
                    let call = trip.stopTimes[index]
                    let listed = arrivals ? index > 0 && call.dropOff != 1 : index < trip.stopTimes.count - 1 && call.pickup != 1
                    guard listed, runs(trip.service, on: date, weekday: weekday) else { continue }
                    let offsetSecs = (arrivals ? call.arrival : call.departure) - trip.stopTimes[0].departure
                    let arrivalOffset = call.arrival - trip.stopTimes[0].departure
                    var starts = [trip.stopTimes[0].departure]
                    if let windows = frequencies[tripID] {
                        // A start instant two windows both produce counts once.
                        starts = Array(Set(windows.flatMap { w in stride(from: w.start, to: w.end, by: w.headway).map { $0 } }))
                    }
                    for start in starts {
                        let secs = start + offsetSecs
                        if base + secs >= from && base + secs < to {
                            // The board's time, and the departure's own fields.
                            let departure = start + call.departure - trip.stopTimes[0].departure
                            result.append(
                                Departure(
                                    epoch: base + secs, stopID: target, tripID: tripID, serviceDate: iso, secs: departure,
                                    arrivalEpoch: base + start + arrivalOffset, sequence: call.sequence,
                                    remaining: trip.stopTimes.count - index - 1, direction: trip.direction, shortName: trip.shortName,
                                    timepoint: call.timepoint))
                        }
                    }
                }
            }
        }
        return result.sorted { a, b in
            if a.epoch != b.epoch { return a.epoch < b.epoch }
            if a.stopID != b.stopID { return a.stopID.utf8.lexicographicallyPrecedes(b.stopID.utf8) }
            return a.tripID.utf8.lexicographicallyPrecedes(b.tripID.utf8)
        }
    }

    static func seconds(_ text: String?) -> Int? {
        let parts = (text ?? "").split(separator: ":")
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]) else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// A field without the spaces and tabs around it. Foundation's `trimmingCharacters(in:)`
    /// costs more than the rest of the reading on Linux, so it only sees the rare field that
    /// begins or ends with a non-ASCII byte (a Unicode space, say, which it also trims).
    static func trimmed(_ field: [UInt8]) -> String {
        var start = field.startIndex
        var end = field.endIndex
        while start < end, field[start] == 0x20 || field[start] == 0x09 { start += 1 }
        while end > start, field[end - 1] == 0x20 || field[end - 1] == 0x09 { end -= 1 }
        let text = String(decoding: field[start..<end], as: UTF8.self)
        guard start < end, field[start] >= 0x80 || field[end - 1] >= 0x80 else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// A CSV row whose fields are found by the header's names (the first column of a name wins).
    struct Row {
        let columns: [String: Int]
        let values: [String]
        subscript(key: String) -> String? {
            guard let column = columns[key], column < values.count else { return nil }
            return values[column]
        }
    }

    /// RFC 4180 rows, their fields found by the (trimmed) header's names.
    static func parseCSV(_ data: Data) -> [Row] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var i = 0
        func endField() {
            row.append(trimmed(field))
            field.removeAll(keepingCapacity: true)
        }
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == 0x22 && i + 1 < bytes.count && bytes[i + 1] == 0x22 {
                    field.append(0x22)
                    i += 2
                    continue
                }
                if b == 0x22 { quoted = false } else { field.append(b) }
            } else if b == 0x22 && field.isEmpty {
                quoted = true
            } else if b == 0x2C {
                endField()
            } else if b == 0x0A || b == 0x0D {
                endField()
                if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
                row = []
                if b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
            } else {
                field.append(b)
            }
            i += 1
        }
        if !field.isEmpty || !row.isEmpty {
            endField()
            rows.append(row)
        }
        guard let header = rows.first else { return [] }
        var columns: [String: Int] = [:]
        for (column, name) in header.enumerated() where columns[name] == nil { columns[name] = column }
        return rows.dropFirst().map { Row(columns: columns, values: $0) }
    }
}
