import BundleFormat
import Foundation
import TransitSQLite

extension TransitBundle {
    /// The schedules of the trips `ids` names (in `feed`; in every feed when nil), by id:
    /// those kept already, and the others looked up together and kept, so that live data
    /// matches a message's trips without a lookup each. The ids not kept yet are taken in
    /// byte order, each feed's `trip_ids` groups read in one ordered pass and each trip
    /// block and pattern decoded once, on as many threads as the machine has cores (all
    /// finished when this returns). Ids the bundle has no trip for, or has in several
    /// feeds, are not in the answer: `tripSchedule(_:feed:)` says why for each.
    ///
    /// ```swift
    /// let schedules = try bundle.prepareTripSchedules(message.tripIDs(), feed: nil)
    /// let schedule = try schedules["T1"] ?? bundle.tripSchedule("T1")
    /// ```
    /// - Throws: `TransitError.unknownFeed`; `.corruptBundle` for a damaged trip column.
    @discardableResult
    package func prepareTripSchedules(_ ids: [String], feed: String?) throws -> [String: TripSchedule] {
        let sources = try feed.map { [try catalog.feed(named: $0)] } ?? catalog.feeds
        let (kept, missing) = tripSchedules.lookUp(ids.map { TripScheduleKey(feed: feed, tripID: $0) })
        var schedules = [String: TripSchedule](minimumCapacity: ids.count)
        for (key, schedule) in kept { schedules[key.tripID] = schedule }
        let wanted = Set(missing).map { (key: $0, bytes: Array($0.tripID.utf8)) }.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        guard !wanted.isEmpty else { return schedules }
        // Contiguous runs of the sorted ids, one per thread: each run's lookups stay in order.
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, (wanted.count + 255) / 256)
        let found = Locked<[(TripScheduleKey, TripSchedule)]>([])
        let failure = Locked<Error?>(nil)
        DispatchQueue.concurrentPerform(iterations: threads) { part in
            let run = Array(wanted[(wanted.count * part / threads)..<(wanted.count * (part + 1) / threads)])
            do {
                let made = try pool.with { db in try tripSchedules(run, in: sources, db: db) }
                tripSchedules.insert(contentsOf: made)
                found.withLock { $0 += made }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        for (key, schedule) in found.withLock({ $0 }) { schedules[key.tripID] = schedule }
        return schedules
    }

    /// The schedules of the trips `run` names (sorted by their bytes) that exactly one of
    /// `sources` has.
    private func tripSchedules(_ run: [(key: TripScheduleKey, bytes: [UInt8])], in sources: [FeedCatalog.Feed], db: SQLiteDatabase)
        throws -> [(TripScheduleKey, TripSchedule)]
    {
        // Each id's trip in the one feed that has it (nil: none has it, or several do).
        var found: [(source: Int, tid: Int, pid: Int)?] = Array(repeating: nil, count: run.count)
        var feedsFound = [UInt8](repeating: 0, count: run.count)
        let bytes = run.map(\.bytes)
        for (s, source) in sources.enumerated() {
            for (i, trip) in try patterns.tids(ofSorted: bytes, feed: source, db: db).enumerated() {
                guard let trip else { continue }
                feedsFound[i] = feedsFound[i] &+ 1
                found[i] = feedsFound[i] == 1 ? (s, trip.tid, trip.pid) : nil
            }
        }
        // By pattern: each pattern is taken once for all of its trips asked for.
        let located = found.indices.compactMap { i in found[i].map { (index: i, trip: $0) } }.sorted { $0.trip.pid < $1.trip.pid }
        var schedules: [(TripScheduleKey, TripSchedule)] = []
        schedules.reserveCapacity(located.count)
        var start = 0
        while start < located.count {
            let pid = located[start].trip.pid
            let end = located[start...].firstIndex { $0.trip.pid != pid } ?? located.count
            let pattern = try patterns.pattern(pid, db: db)
            for (i, (source, tid, _)) in located[start..<end] {
                // A pattern without the trip its block names (a damaged bundle): left for
                // the one-by-one lookup, which says so.
                guard let trip = pattern.trip(tid) else { continue }
                schedules.append((run[i].key, try tripSchedule(trip, of: pattern, feed: sources[source], db: db)))
            }
            start = end
        }
        return schedules
    }
}
