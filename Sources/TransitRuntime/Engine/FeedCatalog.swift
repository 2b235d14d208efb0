import BundleFormat
import Foundation

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
        let maxTimeSecs: Int
        let hasFrequencies: Bool
        let sha256: String
    }

    let feeds: [Feed]

    init(db: SQLiteDatabase) throws {
        let rows = try db.prepare(
            """
            SELECT fid, feed_id, timezone, feed_version, first_service_date, last_service_date, max_time_secs,
                   has_frequencies, sha256 FROM feeds ORDER BY fid
            """)
        var feeds: [Feed] = []
        while try rows.step() {
            let zone = rows.string(2)
            feeds.append(
                Feed(
                    fid: rows.int(0), feedID: rows.string(1), timezone: zone,
                    clock: FeedClock(timeZone: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!),
                    version: rows.optionalString(3), firstDate: rows.optionalInt(4).flatMap(CivilDate.init(yyyymmdd:)),
                    lastDate: rows.optionalInt(5).flatMap(CivilDate.init(yyyymmdd:)), maxTimeSecs: rows.int(6),
                    hasFrequencies: rows.int(7) != 0, sha256: rows.string(8)))
        }
        self.feeds = feeds
    }

    func feed(fid: Int) -> Feed { feeds[fid - 1] }

    func feed(named name: String) throws -> Feed {
        guard let feed = feeds.first(where: { $0.feedID == name }) else { throw TransitError.unknownFeed(name) }
        return feed
    }
}
