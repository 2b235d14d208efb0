/// Collects diagnostics for one compile; cheap to append to, limited in memory.
public final class DiagnosticLog {
    public private(set) var diagnostics: [Diagnostic] = []
    public private(set) var countsByCode: [DiagnosticCode: Int] = [:]
    /// Diagnostics beyond this many of one code are counted but not kept.
    public let keepPerCode: Int

    public init(keepPerCode: Int = 1000) { self.keepPerCode = keepPerCode }

    public func add(_ diagnostic: Diagnostic) {
        let count = countsByCode[diagnostic.code, default: 0]
        countsByCode[diagnostic.code] = count + 1
        if count < keepPerCode { diagnostics.append(diagnostic) }
    }

    public var errorCount: Int { countsByCode.filter { $0.key.severity == .error }.values.reduce(0, +) }
    public var warningCount: Int { countsByCode.filter { $0.key.severity == .warning }.values.reduce(0, +) }
    public var hasErrors: Bool { errorCount > 0 }

    /// Text for a person: errors first, the first `perCode` of each code, then a count of the rest.
    public func summaryText(perCode: Int = 5) -> String {
        var lines: [String] = []
        let codes = countsByCode.keys.sorted { ($0.severity == .error ? 0 : 1, $0.rawValue) < ($1.severity == .error ? 0 : 1, $1.rawValue) }
        for code in codes {
            let shown = diagnostics.filter { $0.code == code }.prefix(perCode)
            lines += shown.map(\.formatted)
            let rest = countsByCode[code, default: 0] - shown.count
            if rest > 0 { lines.append("  ... and \(rest) more [\(code.rawValue)]") }
        }
        return lines.joined(separator: "\n")
    }
}
