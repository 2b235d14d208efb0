/// The typed records of one feed, as read from its files, with local integer ids
/// given by each `ByteInterner` (in order of first appearance).
final class FeedData {
    struct Agency {
        var agencyID: String
        var name: String
        var url: String?
        var timezone: String
        var lang: String?
        var phone: String?
    }

    struct Stop {
        var name: String
        var code: String?
        var lat: Double?
        var lon: Double?
        var locationType: Int
        var parentText: String?
        var parent: Int32 = -1
        var platformCode: String?
        var wheelchairBoarding: Int
        var line: Int
    }

    struct Route {
        var agency: Int32
        var shortName: String?
        var longName: String?
        var routeType: Int
        var color: String?
        var textColor: String?
    }

    struct Calendar {
        var days: Int
        var startDate: Int
        var endDate: Int
    }

    struct CalendarDate {
        var service: Int32
        var date: Int
        var exceptionType: Int
    }

    struct Trip {
        var route: Int32
        var service: Int32
        var headsign: String?
        var directionID: Int?
        var wheelchairAccessible: Int
        /// The shape_id's local id in `shapeIDs`, -1 when the trip names none.
        var shape: Int32 = -1
        /// trip_short_name (a train number), and bikes_allowed (0 unknown, 1 yes, 2 no).
        var shortName: String? = nil
        var bikesAllowed: Int = 0
        var line: Int
    }

    /// shapes.txt, one array per column (row i across all of them); coordinates in 1e-6 degree.
    struct ShapePoints {
        var shape: [Int32] = []
        var sequence: [Int32] = []
        var latE6: [Int32] = []
        var lonE6: [Int32] = []
        var line: [Int32] = []
        var count: Int { shape.count }
    }

    /// A stop-to-stop row of transfers.txt.
    struct Transfer {
        var from: Int32
        var to: Int32
        var type: Int
        var minTime: Int?
        var line: Int
    }

    struct Frequency {
        var trip: Int32
        var start: Int32
        var end: Int32
        var headway: Int32
        var exactTimes: Int
        var line: Int
    }

    /// stop_times.txt, one array per column (row i across all of them).
    struct StopTimes {
        /// The trip of each row, as runs of rows.
        var trips = TripRuns()
        var sequence: [Int32] = []
        var stop: [Int32] = []
        var arrival: [Int32] = []  // -1 when empty
        var departure: [Int32] = []  // -1 when empty
        /// pickup_type and drop_off_type (0-3 each) in one byte: pickup + 4 x drop_off.
        var boarding: [UInt8] = []
        /// stop_headsign as an index into stopHeadsigns, -1 when empty; no rows at all when
        /// the file has no such column.
        var headsigns: [Int32] = []
        /// shape_dist_traveled, NaN when empty; no rows at all when the file has no such column
        /// (8 bytes a row saved: 42 MB on 5 million stop_times).
        var distances: [Double] = []
        /// timepoint 0 (the feed calls the row's times approximate); no rows at all when the
        /// file has no timepoint column.
        var approximate: [Bool] = []
        /// Each row's line in the file.
        var lines = RowLines()
        var count: Int { sequence.count }

        /// Whether stop_times.txt has a shape_dist_traveled column.
        var hasDistances = false
        /// Whether stop_times.txt has a timepoint column.
        var hasTimepoints = false
        /// Whether stop_times.txt has a stop_headsign column.
        var hasHeadsigns = false

        /// Row `row`'s pickup_type.
        func pickup(at row: Int) -> UInt8 { boarding[row] & 3 }

        /// Row `row`'s drop_off_type.
        func dropOff(at row: Int) -> UInt8 { boarding[row] >> 2 }

        /// Row `row`'s stop headsign (an index into stopHeadsigns), -1 when it has none.
        func headsign(at row: Int) -> Int32 { hasHeadsigns ? headsigns[row] : -1 }

        /// Row `row`'s shape_dist_traveled, NaN when it has none.
        func distance(at row: Int) -> Double { hasDistances ? distances[row] : .nan }

        /// Whether row `row` has timepoint 0.
        func isApproximate(at row: Int) -> Bool { hasTimepoints && approximate[row] }

        mutating func reserve(_ rows: Int) {
            sequence.reserveCapacity(rows)
            stop.reserveCapacity(rows)
            arrival.reserveCapacity(rows)
            departure.reserveCapacity(rows)
            boarding.reserveCapacity(rows)
            if hasHeadsigns { headsigns.reserveCapacity(rows) }
            if hasDistances { distances.reserveCapacity(rows) }
            if hasTimepoints { approximate.reserveCapacity(rows) }
        }
    }

