/// The catalogue of input problems. Each code has one severity and one repair;
/// the README lists them all.
public enum DiagnosticCode: String, Sendable, Codable, CaseIterable {
    // Errors: nothing is written.
    case missingFile = "E_MISSING_FILE"
    case missingColumn = "E_MISSING_COLUMN"
    case notUTF8 = "E_NOT_UTF8"
    case nulByte = "E_NUL_BYTE"
    case unreadableArchive = "E_ARCHIVE"
    case lineTooLong = "E_LINE_TOO_LONG"
    case noUsableTrips = "E_NO_TRIPS"
    case unreadableInput = "E_INPUT"
    case badCatalogue = "E_CITIES"
    case noTimezone = "E_NO_TIMEZONE"
    // Warnings: the row or value is repaired or skipped, and the compile goes on.
    case cellCount = "W_CELL_COUNT"
    case unknownReference = "W_UNKNOWN_REF"
    case duplicateID = "W_DUPLICATE_ID"
    case badTime = "W_BAD_TIME"
    case badDate = "W_BAD_DATE"
    case badValue = "W_BAD_VALUE"
    case missingValue = "W_MISSING_VALUE"
    case sequenceNotIncreasing = "W_SEQUENCE"
    case timeTravel = "W_TIME_BACKWARDS"
    case missingEndpointTime = "W_ENDPOINT_TIME"
    case badFrequency = "W_FREQUENCY"
    case tooFewStops = "W_FEW_STOPS"
    case badParentStation = "W_PARENT_STATION"
    case badTimezone = "W_TIMEZONE"
    case unknownFile = "W_UNKNOWN_FILE"
    case emptyFile = "W_EMPTY_FILE"
    case duplicateColumn = "W_DUPLICATE_COLUMN"
    case badCity = "W_CITY"

    public var severity: Diagnostic.Severity {
        rawValue.hasPrefix("E_") ? .error : .warning
    }

    /// What the compiler does when it meets this problem.
    public var action: String {
        switch self {
        case .missingFile: return "required file absent (agency, stops, routes, trips, stop_times, and calendar or calendar_dates): stop"
        case .missingColumn: return "required column absent from a file's header: stop"
        case .notUTF8: return "file is not UTF-8 (UTF-16, invalid byte sequences): stop"
        case .nulByte: return "file contains a NUL byte: stop"
        case .unreadableArchive: return "zip cannot be read, or an entry is damaged, oversized or lies about its size: stop"
        case .lineTooLong: return "a CSV record longer than 1 MB: stop"
        case .noUsableTrips: return "no trip survives the checks: stop"
        case .unreadableInput: return "input path missing or unreadable: stop"
        case .noTimezone: return "no agency has a valid IANA timezone: stop"
        case .badCatalogue: return "city catalogue unreadable, not valid JSON, or without \"version\": 1 and a \"cities\" array: stop"
        case .cellCount: return "row has more or fewer cells than the header: extra cells ignored, missing ones read as empty"
        case .unknownReference: return "reference to an unknown stop, route, trip, service or agency: row dropped"
        case .duplicateID: return "an id defined twice: the first wins, later rows dropped"
        case .badTime: return "time not H:MM:SS: the stop time is treated as untimed (interpolated) or the row dropped"
        case .badDate: return "date not YYYYMMDD: row dropped"
        case .badValue: return "number, enum or coordinate out of range or unparsable: default used or row dropped (message says which)"
        case .missingValue: return "required value empty: row dropped"
        case .sequenceNotIncreasing: return "stop_sequence repeated or negative within a trip: repeated row dropped"
        case .timeTravel: return "times decrease along a trip: trip dropped"
        case .missingEndpointTime: return "first or last stop_time of a trip has no time: trip dropped"
        case .badFrequency: return "frequency window ends before it starts, lacks a time or headway, or overlaps another: window dropped"
        case .tooFewStops: return "trip has fewer than two stop_times: trip dropped"
        case .badParentStation: return "parent_station missing or not a station: link dropped"
        case .badTimezone: return "unknown IANA timezone: agency kept, feed uses the first valid agency timezone (stop if none)"
        case .unknownFile: return "file not used by the compiler (or __MACOSX, or unsafe path): ignored"
        case .emptyFile: return "file has no header row: treated as empty"
        case .duplicateColumn: return "a header names a column twice: the first is used"
        case .badCity: return "a city lacks a required field, has a wrong type or an out-of-range value, repeats an id, or links to nothing: the value, link or city is dropped (the path says which)"
        }
    }
}
