import BundleFormat
import TransitSQLite

/// The ids of every table `--base` keeps stable, read from an earlier bundle: what exists
/// in both versions keeps its integer id, so a patch between them only carries what changed.
struct BundleIDs {
    var agencies = IDTable<FeedTextKey>()
    var stops = IDTable<FeedTextKey>()
    var routes = IDTable<FeedTextKey>()
    var services = IDTable<FeedTextKey>()
    var trips = IDTable<FeedTextKey>()
    var patterns = IDTable<PatternKey>()
    var headsigns = IDTable<String>()
    var shapes = IDTable<FeedTextKey>()

    /// A pattern by its feed and stops (sids and hids are themselves stable).
    struct PatternKey: Hashable {
        var feed: String
        var stops: [BundleModel.PatternStop]

        /// One cheap FNV-1a pass over the stops (a pattern is looked up once per trip);
        /// equal keys are then confirmed by `==`.
        func hash(into hasher: inout Hasher) {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            func mix(_ part: UInt64) { h = (h ^ part) &* 0x100_0000_01b3 }
            for s in stops {
                mix(UInt64(UInt32(bitPattern: s.sid)) << 32 | UInt64(UInt32(bitPattern: s.stopSequence)))
                mix(UInt64(UInt32(bitPattern: s.arrivalOffset)) << 32 | UInt64(UInt32(bitPattern: s.departureOffset)))
                mix(
                    UInt64(s.pickupType) | UInt64(s.dropOffType) << 8 | (s.interpolated ? 1 << 16 : 0) | (s.approximate ? 1 << 17 : 0)
                        | UInt64(UInt32(bitPattern: s.hid)) << 24)
            }
            hasher.combine(h)
            hasher.combine(feed)
        }
    }

    init() {}

    /// The ids of the bundle at `path`.
    /// - Throws: `FatalDiagnostic(.unreadableInput)` when it is not a bundle of this schema.
    init(base path: String) throws {
        func refuse(_ why: String) -> FatalDiagnostic {
            FatalDiagnostic(.unreadableInput, file: path, message: "cannot use --base: \(why)")
        }
        let db: SQLiteDatabase
        do {
            db = try SQLiteDatabase(path: path, writable: false)
            guard let version = try BundleSchema.headerVersion(of: db) else { throw refuse("not a transit bundle") }
            guard version == BundleSchema.version else {
                throw refuse("the bundle has schema \(version), this compiler writes \(BundleSchema.version); compile without --base")
            }
        } catch let error as SQLiteError {
            throw refuse(error.message)
        }
        do {
            try read(db)
        } catch let error as SQLiteError {
            throw refuse(error.message)
        } catch is PackedReader.Damaged, is ServiceBlock.Damaged {
            throw refuse("a packed column is damaged")
        }
    }

    private mutating func read(_ db: SQLiteDatabase) throws {
        var feedOf: [Int: String] = [:]
        let feeds = try db.prepare("SELECT fid, feed_id FROM feeds")
        while try feeds.step() { feedOf[feeds.int(0)] = feeds.string(1) }
        func table(_ sql: String) throws -> IDTable<FeedTextKey> {
            var ids: [FeedTextKey: Int] = [:]
            let q = try db.prepare(sql)
            while try q.step() { ids[FeedTextKey(feed: feedOf[q.int(0)] ?? "", text: q.string(1))] = q.int(2) }
            return IDTable(base: ids)
        }
        agencies = try table("SELECT fid, coalesce(agency_id, ''), aid FROM agencies")
        stops = try table("SELECT fid, stop_id, sid FROM stops")
        routes = try table("SELECT fid, route_id, rid FROM dict_route")
        shapes = try table("SELECT fid, shape_id, shp FROM shapes")
        var tripIDs: [FeedTextKey: Int] = [:]
        var feedOfTid: [Int: String] = [:]
        let groups = try db.prepare("SELECT fid, tids FROM trip_ids")
        while try groups.step() {
            for tid in try IDGroup.decode(groups.blob(1)) { feedOfTid[tid] = feedOf[groups.int(0)] ?? "" }
        }
        let blocks = try db.prepare("SELECT first_tid, entries FROM trip_blocks")
        while try blocks.step() {
            let block = try TripBlock.decode(firstTid: blocks.int(0), blocks.blob(1))
            for (i, entry) in block.entries.enumerated() {
                guard let entry, let feed = feedOfTid[block.firstTid + i] else { continue }
                tripIDs[FeedTextKey(feed: feed, text: entry.tripID)] = block.firstTid + i
            }
        }
        trips = IDTable(base: tripIDs)
        var serviceIDs: [FeedTextKey: Int] = [:]
        let services = try db.prepare("SELECT first_sv, entries FROM service_blocks")
        while try services.step() {
            for (i, entry) in try ServiceBlock.decode(services.blob(1)).enumerated() {
                guard let entry else { continue }
                serviceIDs[FeedTextKey(feed: feedOf[entry.fid] ?? "", text: entry.serviceID)] = services.int(0) + i
            }
        }
        self.services = IDTable(base: serviceIDs)
        var patternIDs: [PatternKey: Int] = [:]
        let patterns = try db.prepare("SELECT pid, fid, stops FROM patterns")
        while try patterns.step() {
            let stops = try PatternStopsBlob.decode(patterns.blob(2)).map(BundleModel.PatternStop.init)
            patternIDs[PatternKey(feed: feedOf[patterns.int(1)] ?? "", stops: stops)] = patterns.int(0)
        }
        self.patterns = IDTable(base: patternIDs)
        var headsignIDs: [String: Int] = [:]
        let headsigns = try db.prepare("SELECT hid, text FROM headsigns")
        while try headsigns.step() { headsignIDs[headsigns.string(1)] = headsigns.int(0) }
        self.headsigns = IDTable(base: headsignIDs)
    }
}
