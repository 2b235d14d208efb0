import TransitSQLite

/// Writes each feed's fares v2 (schemas/bundle.sql, "GTFS fares v2"): every id as a number
/// of `fare_ids`, amounts as integers of their currency's units.
enum FareProductTables {
    static func insert(_ m: BundleModel, currencies: FareCurrencies, _ db: SQLiteDatabase) throws {
        let medium = try db.prepareInsert(
            into: "fare_media", columns: ["medium", "fid", "fare_media_id", "fare_media_name", "fare_media_type"])
        let category = try db.prepareInsert(
            into: "rider_categories",
            columns: ["category", "fid", "rider_category_id", "rider_category_name", "is_default_fare_category", "eligibility_url"])
        let product = try db.prepareInsert(
            into: "fare_products",
            columns: ["product", "fid", "fare_product_id", "fare_product_name", "rider_category_id", "fare_media_id", "amount", "currency"])
        let legRule = try db.prepareInsert(
            into: "fare_leg_rules",
            columns: [
                "rule", "fid", "leg_group_id", "network_id", "from_area_id", "to_area_id", "from_timeframe_group_id",
                "to_timeframe_group_id",
                "fare_product_id", "rule_priority",
            ])
        let transferRule = try db.prepareInsert(
            into: "fare_transfer_rules",
            columns: [
                "rule", "fid", "from_leg_group_id", "to_leg_group_id", "transfer_count", "duration_limit", "duration_limit_type",
                "fare_transfer_type", "fare_product_id",
            ])
        let timeframe = try db.prepareInsert(
            into: "timeframes", columns: ["timeframe", "fid", "timeframe_group_id", "start_time", "end_time", "sv"])
        let stopArea = try db.prepareInsert(into: "stop_areas", columns: ["sid", "area_id"])
        let routeNetwork = try db.prepareInsert(into: "route_networks", columns: ["rid", "network_id"])
        // Each feed's ids, numbered across the bundle in byte order within a feed.
        var idOf: [Int: [String: Int]] = [:]
        var lastID = 0
        let fareID = try db.prepareInsert(into: "fare_ids", columns: ["id", "fid", "text"])
        for f in m.fareProducts {
            let d = f.data
            var texts = Set<String>()
            texts.formUnion(d.media.map(\.id))
            texts.formUnion(d.riderCategories.map(\.id))
            texts.formUnion(d.products.flatMap { [$0.id, $0.riderCategory, $0.medium].compactMap { $0 } })
            texts.formUnion(
                d.legRules.flatMap { [$0.legGroup, $0.network, $0.fromArea, $0.toArea, $0.fromTimeframe, $0.toTimeframe, $0.product] }
                    .compactMap { $0 })
            texts.formUnion(d.transferRules.flatMap { [$0.fromLegGroup, $0.toLegGroup, $0.product] }.compactMap { $0 })
            texts.formUnion(d.timeframes.map(\.group))
            texts.formUnion(f.stopAreas.map(\.area))
            texts.formUnion(f.routeNetworks.map(\.network))
            for text in texts.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                lastID += 1
                idOf[f.fid, default: [:]][text] = lastID
                try fareID.run(lastID, f.fid, text)
            }
        }
        // Each table's rows numbered across the bundle from 1.
        var counts = [Int](repeating: 0, count: 6)
        func next(_ table: Int) -> Int {
            counts[table] += 1
            return counts[table]
        }
        for f in m.fareProducts {
            let d = f.data
            let ids = idOf[f.fid] ?? [:]
            func id(_ text: String?) -> Int? { text.flatMap { ids[$0] } }
            for x in d.media { try medium.run(next(0), f.fid, id(x.id), x.name, x.type) }
            for c in d.riderCategories { try category.run(next(1), f.fid, id(c.id), c.name, c.isDefault, c.eligibilityURL) }
            for p in d.products {
                try product.run(
                    next(2), f.fid, id(p.id), p.name, id(p.riderCategory), id(p.medium), Int(currencies.units(p.amount, p.currency)),
                    currencies.number(of: p.currency))
            }
            for r in d.legRules {
                try legRule.run(
                    next(3), f.fid, id(r.legGroup), id(r.network), id(r.fromArea), id(r.toArea), id(r.fromTimeframe), id(r.toTimeframe),
                    id(r.product), r.priority)
            }
            for r in d.transferRules {
                try transferRule.run(
                    next(4), f.fid, id(r.fromLegGroup), id(r.toLegGroup), r.transferCount, r.durationLimit, r.durationLimitType,
                    r.transferType, id(r.product))
            }
            for (t, sv) in zip(d.timeframes, f.timeframeServices) { try timeframe.run(next(5), f.fid, id(t.group), t.start, t.end, sv) }
            var seen = Set<[String]>()
            for s in f.stopAreas.sorted(by: { ($0.sid, $0.area) < ($1.sid, $1.area) }) where seen.insert(["\(s.sid)", s.area]).inserted {
                try stopArea.run(s.sid, id(s.area))
            }
            for r in f.routeNetworks { try routeNetwork.run(r.rid, id(r.network)) }
        }
    }
}
