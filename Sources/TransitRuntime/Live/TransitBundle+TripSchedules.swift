import BundleFormat
import Foundation
import TransitSQLite

extension TransitBundle {
    /// The schedule of each trip `ids` names (in `feed`; in every feed when nil), in the
    /// order of `ids`: those kept already, and the others looked up together and kept, so
    /// that live data matches a message's trips without a lookup each. The ids not kept
    /// yet are taken in byte order, each feed's `trip_ids` groups read in one ordered pass
    /// and each trip block and pattern decoded once (mostly: a pattern whose trips fall in
    /// two runs is read by each), on as many threads as the machine has cores, taking runs
    /// of the ids in turn (all finished when this returns). nil where `ids` has none and for ids the
    /// bundle has no trip for, or has in several feeds: `tripSchedule(_:feed:)` says why
    /// for each.
    ///
    /// ```swift
    /// let ids = message.tripIDs()
    /// let schedules = try bundle.prepareTripSchedules(ids, feed: nil)
    /// let first = try schedules[0] ?? bundle.tripSchedule(ids[0]!)
    /// ```
    /// - Throws: `TransitError.unknownFeed`; `.corruptBundle` for a damaged trip column.
    package func prepareTripSchedules(_ ids: [String?], feed: String?) throws -> [TripSchedule?] {
        let sources = try feed.map { [try catalog.feed(named: $0)] } ?? catalog.feeds
        var schedules = [TripSchedule?](repeating: nil, count: ids.count)
        // One look at the kept schedules for every id, under one lock.
        let missing = liveCaches.tripSchedules.withValues { kept in
            // The first message after opening finds none kept: no lookups (8 million
            // instructions for 10,000 ids).
            guard !kept.isEmpty else { return ids.indices.filter { ids[$0] != nil } }
            return ids.indices.filter { i in
                guard let id = ids[i] else { return false }
                schedules[i] = kept[TripScheduleKey(feed: feed, tripID: id)]
                return schedules[i] == nil
            }
        }
        guard !missing.isEmpty else { return schedules }
        let (wanted, askers) = Self.distinctInByteOrder(missing, of: ids, feed: feed)
        // Contiguous runs of the sorted ids (each run's lookups stay in order), taken one at
        // a time by as many threads as there are cores: a thread that shares its core with
        // another program takes fewer runs instead of holding the others up (one run per
        // thread, the slower thread set the time of all).
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, (wanted.count + 255) / 256)
        let runCount = threads == 1 ? 1 : min(8 * threads, (wanted.count + 511) / 512)
        @Sendable func run(_ r: Int) -> Range<Int> { (wanted.count * r / runCount)..<(wanted.count * (r + 1) / runCount) }
        liveCaches.tripSchedules.reserveCapacity(more: wanted.count)
        // Each run's schedules by index in the run, kept by run: moved, never copied one
        // by one (a schedule copied is a reference count or three; 10,000 of them copied
        // four times each took a tenth of a first message).
        let found = Locked([[(index: Int, schedule: TripSchedule)]](repeating: [], count: runCount))
        let next = Locked(0)
        let failure = Locked<Error?>(nil)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let r = next.withLock({ taken -> Int? in
                guard taken < runCount else { return nil }
                taken += 1
                return taken - 1
            }) {
                let run = run(r)
                do {
                    let made = try pool.with { db in try tripSchedules(wanted[run].map(\.key.tripID), in: sources, db: db) }
                    liveCaches.tripSchedules.insert(contentsOf: made.lazy.map { (wanted[run.lowerBound + $0.index].key, $0.schedule) })
                    found.withLock { $0[r] = made }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let runs = found.withLock { $0 }
        for (r, made) in runs.enumerated() {
            let start = run(r).lowerBound
            for (i, schedule) in made {
                for n in wanted[start + i].askers { schedules[askers[n]] = schedule }
            }
        }
        return schedules
    }

    /// The ids at `indices` of `ids` (each naming one), each once, in byte order, with the
    /// positions in `askers` of the indices that name it (`askers`: the indices, those of
    /// one id next to each other). Ordered first by their first 8 bytes as one integer
    /// (zeros past the end, so a shorter id never comes after a longer one it starts), then
    /// whole where those tie; the ids' bytes are read where they lie (a copy of each as an
    /// array, made and freed on the caller's thread, took a tenth of a first message).
    private static func distinctInByteOrder(_ indices: [Int], of ids: [String?], feed: String?)
        -> (wanted: [(key: TripScheduleKey, askers: Range<Int>)], askers: [Int])
    {
        let heads = indices.map { index in
            var id = ids[index]!
            return id.withUTF8 { bytes in
                bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } << UInt64(8 * (8 - min(8, bytes.count)))
            }
        }
        let order = indices.indices.sorted { a, b in
            heads[a] != heads[b] ? heads[a] < heads[b] : ByteOrder.precedes(ids[indices[a]]!, ids[indices[b]]!)
        }
        var wanted: [(key: TripScheduleKey, askers: Range<Int>)] = []
        wanted.reserveCapacity(order.count)
        for (n, k) in order.enumerated() {
            let id = ids[indices[k]]!
            if let last = wanted.last, heads[k] == heads[order[n - 1]], ByteOrder.same(last.key.tripID, id) {
                wanted[wanted.count - 1].askers = last.askers.lowerBound..<(n + 1)
            } else {
                wanted.append((TripScheduleKey(feed: feed, tripID: id), n..<(n + 1)))
            }
        }
        return (wanted, order.map { indices[$0] })
    }

