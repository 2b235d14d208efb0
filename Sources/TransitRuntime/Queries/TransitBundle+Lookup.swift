import BundleFormat
import TransitSQLite

/// The kinds of text id a query names, with their dictionary table.
enum TextIDKind {
    case stop, trip, route

    func unknown(_ id: String) -> TransitError {
        switch self {
        case .stop: return .unknownStop(id)
        case .trip: return .unknownTrip(id)
        case .route: return .unknownRoute(id)
        }
    }

    func ambiguous(_ id: String, feeds: [String]) -> TransitError {
        switch self {
        case .stop: return .ambiguousStop(id, feeds: feeds)
        case .trip: return .ambiguousTrip(id, feeds: feeds)
        case .route: return .ambiguousRoute(id, feeds: feeds)
        }
    }
}

extension TransitBundle {
    /// The integer id of a text id in `feed`, or in the only feed that has it; without
    /// `feed`, an id no feed has that reads "feed/id" (`Stop.id`) names `id` in that feed.
    /// - Throws: `unknownFeed`, `unknownStop`/`unknownTrip`, `ambiguousStop`/`ambiguousTrip`.
    func resolve(_ kind: TextIDKind, _ id: String, feed: String?, db: SQLiteDatabase) throws -> (id: Int, feed: FeedCatalog.Feed) {
        let candidates = try feed.map { [try catalog.feed(named: $0)] } ?? catalog.feeds
        var found: [(id: Int, feed: FeedCatalog.Feed)] = []
        for candidate in candidates {
            if let match = try lookup(kind, id, in: candidate, db: db) { found.append((match, candidate)) }
        }
        guard let first = found.first else {
            // "feed/id", as `Stop.id` writes it, names the id in that feed.
            if feed == nil, let slash = id.firstIndex(of: "/"), let named = try? catalog.feed(named: String(id[..<slash])),
                let match = try lookup(kind, String(id[id.index(after: slash)...]), in: named, db: db)
            {
                return (match, named)
            }
            throw kind.unknown(id)
        }
        guard found.count == 1 else { throw kind.ambiguous(id, feeds: found.map(\.feed.feedID)) }
        return first
    }

    private func lookup(_ kind: TextIDKind, _ id: String, in feed: FeedCatalog.Feed, db: SQLiteDatabase) throws -> Int? {
        switch kind {
        case .stop:
            return try sid(of: id, feed: feed, db: db)
        case .trip:
            return try patterns.tid(of: id, feed: feed, db: db)
        case .route:
            let q = try db.cached("SELECT rid FROM dict_route WHERE fid = ?1 AND route_id = ?2")
            q.bind([feed.fid, id])
            return try q.step() ? q.int(0) : nil
        }
    }

    /// The sid of a text stop id in `feed`, nil when the feed has no such stop; kept once
    /// looked up.
    private func sid(of stopID: String, feed: FeedCatalog.Feed, db: SQLiteDatabase) throws -> Int? {
        try entities.sid(of: stopID, fid: feed.fid) { try lookUpSid(of: stopID, feed: feed, db: db) }
    }

    /// The `stop_ids` group that would hold `stopID`, searched by halves through the stops' text.
    private func lookUpSid(of stopID: String, feed: FeedCatalog.Feed, db: SQLiteDatabase) throws -> Int? {
        let q = try db.cached(
            "SELECT sids FROM stop_ids WHERE fid = ?1 AND first_stop_id <= ?2 ORDER BY first_stop_id DESC LIMIT 1")
        q.bind([feed.fid, stopID])
        guard try q.step() else { return nil }
        let sids = try PatternCache.damagedAsError("stop ids of feed \(feed.feedID)") { try IDGroup.decode(q.blob(0)) }
        return try IDGroup.member(stopID, in: sids) { try entities.stop($0, db: db).stopID }
    }
}
