/// One problem found in the input: where it is, what it is, and how bad.
///
/// Prints as `stop_times.txt:1234:4: error: E_TIME_FORMAT departure_time "25:7:00": ...`.
public struct Diagnostic: Sendable, Equatable, Codable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case warning, error

        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    public var code: DiagnosticCode
    public var severity: Severity
    /// The feed's id in the bundle (or "cities" for the catalogue).
    public var feed: String?
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var field: String?
    public var entityID: String?
    public var value: String?
    public var message: String

    public init(_ code: DiagnosticCode, severity: Severity? = nil, feed: String? = nil, file: String? = nil,
                line: Int? = nil, column: Int? = nil, field: String? = nil, entityID: String? = nil,
                value: String? = nil, message: String) {
        self.code = code
        self.severity = severity ?? code.severity
        self.feed = feed
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.entityID = entityID
        self.value = value
        self.message = message
    }

    /// `file:line:column: severity: [CODE] field "value": message` (parts that are unknown are left out).
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
