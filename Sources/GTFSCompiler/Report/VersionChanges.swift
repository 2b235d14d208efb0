import BundleFormat
import TransitSQLite

/// What changed since the `--base` bundle: stops, routes and trips added and removed (by
/// feed and id, with counts and the first few ids), and the days whose trips differ.
public struct VersionChanges: Sendable, Encodable, Equatable {
    /// Ids added and removed for one kind of record.
    public struct Change: Sendable, Encodable, Equatable {
        /// Ids in the new version only.
        public let added: Int
        /// Ids in the base only.
        public let removed: Int
        /// The first `sampleSize` added ids, as "feed:id".
        public let addedSamples: [String]
        /// The first `sampleSize` removed ids, as "feed:id".
        public let removedSamples: [String]

        init(old: Set<FeedTextKey>, new: Set<FeedTextKey>) {
            let plus = new.subtracting(old).map { "\($0.feed):\($0.text)" }.sorted()
            let minus = old.subtracting(new).map { "\($0.feed):\($0.text)" }.sorted()
            added = plus.count
            removed = minus.count
            addedSamples = Array(plus.prefix(VersionChanges.sampleSize))
            removedSamples = Array(minus.prefix(VersionChanges.sampleSize))
        }

        private enum CodingKeys: String, CodingKey {
            case added, removed
            case addedSamples = "added_samples"
            case removedSamples = "removed_samples"
        }
    }

    /// One day whose trips differ between the versions.
    public struct Day: Sendable, Encodable, Equatable {
        /// The day.
        public let date: ServiceDate
        /// Its trips in the base.
        public let before: Int
        /// Its trips in the new version.
        public let after: Int
    }

    /// The base bundle's path.
    public let base: String
    /// Stops added and removed.
    public let stops: Change
    /// Routes added and removed.
    public let routes: Change
    /// Trips added and removed.
    public let trips: Change
    /// Days whose trip count differs (a day outside one version's span counts 0 there), in order.
    public let serviceDays: [Day]
    /// The base version's calendar (the same computation as the new one's).
    public let baseCalendar: ServiceCalendar

    /// Ids listed per change.
    public static let sampleSize = 20

    init(model: BundleModel, calendar: ServiceCalendar, base: String) throws {
        let ids = try BundleIDs(base: base)
        let feedOf = Dictionary(model.feeds.map { ($0.fid, $0.feedID) }, uniquingKeysWith: { a, _ in a })
        func keys<T>(_ records: [T], _ key: (T) -> (Int, String)) -> Set<FeedTextKey> {
            Set(
                records.map {
                    let (fid, text) = key($0)
                    return FeedTextKey(feed: feedOf[fid] ?? "", text: text)
                })
        }
        self.base = base
        stops = Change(old: Set(ids.stops.baseKeys), new: keys(model.stops) { ($0.fid, $0.stopID) })
        routes = Change(old: Set(ids.routes.baseKeys), new: keys(model.routes) { ($0.fid, $0.routeID) })
        trips = Change(old: Set(ids.trips.baseKeys), new: keys(model.trips) { ($0.fid, $0.tripID) })
        let db = try SQLiteDatabase(path: base, writable: false)
        baseCalendar = try ServiceCalendar(bundle: db)
        var days: [Day] = []
        let firsts = [calendar.firstDate, baseCalendar.firstDate].compactMap { $0?.civil.dayNumber }
        if let first = firsts.min() {
            let last = max(
                (calendar.firstDate?.civil.dayNumber ?? first) + calendar.tripsPerDay.count,
                (baseCalendar.firstDate?.civil.dayNumber ?? first) + baseCalendar.tripsPerDay.count)
            for day in first..<last {
                let date = ServiceDate(CivilDate(dayNumber: day))
                let before = baseCalendar.trips(on: date) ?? 0
                let after = calendar.trips(on: date) ?? 0
                if before != after { days.append(Day(date: date, before: before, after: after)) }
            }
        }
        serviceDays = days
    }

    private enum CodingKeys: String, CodingKey {
        case base, stops, routes, trips
        case serviceDays = "service_days_changed"
        case baseCalendar = "base_calendar"
    }
}
