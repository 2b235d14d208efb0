import BundleFormat

/// Everything the bundle will hold, with final integer ids: the output of the model
/// stage and the input of `BundleWriter`. Rows are in feed order, then byte order of their
/// text ids (their ids too, unless `--base` kept older ids).
struct BundleModel {
    struct Feed {
        var fid: Int
        var feedID: String
        var timezone: String
        var version: String?
        var info: FeedData.FeedInfo
        var firstDate: Int?
        var lastDate: Int?
        var maxTimeSecs: Int
        var hasFrequencies: Bool
        var sha256: String
        var counts: Counts
        /// The last service day on which any trip runs, `YYYYMMDD`.
        var lastTripDate: Int?

        struct Counts { var stops = 0, routes = 0, trips = 0, stopTimes = 0 }
    }

    struct Agency {
        var aid: Int
        var fid: Int
        var record: FeedData.Agency
    }

    struct Stop {
        var sid: Int
        var fid: Int
        var stopID: String
        var record: FeedData.Stop
        var parentSid: Int?
    }

    struct Route {
        var rid: Int
        var fid: Int
        var routeID: String
        var aid: Int?
        var record: FeedData.Route
    }

    struct Service {
        var sv: Int
        var fid: Int
        var serviceID: String
    }

    struct Calendar {
        var sv: Int
        var record: FeedData.Calendar
    }

    struct CalendarDate {
        var date: Int
        var sv: Int
        var exceptionType: Int
    }

    struct PatternStop: Hashable {
        var stopSequence: Int32
        var sid: Int32
        var arrivalOffset: Int32
        var departureOffset: Int32
        var pickupType: UInt8
        var dropOffType: UInt8
        var interpolated: Bool
        /// timepoint 0: the feed calls the stop's times approximate.
        var approximate: Bool
        var hid: Int32  // -1 when the stop_time has no stop_headsign
    }

    struct Pattern {
        var pid: Int
        var fid: Int
        var stops: [PatternStop]
    }

    struct Trip {
        var tid: Int
        var fid: Int
        var tripID: String
        var pid: Int
        var rid: Int
        var sv: Int
        var startTimeSecs: Int
        var hid: Int?
        var directionID: Int?
        var wheelchairAccessible: Int
        var frequency: Bool
        var shp: Int?
        var shortName: String?
        var bikesAllowed: Int
    }

    /// A shape some kept trip follows: its points as read, then (`ShapeNetwork`) the
    /// shared edges it runs along.
    struct Shape {
        var shp: Int
        var fid: Int
        var shapeID: String
        var points: [ShapeBlob.Point]
        var edges: [ShapeEdgesBlob.Step] = []
    }

    /// A stop-to-stop transfer (transfers.txt).
    struct Transfer {
        var fromSid: Int
        var toSid: Int
        var type: Int
        var minTime: Int?
    }

    struct Frequency {
        var tid: Int
        var start: Int
        var end: Int
        var headway: Int
        var exactTimes: Int
    }

    /// A fare class (fare_attributes.txt); `fare` numbers them across the bundle from 1.
    struct Fare {
        var fare: Int
        var fid: Int
        var fareID: String
        var record: FeedData.Fare
        var aid: Int?
    }

    /// A fare_rules.txt row with bundle ids; zones as text.
    struct FareRule {
        var fare: Int
        var rid: Int?
        var origin: String?
        var destination: String?
        var contains: String?
    }

    /// A feed's fares v2 with bundle ids: each stop's areas (a platform without areas of its
    /// own takes its station's), each route's network, each timeframe's service.
    struct FareProducts {
        var fid: Int
        var data: FareProductData
        var stopAreas: [(sid: Int, area: String)]
        var routeNetworks: [(rid: Int, network: String)]
        var timeframeServices: [Int]
    }

    /// An attributions.txt row with bundle ids.
    struct Attribution {
        var fid: Int
        var record: FeedData.Attribution
        var aid: Int?
        var rid: Int?
    }

    /// A translated name (`translations`): field (`TranslationField`), record, language.
    struct Translation {
        var field: Int
        var record: Int
        var language: String
        var translation: String
    }

    /// A pathway (pathways.txt) between two sids.
    struct Pathway {
        var fromSid: Int
        var toSid: Int
        var record: FeedData.Pathway
    }

    var feeds: [Feed] = []
    var pathways: [Pathway] = []
    /// levels.txt's levels (`level` numbers them across the bundle from 1), and each stop's.
    var levels: [(level: Int, fid: Int, levelID: String, record: FeedData.Level)] = []
    var stopLevels: [(sid: Int, level: Int)] = []
    var translations: [Translation] = []
    var fares: [Fare] = []
    var fareRules: [FareRule] = []
    /// The zone of each stop of a feed whose fare rules name zones, by sid.
    var fareZones: [(sid: Int, fid: Int, zone: String)] = []
    var fareProducts: [FareProducts] = []
    var attributions: [Attribution] = []
    var agencies: [Agency] = []
    var stops: [Stop] = []
    var routes: [Route] = []
    var services: [Service] = []
    var calendar: [Calendar] = []
    var calendarDates: [CalendarDate] = []
    var patterns: [Pattern] = []
    var trips: [Trip] = []
    var frequencies: [Frequency] = []
    var shapes: [Shape] = []
    var transfers: [Transfer] = []
    /// The thinned edges shapes share, by eid - 1.
    var shapeEdges: [[ShapeBlob.Point]] = []
    /// Trip and stop headsigns, in the order first used.
    var headsigns: [(hid: Int, text: String)] = []
    var stopTimeCount = 0
    var cityCount = 0
    /// The bundle's identity: `--id` (default the output file's stem) and `--label`.
    var bundleID = ""
    var label: String?
}

extension BundleModel.PatternStop {
    init(_ r: PatternStopRecord) {
        self.init(
            stopSequence: Int32(r.stopSequence), sid: Int32(r.sid), arrivalOffset: Int32(r.arrivalOffset),
            departureOffset: Int32(r.departureOffset), pickupType: UInt8(r.pickupType), dropOffType: UInt8(r.dropOffType),
            interpolated: r.interpolated, approximate: r.approximate, hid: Int32(r.hid ?? -1))
    }

    /// As the bundle's packed column holds it.
    var record: PatternStopRecord {
        PatternStopRecord(
            stopSequence: Int(stopSequence), sid: Int(sid), arrivalOffset: Int(arrivalOffset), departureOffset: Int(departureOffset),
            pickupType: Int(pickupType), dropOffType: Int(dropOffType), interpolated: interpolated, approximate: approximate,
            hid: hid >= 0 ? Int(hid) : nil)
    }
}
