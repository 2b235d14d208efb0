/// One problem found in the input: where it is, what it is, and how bad.
///
/// Prints as `metro/stop_times.txt:1234:4: warning: [W_BAD_TIME] departure_time "25:7:00": ...`.
public struct Diagnostic: Sendable, Equatable, Codable {
    /// `info` notes something the compiler leaves aside on purpose (never fails a compile),
    /// `warning` a repair or a dropped row, `error` a problem that stops the compile.
    public enum Severity: String, Sendable, Codable, Comparable {
        case info, warning, error

        private var rank: Int {
            switch self {
            case .info: return 0
            case .warning: return 1
            case .error: return 2
            }
        }

        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    /// What was found (its stable code).
    public var code: DiagnosticCode
    /// The code's severity.
    public var severity: Diagnostic.Severity { code.severity }
    /// The feed's id in the bundle (or "cities" for the catalogue).
    public var feed: String?
    /// The input file, nil for the feed as a whole.
    public var file: String?
    /// The line in the file (from 1), when one is concerned.
    public var line: Int?
    /// The column (from 1), when known.
    public var column: Int?
    /// The field concerned.
    public var field: String?
    /// The id of the record concerned (a stop_id, a trip_id).
    public var entityID: String?
    /// The value found.
    public var value: String?
    /// What to do about it, in words.
    public var message: String

    /// A diagnostic built by hand (tests).
    public init(
        _ code: DiagnosticCode, feed: String? = nil, file: String? = nil, line: Int? = nil, column: Int? = nil,
        field: String? = nil, entityID: String? = nil, value: String? = nil, message: String
    ) {
        self.code = code
        self.feed = feed
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.entityID = entityID
        self.value = value
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case code, severity, feed, file, line, column, field, entityID, value, message
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try c.decode(DiagnosticCode.self, forKey: .code), feed: try c.decodeIfPresent(String.self, forKey: .feed),
            file: try c.decodeIfPresent(String.self, forKey: .file), line: try c.decodeIfPresent(Int.self, forKey: .line),
            column: try c.decodeIfPresent(Int.self, forKey: .column), field: try c.decodeIfPresent(String.self, forKey: .field),
            entityID: try c.decodeIfPresent(String.self, forKey: .entityID), value: try c.decodeIfPresent(String.self, forKey: .value),
            message: try c.decode(String.self, forKey: .message))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(severity, forKey: .severity)
        try c.encodeIfPresent(feed, forKey: .feed)
        try c.encodeIfPresent(file, forKey: .file)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encodeIfPresent(column, forKey: .column)
        try c.encodeIfPresent(field, forKey: .field)
        try c.encodeIfPresent(entityID, forKey: .entityID)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encode(message, forKey: .message)
    }

    /// `feed/file:line:column: severity: [CODE] field "value": message` (parts that are unknown are left out).
    public var formatted: String {
        var place = ""
        if let feed { place += "\(feed)/" }
        if let file { place += file }
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        var text = place.isEmpty ? "" : place + ": "
        text += "\(severity.rawValue): [\(code.rawValue)] "
        if let field { text += field }
        if let value { text += (field == nil ? "" : " ") + "\"\(value.prefix(80))\"" }
        if field != nil || value != nil { text += ": " }
        return text + message
    }
}
