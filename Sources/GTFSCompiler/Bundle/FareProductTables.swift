import TransitSQLite

/// Writes each feed's fares v2 (schemas/bundle.sql, "GTFS fares v2").
enum FareProductTables {
    static func insert(_ m: BundleModel, _ db: SQLiteDatabase) throws {
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
        // Each table's rows numbered across the bundle from 1.
        var counts = [Int](repeating: 0, count: 6)
        func next(_ table: Int) -> Int {
            counts[table] += 1
            return counts[table]
        }
        for f in m.fareProducts {
            let d = f.data
            for x in d.media { try medium.run(next(0), f.fid, x.id, x.name, x.type) }
            for c in d.riderCategories { try category.run(next(1), f.fid, c.id, c.name, c.isDefault, c.eligibilityURL) }
            for p in d.products { try product.run(next(2), f.fid, p.id, p.name, p.riderCategory, p.medium, p.amount, p.currency) }
            for r in d.legRules {
                try legRule.run(
                    next(3), f.fid, r.legGroup, r.network, r.fromArea, r.toArea, r.fromTimeframe, r.toTimeframe, r.product, r.priority)
            }
            for r in d.transferRules {
                try transferRule.run(
                    next(4), f.fid, r.fromLegGroup, r.toLegGroup, r.transferCount, r.durationLimit, r.durationLimitType, r.transferType,
                    r.product)
            }
            for (t, sv) in zip(d.timeframes, f.timeframeServices) { try timeframe.run(next(5), f.fid, t.group, t.start, t.end, sv) }
            var seen = Set<[String]>()
            for s in f.stopAreas.sorted(by: { ($0.sid, $0.area) < ($1.sid, $1.area) }) where seen.insert(["\(s.sid)", s.area]).inserted {
                try stopArea.run(s.sid, s.area)
            }
            for r in f.routeNetworks { try routeNetwork.run(r.rid, r.network) }
        }
    }
}
