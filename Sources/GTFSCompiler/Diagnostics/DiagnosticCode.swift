/// The catalogue of input problems. Each code has one severity and one repair;
/// the table of docs/gtfs-compile.md is generated from `action` (`gtfs-compile --list-codes`) and a test
/// keeps the two equal.
public enum DiagnosticCode: String, Sendable, Codable, CaseIterable {
    // Errors: the compile stops and nothing is written.
    case missingFile = "E_MISSING_FILE"
    case missingColumn = "E_MISSING_COLUMN"
    case notUTF8 = "E_NOT_UTF8"
    case brokenCSV = "E_CSV"
    case unreadableArchive = "E_ARCHIVE"
    case lineTooLong = "E_LINE_TOO_LONG"
    case noUsableTrips = "E_NO_TRIPS"
    case noTimezone = "E_NO_TIMEZONE"
    case unreadableInput = "E_INPUT"
    case outputFailed = "E_OUTPUT"
    case badCatalogue = "E_CITIES"
    // Warnings: the row or value is repaired or skipped, and the compile goes on.
    case cellCount = "W_CELL_COUNT"
    case unknownReference = "W_UNKNOWN_REF"
    case duplicateID = "W_DUPLICATE_ID"
    case badTime = "W_BAD_TIME"
    case oneSidedTime = "W_ONE_SIDED_TIME"
    case lateTime = "W_LATE_TIME"
    case timeLimit = "W_TIME_LIMIT"
    case badDate = "W_BAD_DATE"
    case badValue = "W_BAD_VALUE"
    case missingValue = "W_MISSING_VALUE"
    case nulByte = "W_NUL_BYTE"
    case badSequence = "W_SEQUENCE"
    case timeTravel = "W_TIME_BACKWARDS"
    case missingEndpointTime = "W_ENDPOINT_TIME"
    case badShapeDistance = "W_SHAPE_DIST"
    case badShapePoint = "W_SHAPE_POINT"
    case badStopLocation = "W_STOP_LOCATION"
    case badFrequency = "W_FREQUENCY"
    case tooFewStops = "W_FEW_STOPS"
    case duplicateTrip = "W_DUPLICATE_TRIP"
    case badParentStation = "W_PARENT_STATION"
    case badTimezone = "W_TIMEZONE"
    case mixedTimezones = "W_MIXED_TIMEZONES"
    case unknownFile = "W_UNKNOWN_FILE"
    case emptyFile = "W_EMPTY_FILE"
    case duplicateColumn = "W_DUPLICATE_COLUMN"
    case badCity = "W_CITY"
    // Information: nothing is wrong; the compiler leaves something aside on purpose.
    case unusedFile = "I_UNUSED_FILE"
    case frequencyOverlap = "I_FREQUENCY_OVERLAP"
    case unusedTransfers = "I_TRANSFERS_UNUSED"

    /// Error, warning or info, fixed per code.
    public var severity: Diagnostic.Severity {
        switch rawValue.first {
        case "E": return .error
        case "W": return .warning
        default: return .info
        }
    }

