import BundleFormat

/// translations.txt's rows of one feed as bundle rows: each names its record by bundle id
/// (sid, rid, hid or aid). A row by field_value becomes a row for every record whose field
/// has that value; a row by record_id wins over one by value (the reference's rule), and
/// of two rows for one record and language the first wins.
struct TranslationResolver {
    let feed: FeedData
    let sidOf: [Int]
    let ridOf: [Int]
    let aidOf: [Int]
    /// The headsign (hid) of each kept trip that has a trip_headsign, by local trip id.
    var tripHeadsigns: [Int32: Int] = [:]
    /// The hid of each kept stop time with a stop_headsign, by local trip id and
    /// stop_sequence (only for the trips of `tripsWithStopHeadsignRows`).
    var stopHeadsigns: [TripStop: Int] = [:]
    /// Every headsign text the feed's kept trips and stop times use, with its hid.
    var headsignTexts: [String: Int] = [:]
    let log: DiagnosticLog

    struct TripStop: Hashable {
        var trip: Int32
        var sequence: Int32
    }

    /// The local trips a stop_headsign translation names by record: only their stop
    /// headsigns are collected.
    var tripsWithStopHeadsignRows: Set<Int32> {
        Set(feed.translations.filter { $0.field == .stopHeadsign && $0.record >= 0 }.map(\.record))
    }

    func rows() -> [BundleModel.Translation] {
        var result: [BundleModel.Translation] = []
        var index: [Key: Int] = [:]
        func add(_ row: FeedData.Translation, record: Int, byRecord: Bool) {
            let key = Key(field: row.field.bundleField.rawValue, record: record, language: row.language)
            if let earlier = index[key] {
                if byRecord && result[earlier].translation != row.translation {
                    log.add(
                        Diagnostic(
                            .duplicateID, feed: feed.name, file: "translations.txt", line: row.line, field: "translation",
                            value: row.translation, message: "this record already has a \(row.language) translation; the first wins"))
                }
                return
            }
            index[key] = result.count
            result.append(.init(field: key.field, record: record, language: row.language, translation: row.translation))
        }
        for row in feed.translations where row.record >= 0 {
            if let record = bundleRecord(row) { add(row, record: record, byRecord: true) }
        }
        let byValue = feed.translations.filter { $0.record < 0 }
        guard !byValue.isEmpty else { return result }
        let values = recordsByValue()
        for row in byValue {
            for record in values[ValueKey(field: row.field.bundleField.rawValue, value: row.value ?? ""), default: []] {
                add(row, record: record, byRecord: false)
            }
        }
        return result
    }

    private struct Key: Hashable {
        var field: Int
        var record: Int
        var language: String
    }

    private struct ValueKey: Hashable {
        var field: Int
        var value: String
    }

    /// The bundle record a by-record row names; nil (no row) for a trip without a headsign
    /// of that kind, or one not kept.
    private func bundleRecord(_ row: FeedData.Translation) -> Int? {
        let local = Int(row.record)
        switch row.field {
        case .stopName: return sidOf[local]
        case .routeShortName, .routeLongName: return ridOf[local]
        case .agencyName: return aidOf[local]
        case .tripHeadsign: return tripHeadsigns[row.record]
        case .stopHeadsign: return stopHeadsigns[TripStop(trip: row.record, sequence: row.sequence)]
        }
    }

    /// Every record of the feed by the value of each translatable field.
    private func recordsByValue() -> [ValueKey: [Int]] {
        var records: [ValueKey: [Int]] = [:]
        func add(_ field: TranslationField, _ value: String?, _ record: Int) {
            guard let value, !value.isEmpty else { return }
            records[ValueKey(field: field.rawValue, value: value), default: []].append(record)
        }
        for (local, stop) in feed.stops.enumerated() { add(.stopName, stop.name, sidOf[local]) }
        for (local, route) in feed.routes.enumerated() {
            add(.routeShortName, route.shortName, ridOf[local])
            add(.routeLongName, route.longName, ridOf[local])
        }
        for (local, agency) in feed.agencies.enumerated() { add(.agencyName, agency.name, aidOf[local]) }
        for (text, hid) in headsignTexts { add(.headsign, text, hid) }
        return records
    }
}
