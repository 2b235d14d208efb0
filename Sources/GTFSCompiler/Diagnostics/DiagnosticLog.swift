/// Collects diagnostics for one compile; cheap to append to, bounded in memory: past
/// `keepPerCode` diagnostics of one code, the rest are counted but not kept.
public final class DiagnosticLog {
    public private(set) var record: DiagnosticRecord

    public init(keepPerCode: Int = 1000) { record = DiagnosticRecord(keepPerCode: keepPerCode) }

    public func add(_ diagnostic: Diagnostic) { record.add(diagnostic) }

    public var diagnostics: [Diagnostic] { record.diagnostics }
    public var countsByCode: [DiagnosticCode: Int] { record.countsByCode }
    public var errorCount: Int { record.count(.error) }
    public var warningCount: Int { record.count(.warning) }
    public var hasErrors: Bool { errorCount > 0 }
    public func count(_ severity: Diagnostic.Severity) -> Int { record.count(severity) }

    /// Warnings whose code is not in `allowed`.
    public func warningCount(excluding allowed: Set<DiagnosticCode>) -> Int {
        countsByCode.filter { $0.key.severity == .warning && !allowed.contains($0.key) }.values.reduce(0, +)
    }

    public func summaryText(perCode: Int = 5, minimum: Diagnostic.Severity = .info) -> String {
        record.summaryText(perCode: perCode, minimum: minimum)
    }
}

/// What a log holds, as a value: kept diagnostics and counts by code. `CompileFailure`
/// carries one, so the error can cross threads.
public struct DiagnosticRecord: Sendable {
    public private(set) var diagnostics: [Diagnostic] = []
    public private(set) var countsByCode: [DiagnosticCode: Int] = [:]
    /// Diagnostics beyond this many of one code are counted but not kept.
    public let keepPerCode: Int

    init(keepPerCode: Int) { self.keepPerCode = keepPerCode }

    mutating func add(_ diagnostic: Diagnostic) {
        let count = countsByCode[diagnostic.code, default: 0]
        countsByCode[diagnostic.code] = count + 1
        if count < keepPerCode { diagnostics.append(diagnostic) }
    }

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
