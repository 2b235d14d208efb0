import BundleFormat

extension TransitBundle {
    /// The transfers from a stop: rows of transfers.txt from it, from its station (which
    /// apply to every platform), and for a station from each of its platforms; by from and
    /// to stop_id.
    ///
    /// ```swift
    /// let changes = try bundle.transfers(at: "CENTRAL")
    /// ```
    /// - Throws: `TransitError.unknownStop`, `.ambiguousStop`, `.unknownFeed`.
    public func transfers(at stop: String, feed: String? = nil) throws -> [Transfer] {
        try pool.with { db in
            let match = try resolve(.stop, stop, feed: feed, db: db)
            let row = try entities.stop(match.id, db: db)
            var sids = [match.id]
            if let parent = row.parentSid { sids.append(parent) }
            if row.locationType == 1 { sids += try entities.children(of: match.id, db: db) }
            var result: [Transfer] = []
            guard has("transfers") else { return result }
            let q = try db.cached("SELECT to_sid, transfer_type, min_transfer_time FROM transfers WHERE from_sid = ?1")
            for sid in sids {
                q.bind([sid])
                let from = try entities.stop(sid, db: db).stopID
                while try q.step() {
                    result.append(
                        Transfer(
                            feedID: match.feed.feedID, fromStopID: from, toStopID: try entities.stop(q.int(0), db: db).stopID,
                            type: TransferType(rawValue: q.int(1)), minTransferTime: q.optionalInt(2)))
                }
            }
            return result.sorted {
                $0.fromStopID != $1.fromStopID
                    ? $0.fromStopID.utf8.lexicographicallyPrecedes($1.fromStopID.utf8)
                    : $0.toStopID.utf8.lexicographicallyPrecedes($1.toStopID.utf8)
            }
        }
    }
}
