import BundleFormat
import Foundation
import SwiftProtobuf
import TestKit
import TransitRealtime
import TransitRuntime

/// `transit-bench realtime BUNDLE N [CAPTURE.pb]`: decoding, matching and indexing a real
/// capture (the BART one against its bundle), then a synthetic FULL_DATASET of N trip
/// updates over BUNDLE (a delay at one stop of N trips running at the boards' times), its
/// memory, and boards with and without it.
extension TransitBench {
    static func realtime(_ path: String, _ count: Int, capture: String?) throws {
        if let capture {
            try timeCapture(path, capture)
            return
        }
        let bundle = try TransitBundle(path: path)
        let queries = try randomStopsAndTimes(bundle, 2000)
        // The message's time: the boards' times are spread over the timetable, so the
        // snapshot is judged fresh at each board's own time below.
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        var seen = Set<String>()
        var generator = seededRandom()
        for q in queries where feed.entity.count < count {
            for d in try bundle.departures(from: q.0, feed: q.1, at: .instant(q.2), within: 7200, limit: 200)
            where feed.entity.count < count {
                let key = "\(d.tripID)/\(d.serviceDate)/\(d.tripStartLocal?.description ?? "")"
                guard seen.insert(key).inserted else { continue }
                var entity = TransitRealtime_FeedEntity()
                entity.id = "\(feed.entity.count)"
                entity.tripUpdate.trip.tripID = d.tripID
                entity.tripUpdate.trip.startDate = d.serviceDate.description.replacingOccurrences(of: "-", with: "")
                if let start = d.tripStartLocal {
                    let secs = d.departureSecs - d.departureLocal.secondsOfDay + start.secondsOfDay
                    entity.tripUpdate.trip.startTime = String(format: "%02d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60)
                }
                var stop = TransitRealtime_TripUpdate.StopTimeUpdate()
                stop.stopSequence = UInt32(d.stopSequence)
                stop.departure.delay = Int32.random(in: 0...600, using: &generator)
                entity.tripUpdate.stopTimeUpdate = [stop]
                feed.entity.append(entity)
            }
        }
        feed.header.timestamp = UInt64(queries[0].2.timeIntervalSince1970)
        let bytes = try feed.serializedData()
        let before = residentBytes()
        let start = DispatchTime.now().uptimeNanoseconds
        let snapshot = try RealtimeSnapshot(messages: [try RealtimeMessage(data: bytes)], bundle: bundle)
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let grown = Double(residentBytes() - before) / 1e6
        print(
            String(
                format:
                    "synthetic FULL_DATASET: %d trip updates (%d bytes) decoded, matched, indexed in %.1f ms; resident memory +%.1f MB; %d matched",
                feed.entity.count, bytes.count, ms, grown, snapshot.report.tripUpdatesMatched))
        // The same message again: an app applies a feed's message every 30 s or so to one
        // open bundle, so the trips' ids and patterns are known from the second on.
        // Each snapshot is freed after its time is taken (an app keeps it until the next).
        var again: [Double] = []
        for _ in 0..<9 {
            let start = DispatchTime.now().uptimeNanoseconds
            let made = try RealtimeSnapshot(messages: [try RealtimeMessage(data: bytes)], bundle: bundle)
            again.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            withExtendedLifetime(made) {}
        }
        again.sort()
        print(String(format: "  the same message again, 9 times: median %.1f ms (min %.1f)", again[4], again[0]))
        // Where the time goes: decoding alone (the framing, then every entity as a snapshot
        // reads it: a trip update alone where the entity holds only that, and as whole
        // entities), and reading each trip's schedule alone.
        var clock = DispatchTime.now().uptimeNanoseconds
        let decoded = try RealtimeMessage(data: bytes)
        let updates = (0..<decoded.entityCount).compactMap { decoded.tripUpdateEntity($0) }
        let decodeMS = Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e6
        clock = DispatchTime.now().uptimeNanoseconds
        let entities = try (0..<decoded.entityCount).map { try decoded.entity($0) }
        let wholeMS = Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e6
        var scheduleMS: [Double] = []
        for _ in 0..<2 {
            clock = DispatchTime.now().uptimeNanoseconds
            for entity in entities {
                let day = ServiceDate(CivilDate(yyyymmdd: Int(entity.tripUpdate.trip.startDate)!)!)
                _ = try bundle.tripSchedule(entity.tripUpdate.trip.tripID, on: day)
            }
            scheduleMS.append(Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e6)
        }
        print(
            String(
                format:
                    "  decoding alone %.1f ms (%d trip updates alone; as whole entities %.1f ms); reading the %d trips' schedules again %.1f ms, a third time %.1f ms",
                decodeMS, updates.count, wholeMS, feed.entity.count, scheduleMS[0], scheduleMS[1]))
        // The first refresh after launch: the same message on a bundle opened just before
        // (nothing read from it yet), five times, each with a new instance.
        var cold: [Double] = []
        for _ in 0..<5 {
            let opened = try TransitBundle(path: path)
            let start = DispatchTime.now().uptimeNanoseconds
            let made = try RealtimeSnapshot(messages: [try RealtimeMessage(data: bytes)], bundle: opened)
            cold.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            withExtendedLifetime(made) {}
        }
        cold.sort()
        print(String(format: "  on a freshly opened bundle, 5 times: median %.1f ms (min %.1f)", cold[2], cold[0]))
        let fresh = RealtimeFreshness(tripUpdates: .infinity, vehicles: .infinity)
        try measure("board (60 min, limit 20) offline", queries.count) { i in
            try bundle.departures(from: queries[i].0, feed: queries[i].1, at: .instant(queries[i].2), within: 3600, limit: 20).count
        }
        try measure("board (60 min, limit 20) live", queries.count) { i in
            try bundle.departures(
                from: queries[i].0, feed: queries[i].1, at: .instant(queries[i].2), within: 3600, limit: 20, realtime: snapshot,
                now: queries[i].2, freshness: fresh
            ).departures.count
        }
        // Journeys on the same snapshot: what live data costs a query (its trips are put in
        // the planner's terms once, when the snapshot is made).
        var trips: [(from: JourneyPlace, to: JourneyPlace, at: Date)] = []
        for i in 0..<200 where queries[i].1 == queries[1000 + i].1 {
            let from = JourneyPlace.stop(queries[i].0, feed: queries[i].1)
            let to = JourneyPlace.stop(queries[1000 + i].0, feed: queries[1000 + i].1)
            trips.append((from, to, queries[i].2))
        }
        try measure("journeys, depart at, offline", trips.count) { i in
            try bundle.journeys(from: trips[i].from, to: trips[i].to, departingAt: .instant(trips[i].at)).count
        }
        try measure("journeys, depart at, live", trips.count) { i in
            let q = trips[i]
            return try bundle.journeys(
                from: q.from, to: q.to, departingAt: .instant(q.at), realtime: snapshot, now: q.at, freshness: fresh
            ).count
        }
        try measure("journeys, arrive by, live", trips.count) { i in
            let q = trips[i]
            let by = QueryTime.instant(q.at.addingTimeInterval(3600))
            return try bundle.journeys(from: q.from, to: q.to, arrivingBy: by, realtime: snapshot, now: q.at, freshness: fresh).count
        }
    }

    /// A real capture against its bundle: decode, match and index, best of repeated runs.
    private static func timeCapture(_ path: String, _ capture: String) throws {
        let bundle = try TransitBundle(path: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: capture))
        var samples: [Double] = []
        var report = RealtimeReport()
        for _ in 0..<50 {
            let start = DispatchTime.now().uptimeNanoseconds
            report = try RealtimeSnapshot(messages: [try RealtimeMessage(data: data)], bundle: bundle).report
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        print(
            String(
                format: "%@: %d trip updates, %d stop time updates: decode + match + index median %.2f ms (min %.2f)",
                (capture as NSString).lastPathComponent, report.tripUpdates, report.stopTimeUpdates, samples[samples.count / 2], samples[0])
        )
    }

    /// The process's resident set, from /proc (0 where there is none).
    static func residentBytes() -> Int { memoryBytes().resident }

    /// The process's resident set and the part of it that is not file-backed (the heap,
    /// which cannot be paged out: on iOS the dirty memory an app is judged by), from
    /// /proc/self/statm (zeros where there is none). The rest are pages of mapped files,
    /// the bundle's among them: clean, evicted under pressure and read again.
    static func memoryBytes() -> (resident: Int, anonymous: Int) {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return (0, 0) }
        let fields = text.split(separator: " ").compactMap { Int($0) }
        guard fields.count > 2 else { return (0, 0) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        return (fields[1] * page, (fields[1] - fields[2]) * page)
    }
}