    /// The schedules of the trips whose ids are `run` (sorted by their bytes, no two alike)
    /// that exactly one of `sources` has, with their index in `run`.
    private func tripSchedules(_ run: [String], in sources: [FeedCatalog.Feed], db: SQLiteDatabase)
        throws -> [(index: Int, schedule: TripSchedule)]
    {
        // Each id's trip in the one feed that has it (nil: none has it, or several do).
        var found: [(source: Int, tid: Int, pid: Int)?] = Array(repeating: nil, count: run.count)
        var feedsFound = [UInt8](repeating: 0, count: run.count)
        for (s, source) in sources.enumerated() {
            for (i, trip) in try patterns.tids(ofSorted: run, feed: source, db: db).enumerated() {
                guard let trip else { continue }
                feedsFound[i] = feedsFound[i] &+ 1
                found[i] = feedsFound[i] == 1 ? (s, trip.tid, trip.pid) : nil
            }
        }
        // By pattern: each pattern is taken once for all of its trips asked for.
        let located = found.indices.compactMap { i in found[i].map { (index: i, trip: $0) } }.sorted { $0.trip.pid < $1.trip.pid }
        let feedIDs = sources.map(\.feedID)
        var schedules: [(index: Int, schedule: TripSchedule)] = []
        schedules.reserveCapacity(located.count)
        // Patterns in pid order, read by one statement stepping forward where they lie close.
        var rows = try ForwardRows.patterns(db)
        defer { rows.finish() }
        var start = 0
        while start < located.count {
            let pid = located[start].trip.pid
            let end = located[start...].firstIndex { $0.trip.pid != pid } ?? located.count
            let group = located[start..<end]
            let (columns, trips) = try patterns.trips(group.map(\.trip.tid), ofPattern: pid, rows: &rows)
            for (i, (source, tid, _)) in group {
                // A pattern without the trip its block names (a damaged bundle): left for
                // the one-by-one lookup, which says so.
                guard let trip = trips.first(where: { $0.tid == tid }) else { continue }
                schedules.append((i, try tripSchedule(trip, pid: pid, columns: columns, feedID: feedIDs[source], db: db)))
            }
            start = end
        }
        return schedules
    }
}