    /// A fare class of fare_attributes.txt; `agency` is a local agency id, -1 for none.
    struct Fare {
        var price: String
        var currency: String
        var paymentMethod: Int
        var transfers: Int?
        var agency: Int32
        var transferDuration: Int?
        var line: Int
        /// Whether fare_rules.txt has rows for it (kept or dropped): a fare all of whose rows
        /// were dropped is not used, where one with none applies to every ride.
        var hasRuleRows = false
    }

    /// A row of fare_rules.txt: a local fare id, route id (-1 any) and zone ids in
    /// `zoneIDs` (-1 any).
    struct FareRule {
        var fare: Int32
        var route: Int32
        var origin: Int32
        var destination: Int32
        var contains: Int32
    }

    /// A row of attributions.txt; `agency` and `route` are local ids, -1 for none.
    struct Attribution {
        var organization: String
        var isProducer: Bool
        var isOperator: Bool
        var isAuthority: Bool
        var url: String?
        var email: String?
        var phone: String?
        var agency: Int32 = -1
        var route: Int32 = -1
        var tripID: String? = nil
    }

    /// A kept row of translations.txt: by record (`record` a local stop, route, trip or
    /// agency id; `sequence` the stop_sequence of a stop_headsign) or by value (`value`).
    struct Translation {
        var field: TranslatedField
        var language: String
        var translation: String
        var value: String?
        var record: Int32 = -1
        var sequence: Int32 = -1
        var line: Int
    }

    /// A row of levels.txt.
    struct Level {
        var index: Double
        var name: String?
    }

    /// A row of pathways.txt (local stop ids).
    struct Pathway {
        var from: Int32
        var to: Int32
        var mode: Int
        var isBidirectional: Bool
        var traversalTime: Int?
        var length: Double?
        var stairCount: Int?
    }

    /// feed_info.txt's publisher, languages and contacts.
    struct FeedInfo {
        var publisherName: String?
        var publisherURL: String?
        var lang: String?
        var defaultLang: String?
        var contactEmail: String?
        var contactURL: String?
    }

    let name: String
    var agencies: [Agency] = []
    var agencyIDs = ByteInterner(capacity: 8)
    var timezone = ""
    var stopIDs = ByteInterner(capacity: 4096)
    var stops: [Stop] = []
    var routeIDs = ByteInterner(capacity: 256)
    var routes: [Route] = []
    var serviceIDs = ByteInterner(capacity: 256)
    var calendar: [Int32: Calendar] = [:]
    var calendarDates: [CalendarDate] = []
    var tripIDs = ByteInterner(capacity: 16384)
    var trips: [Trip] = []
    var stopTimes = StopTimes()
    var stopHeadsigns = ByteInterner(capacity: 64)
    /// Shape ids named by trips.txt or shapes.txt, and the points of shapes.txt.
    var shapeIDs = ByteInterner(capacity: 256)
    var shapePoints = ShapePoints()
    var frequencies: [Frequency] = []
    var transfers: [Transfer] = []
    var feedVersion: String?
    /// feed_info's declared validity, `YYYYMMDD`.
    var feedStartDate: Int?
    var feedEndDate: Int?
    /// Trips refused while reading (a time past the 7-day limit): never assembled.
    var refusedTrips = Set<Int32>()
    var info = FeedInfo()
    /// stops.txt's zone_id values, and each stop's (an index into them, -1 for none); no
    /// rows at all when the file has no zone_id column.
    var zoneIDs = ByteInterner(capacity: 16)
    var stopZones: [Int32] = []
    var fareIDs = ByteInterner(capacity: 16)
    var fares: [Fare] = []
    var fareRules: [FareRule] = []
    /// GTFS fares v2.
    var fareProducts = FareProductData()
    var attributions: [Attribution] = []
    var translations: [Translation] = []
    var pathways: [Pathway] = []
    /// level_id values named by stops.txt or levels.txt; each stop's (an index into them, -1
    /// for none; no rows when stops.txt has no level_id column); the levels levels.txt
    /// defines, by local id (nil: named by a stop only).
    var levelIDs = ByteInterner(capacity: 16)
    var stopLevels: [Int32] = []
    var levels: [Level?] = []
    /// The input's SHA-256, computed in the background.
    var sha256Result: BackgroundResult<String>?

    init(name: String) { self.name = name }
}
