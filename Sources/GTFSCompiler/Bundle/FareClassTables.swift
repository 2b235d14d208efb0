import BundleFormat
import TransitSQLite

/// Writes each feed's fares v1 (schemas/bundle.sql, "GTFS fares v1"): its fare classes and
/// their rules packed in one `fare_classes` row, currencies (`FareCurrencies`) and zone
/// names as numbers.
enum FareClassTables {
    static func insert(_ m: BundleModel, currencies: FareCurrencies, _ db: SQLiteDatabase) throws {
        guard !m.fares.isEmpty else { return }
        // Zones by feed, in byte order of their ids.
        var zoneOf: [Int: [String: Int]] = [:]
        var zonesByFeed: [Int: Set<String>] = [:]
        for z in m.fareZones { zonesByFeed[z.fid, default: []].insert(z.zone) }
        let fidOfFare = Dictionary(uniqueKeysWithValues: m.fares.map { ($0.fare, $0.fid) })
        for r in m.fareRules {
            for zone in [r.origin, r.destination, r.contains].compactMap({ $0 }) {
                zonesByFeed[fidOfFare[r.fare]!, default: []].insert(zone)
            }
        }
        let zoneName = try db.prepareInsert(into: "fare_zone_names", columns: ["zone", "fid", "zone_id"])
        var zoneCount = 0
        for fid in zonesByFeed.keys.sorted() {
            for zone in zonesByFeed[fid]!.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                zoneCount += 1
                zoneOf[fid, default: [:]][zone] = zoneCount
                try zoneName.run(zoneCount, fid, zone)
            }
        }
        let stopZone = try db.prepareInsert(into: "fare_zones", columns: ["sid", "zone"])
        for z in m.fareZones.sorted(by: { $0.sid < $1.sid }) { try stopZone.run(z.sid, zoneOf[z.fid]![z.zone]!) }

        // Each fare's rules in the file's order, then each feed's fares in one row.
        var rulesOf: [Int: [FareClassesBlob.Rule]] = [:]
        for r in m.fareRules {
            let zones = zoneOf[fidOfFare[r.fare]!] ?? [:]
            rulesOf[r.fare, default: []].append(
                .init(
                    rid: r.rid, origin: r.origin.map { zones[$0]! }, destination: r.destination.map { zones[$0]! },
                    contains: r.contains.map { zones[$0]! }))
        }
        let row = try db.prepareInsert(into: "fare_classes", columns: ["fid", "fares"])
        var start = 0
        while start < m.fares.count {
            let fid = m.fares[start].fid
            var end = start
            while end < m.fares.count, m.fares[end].fid == fid { end += 1 }
            let classes = m.fares[start..<end].map { f in
                let r = f.record
                return FareClassesBlob.FareClass(
                    fareID: f.fareID, units: currencies.units(r.price, r.currency), currency: currencies.number(of: r.currency),
                    paymentMethod: r.paymentMethod, transfers: r.transfers, aid: f.aid, transferDuration: r.transferDuration,
                    rules: rulesOf[f.fare] ?? [])
            }
            try row.run(fid, FareClassesBlob.encode(classes))
            start = end
        }
    }

}
