import BundleFormat

/// What boards keep between queries: service-day starts, frequency templates at a stop,
/// trip short names. Each holder below lists its caches and clears them all in `purge()`:
/// a new cache goes into its feature's holder, beside the line that purges it.
final class BoardCaches: Sendable {
    /// The Unix time a feed's service day starts, by feed and day (`FeedCatalog`).
    let dayStarts = LockedCache<Int, Int>(limit: 4096)
    /// The frequency windows departing (or arriving) at a stop, by sid and kind.
    let templates = LockedCache<Int, [DepartureFinder.TemplateAtStop]>()
    /// trip_short_name by tid, read on first use.
    let tripNames = LockedCache<Int, String?>(limit: 65_536)

    func purge() {
        dayStarts.removeAll()
        templates.removeAll()
        tripNames.removeAll()
    }
}

/// What route lines keep: decoded edges, built shapes, each route's lines.
final class ShapeCaches: Sendable {
    /// Decoded `shape_edges` rows by first eid (an edge is shared by many shapes).
    let edges = LockedCache<Int, ShapeBlob.Row>(limit: 1024)
    /// Shapes built from their edges, by shp.
    let shapes = LockedCache<Int, Shape>(limit: 2048)
    /// Each route's lines, by rid (their points are the arrays `shapes` holds).
    let routeShapes = LockedCache<Int, [Shape]>(limit: 512)

    func purge() {
        edges.removeAll()
        shapes.removeAll()
        routeShapes.removeAll()
    }
}

/// What the journey planner keeps: the timetable as RAPTOR routes (both ways), transfers
/// by the options they depend on, and label arrays of finished searches.
final class JourneyCaches: Sendable {
    /// Read on the first journey query (the routes the compiler planned, or worked out).
    let routing = Locked<RoutingNetwork?>(nil)
    /// The same run backwards, for arrive-by journeys, built on the first one.
    let mirroredRouting = Locked<RoutingNetwork?>(nil)
    /// Transfers with their times, by the options they depend on.
    let transferGraphs = LockedCache<TransferGraphKey, TransferGraph>(limit: 8)
    /// Label arrays of finished journey searches, for the next ones (a few at a time).
    let labelPool = Locked<[RaptorSearch.Labels]>([])
    /// Each feed's fares, by fid, read on the first journey priced.
    let fareTables = LockedCache<Int, FareTable>(limit: 64)
    let fareProductTables = LockedCache<Int, FareProductTable>(limit: 64)

    func purge() {
        routing.withLock { $0 = nil }
        mirroredRouting.withLock { $0 = nil }
        transferGraphs.removeAll()
        labelPool.withLock { $0 = [] }
        fareTables.removeAll()
        fareProductTables.removeAll()
    }
}

/// What live data keeps: trips' schedules by trip id (`tripSchedule`), asked for message
/// after message.
final class LiveCaches: Sendable {
    let tripSchedules = LockedCache<TripScheduleKey, TripSchedule>(limit: 100_000)

    func purge() { tripSchedules.removeAll() }
}
