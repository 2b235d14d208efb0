import Foundation
import TestKit
import TransitRuntime

extension TransitBench {
    /// Journeys between random stops of the bundle at random daytime moments (06:00 to
    /// 21:00 local) of its timetable: the first on a freshly opened bundle (with the memory
    /// routing then holds), then earliest arrival (depart-at), arrive-by and 2-hour range
    /// queries (without and with a budget of four searches), one thread.
    static func journeys(_ path: String, _ count: Int) throws {
        let bundle = try TransitBundle(path: path)
        let stops = try randomStopsAndTimes(bundle, 2 * count)
        var generator = seededRandom()
        // In a bundle of several regions most pairs of feeds never meet: a destination from
        // another feed is swapped for a random one of the origin's (one feed: nothing changes).
        let destinations = Dictionary(grouping: stops[count...], by: \.1)
        let queries = (0..<count).map { i -> (from: JourneyPlace, to: JourneyPlace, at: QueryTime) in
            let day = LocalDate(String(ISO8601DateFormatter().string(from: stops[i].2).prefix(10)))!
            let seconds = Int.random(in: 6 * 3600..<21 * 3600, using: &generator)
            var to = stops[count + i]
            if to.1 != stops[i].1, let same = destinations[stops[i].1]?.randomElement(using: &generator) { to = same }
            return (.stop(stops[i].0, feed: stops[i].1), .stop(to.0, feed: to.1), .local(day, secondsOfDay: seconds))
        }
        var firsts: [Double] = []
        var memory = (resident: 0, anonymous: 0)
        for q in queries.prefix(5) {
            let before = memoryBytes()
            let start = DispatchTime.now().uptimeNanoseconds
            let fresh = try TransitBundle(path: path)
            _ = try fresh.journeys(from: q.from, to: q.to, departingAt: q.at)
            firsts.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            let after = memoryBytes()
            memory = (max(memory.resident, after.resident - before.resident), max(memory.anonymous, after.anonymous - before.anonymous))
        }
        print(
            String(
                format: "open + first journey     n=%6d  median %8.2f ms  max %8.2f ms  (+%.1f MB resident, +%.1f MB not file-backed)",
                firsts.count, firsts.sorted()[firsts.count / 2], firsts.max()!, Double(memory.resident) / 1e6,
                Double(memory.anonymous) / 1e6))
        try measure("journeys, depart at", count) { i in
            try bundle.journeys(from: queries[i].from, to: queries[i].to, departingAt: queries[i].at).count
        }
        try measure("journeys, arrive by", count) { i in
            try bundle.journeys(from: queries[i].from, to: queries[i].to, arrivingBy: queries[i].at).count
        }
        try measure("journeys, 2-hour range", max(1, count / 10)) { i in
            try bundle.journeys(from: queries[i].from, to: queries[i].to, departingAt: queries[i].at, within: 7200).count
        }
        // The same windows with a budget of four searches (`JourneyOptions.rangeSearches`).
        let budget = JourneyOptions(rangeSearches: 4)
        try measure("journeys, 2-hour range, 4 searches", max(1, count / 10)) { i in
            try bundle.journeyRange(from: queries[i].from, to: queries[i].to, departingAt: queries[i].at, within: 7200, options: budget)
                .journeys.count
        }
    }
}
