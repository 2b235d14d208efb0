/// Collects diagnostics for one compile; cheap to append to, bounded in memory: past
/// `keepPerCode` diagnostics of one code, the rest are counted but not kept.
public final class DiagnosticLog {
    /// What was reported so far.
    public private(set) var record: DiagnosticRecord

    /// A log keeping at most `keepPerCode` diagnostics of each code (all are counted).
    public init(keepPerCode: Int = 1000) { record = DiagnosticRecord(keepPerCode: keepPerCode) }

    /// Reports `diagnostic`.
    public func add(_ diagnostic: Diagnostic) { record.add(diagnostic) }

    /// The diagnostics kept, in the order reported.
    public var diagnostics: [Diagnostic] { record.diagnostics }
    /// How many of each code were reported (kept or not).
    public var countsByCode: [DiagnosticCode: Int] { record.countsByCode }
    /// Errors reported.
    public var errorCount: Int { record.count(.error) }
    /// Warnings reported.
    public var warningCount: Int { record.count(.warning) }
    /// Whether any error was reported.
    public var hasErrors: Bool { errorCount > 0 }
    /// Diagnostics of `severity` reported.
    public func count(_ severity: Diagnostic.Severity) -> Int { record.count(severity) }

    /// Warnings whose code is not in `allowed`.
    public func warningCount(excluding allowed: Set<DiagnosticCode>) -> Int {
        countsByCode.filter { $0.key.severity == .warning && !allowed.contains($0.key) }.values.reduce(0, +)
    }

    /// A few of each code at `minimum` severity or more, as the command line prints them.
    public func summaryText(perCode: Int = 5, minimum: Diagnostic.Severity = .info) -> String {
        record.summaryText(perCode: perCode, minimum: minimum)
    }
}

/// What a log holds, as a value: kept diagnostics and counts by code. `CompileFailure`
/// carries one, so the error can cross threads.
public struct DiagnosticRecord: Sendable {
    /// The diagnostics kept, in the order reported.
    public private(set) var diagnostics: [Diagnostic] = []
    /// How many of each code were reported.
    public private(set) var countsByCode: [DiagnosticCode: Int] = [:]
    /// Diagnostics beyond this many of one code are counted but not kept.
    public let keepPerCode: Int

    init(keepPerCode: Int) { self.keepPerCode = keepPerCode }

    mutating func add(_ diagnostic: Diagnostic) {
        let count = countsByCode[diagnostic.code, default: 0]
        countsByCode[diagnostic.code] = count + 1
        if count < keepPerCode { diagnostics.append(diagnostic) }
    }

    /// Diagnostics of `severity` reported.
    public func count(_ severity: Diagnostic.Severity) -> Int {
        countsByCode.filter { $0.key.severity == severity }.values.reduce(0, +)
    }

    /// Text for a person: errors first, then warnings, then information; the first `perCode`
    /// of each code, then a count of the rest.
    public func summaryText(perCode: Int = 5, minimum: Diagnostic.Severity = .info) -> String {
        var lines: [String] = []
        let codes = countsByCode.keys.filter { $0.severity >= minimum }
            .sorted { ($0.severity, $1.rawValue) > ($1.severity, $0.rawValue) }
        for code in codes {
            let shown = diagnostics.filter { $0.code == code }.prefix(perCode)
            lines += shown.map(\.formatted)
            let rest = countsByCode[code, default: 0] - shown.count
            if rest > 0 { lines.append("  ... and \(rest) more [\(code.rawValue)]") }
        }
        return lines.joined(separator: "\n")
    }
}
