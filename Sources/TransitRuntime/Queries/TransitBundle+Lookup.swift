import BundleFormat

/// The kinds of text id a query names, with their dictionary table.
enum TextIDKind {
    case stop, trip

    var lookup: String {
        switch self {
        case .stop: return "SELECT sid FROM dict_stop WHERE fid = ?1 AND stop_id = ?2"
        case .trip: return "SELECT tid FROM dict_trip WHERE fid = ?1 AND trip_id = ?2"
        }
    }

    func unknown(_ id: String) -> TransitError {
        switch self {
        case .stop: return .unknownStop(id)
        case .trip: return .unknownTrip(id)
        }
    }

    func ambiguous(_ id: String, feeds: [String]) -> TransitError {
        switch self {
        case .stop: return .ambiguousStop(id, feeds: feeds)
        case .trip: return .ambiguousTrip(id, feeds: feeds)
        }
    }
}

extension TransitBundle {
    /// The integer id of a text id in `feed`, or in the only feed that has it.
    /// - Throws: `unknownFeed`, `unknownStop`/`unknownTrip`, `ambiguousStop`/`ambiguousTrip`.
    func resolve(_ kind: TextIDKind, _ id: String, feed: String?, db: SQLiteDatabase) throws -> (id: Int, feed: FeedCatalog.Feed) {
        let q = try db.cached(kind.lookup)
        let candidates = try feed.map { [try catalog.feed(named: $0)] } ?? catalog.feeds
        var found: [(id: Int, feed: FeedCatalog.Feed)] = []
        for candidate in candidates {
            q.bind([candidate.fid, id])
            if try q.step() { found.append((q.int(0), candidate)) }
        }
        guard let first = found.first else { throw kind.unknown(id) }
        guard found.count == 1 else { throw kind.ambiguous(id, feeds: found.map(\.feed.feedID)) }
        return first
    }
}
