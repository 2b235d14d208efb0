import BundleFormat
import Foundation
import TransitSQLite

/// The bundle's feeds, loaded once at open (a handful of rows).
struct FeedCatalog: Sendable {
    struct Feed: Sendable {
        let fid: Int
        let feedID: String
        let timezone: String
        let clock: FeedClock
        let version: String?
        let firstDate: CivilDate?
        let lastDate: CivilDate?
        let lastTripDate: CivilDate?
        let maxTimeSecs: Int
        let hasFrequencies: Bool
        let sha256: String
    }

    let feeds: [Feed]

    init(db: SQLiteDatabase) throws {
        let rows = try db.prepare(
            """
            SELECT fid, feed_id, timezone, feed_version, first_service_date, last_service_date, last_trip_date, max_time_secs,
                   has_frequencies, sha256 FROM feeds ORDER BY fid
            """)
        var feeds: [Feed] = []
        while try rows.step() {
            let zone = rows.string("timezone")
            func date(_ column: String) -> CivilDate? { rows.optionalInt(column).flatMap(CivilDate.init(yyyymmdd:)) }
            feeds.append(
                Feed(
                    fid: rows.int("fid"), feedID: rows.string("feed_id"), timezone: zone,
                    clock: FeedClock(timeZone: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!),
                    version: rows.optionalString("feed_version"), firstDate: date("first_service_date"),
                    lastDate: date("last_service_date"), lastTripDate: date("last_trip_date"), maxTimeSecs: rows.int("max_time_secs"),
                    hasFrequencies: rows.int("has_frequencies") != 0, sha256: rows.string("sha256")))
        }
        self.feeds = feeds
    }

    func feed(fid: Int) -> Feed { feeds[fid - 1] }
    func feed(_ fid: FeedNumber) -> Feed { feeds[fid.int - 1] }

    func feed(named name: String) throws -> Feed {
        guard let feed = feeds.first(where: { $0.feedID == name }) else { throw TransitError.unknownFeed(name) }
        return feed
    }
}

extension FeedCatalog.Feed {
    /// GTFS time 0 of `day` (`FeedClock.serviceDayStart`), kept in `cache` (the bundle's
    /// `dayStarts`, shared by boards, journeys and live data) by feed and day.
    func serviceDayStart(_ day: CivilDate, cachedIn cache: LockedCache<Int, Int>) -> Int {
        cache.value(fid << 32 | (day.dayNumber & 0xFFFF_FFFF)) { clock.serviceDayStart(day) }
    }
}
