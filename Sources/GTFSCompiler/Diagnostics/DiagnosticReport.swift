import Foundation

/// The `--report` file: every kept diagnostic plus counts by code.
public struct DiagnosticReport: Encodable {
    struct CodeCount: Encodable {
        let code: String
        let severity: String
        let count: Int
        let action: String
    }

    let errors: Int
    let warnings: Int
    let summary: [CodeCount]
    let diagnostics: [Diagnostic]

    public init(log: DiagnosticLog) {
        errors = log.errorCount
        warnings = log.warningCount
        summary = log.countsByCode.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            CodeCount(code: $0.key.rawValue, severity: $0.key.severity.rawValue, count: $0.value, action: $0.key.action)
        }
        diagnostics = log.diagnostics
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