    /// What the compiler does when it meets this problem.
    public var action: String {
        switch self {
        case .missingFile:
            return
                "required file absent (agency, stops, routes, trips, stop_times, and calendar or calendar_dates), or agency.txt without agencies: stop (every missing file is named)"
        case .missingColumn: return "required column absent from a file's header (also a header-less file): stop"
        case .notUTF8: return "file is not UTF-8 (UTF-16 with or without a byte order mark, invalid byte sequences): stop"
        case .brokenCSV: return "CSV structure broken (a quoted field not closed before the end of the file): stop"
        case .unreadableArchive:
            return
                "zip cannot be read, or an entry is damaged, encrypted, lies about its size or inflates beyond its declared size; more than 10,000 entries: stop"
        case .lineTooLong: return "a CSV record longer than 1 MB: stop"
        case .noUsableTrips: return "no trip of a feed survives the checks: stop"
        case .noTimezone: return "no agency has a valid IANA timezone: stop"
        case .unreadableInput:
            return "input path missing or unreadable, two feeds with one id, a --base bundle or a patch that cannot be used: stop"
        case .outputFailed:
            return
                "the bundle cannot be written (output folder missing or not writable, disk full, SQLite failure): stop, the output path is untouched and the report still written"
        case .badCatalogue: return "city catalogue unreadable, not valid JSON, or without \"version\": 1 and a \"cities\" array: stop"
        case .cellCount: return "row has more or fewer cells than the header: extra cells ignored, missing ones read as empty"
        case .unknownReference:
            return "reference to an unknown stop, route, trip or service: row dropped (an unknown agency_id keeps the route without agency)"
        case .duplicateID: return "an id defined twice: the first wins, later rows dropped"
        case .badTime: return "time not H:MM:SS: the stop time is treated as untimed (interpolated)"
        case .oneSidedTime: return "arrival_time without departure_time or the reverse: the missing one is copied from the other"
        case .lateTime: return "time past 48:00:00 (a trip running into its third service day): kept"
        case .timeLimit: return "time past 168:00:00, the 7-day limit: trip (or frequency window) dropped"
        case .badDate: return "date not YYYYMMDD: row dropped"
        case .badValue:
            return
                "number, enum or colour unparsable or out of range: default used or value left empty (message says which); a text field (a name, headsign, translation) longer than 10,000 bytes: cut there; stop_times naming a station: row dropped"
        case .missingValue: return "required value empty: row dropped (empty route_type: 3)"
        case .nulByte: return "a NUL byte inside a field: the byte is dropped"
        case .badSequence: return "stop_sequence repeated, negative or not an integer: row dropped"
        case .timeTravel:
            return
                "a stop_time earlier than the last timed stop before it, or leaving before it arrives: its times are dropped and interpolated (the trip is dropped only when that leaves its first or last stop untimed)"
        case .missingEndpointTime: return "first or last stop_time of a trip has no time: trip dropped"
        case .badShapePoint:
            return "shape point with a missing or out-of-range coordinate or shape_pt_sequence, or a sequence given twice: point dropped"
        case .badShapeDistance:
            return
                "shape_dist_traveled decreases along a trip that has untimed stops: its stops are interpolated by great-circle distance instead"
        case .badStopLocation:
            return
                "stop, station or entrance without coordinates, or at 0,0: kept without coordinates, and not used as a distance when interpolating"
        case .badFrequency:
            return
                "frequency window ends before it starts, lacks a time or headway, or starts when another window of the trip starts: window dropped"
        case .tooFewStops: return "trip has fewer than two usable stop_times: trip dropped"
        case .duplicateTrip:
            return
                "two trips identical to a rider (route, stops, times, headsign) run on a common date: both kept, reported with both ids and the first such date"
        case .badParentStation: return "parent_station unknown or of the wrong type: link dropped"
        case .badTimezone:
            return
                "agency_timezone not an IANA region name (an abbreviation such as PST, a fixed offset such as GMT-8, unknown): refused, the feed uses another agency's timezone; a name in the wrong case is matched to the canonical one"
        case .mixedTimezones: return "agencies of one feed name different timezones: the feed uses the first one"
        case .unknownFile: return "file not defined by GTFS, in a sub-folder, or with an unsafe path (`..`, absolute): ignored"
        case .emptyFile: return "file has no header row: treated as empty"
        case .duplicateColumn: return "a header names a column twice: the first is used"
        case .badCity:
            return
                "a city lacks a required field, has a wrong type or an out-of-range value, repeats an id, or links to nothing: the value, link or city is dropped (the JSON path says which)"
        case .unusedFile: return "a standard GTFS file the compiler does not read (fare_leg_join_rules, GTFS-Flex files): ignored"
        case .unusedTransfers:
            return
                "transfers.txt rows between routes or trips, or in-seat (type 4): not used (stop-to-stop transfers are); one note per feed counts them"
        case .frequencyOverlap:
            return
                "frequencies.txt windows of one trip overlap: every start of each window is kept, and a start instant two windows both produce counts once (the message says how many)"
        }
    }

    /// The diagnostics table of docs/gtfs-compile.md, one row per code.
    public static var markdownTable: String {
        var lines = ["| code | severity | what the compiler does |", "|---|---|---|"]
        for code in allCases { lines.append("| \(code.rawValue) | \(code.severity.rawValue) | \(code.action) |") }
        return lines.joined(separator: "\n")
    }
}
