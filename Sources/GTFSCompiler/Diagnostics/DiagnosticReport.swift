import BundleFormat
import Foundation

/// The `--report` file, written whether the compile succeeded or failed: the outcome, the
/// bundle (path, bytes, SHA-256) when written, per-feed counts and coverage, counts by
/// code, and every kept diagnostic.
public struct DiagnosticReport: Encodable {
    struct CodeCount: Encodable {
        let code: String
        let severity: String
        let count: Int
        let action: String
    }

    struct Output: Encodable {
        let path: String
        let written: Bool
        let bytes: Int?
        let sha256: String?
    }

    let tool = "gtfs-compile"
    let version = ToolkitVersion.current
    let succeeded: Bool
    let failure: String?
    let output: Output
    let feeds: [CompileSummary.FeedSummary]
    let errors: Int
    let warnings: Int
    let infos: Int
    let summary: [CodeCount]
    let diagnostics: [Diagnostic]

    /// The report of a compile that wrote `summary`'s bundle, or (with `failure`) of one that stopped.
    public init(log: DiagnosticLog, outputPath: String, compiled: CompileSummary?, failure: String? = nil) {
        succeeded = failure == nil
        self.failure = failure
        let written = failure == nil && compiled != nil
        // The file's SHA-256 is computed here, only when a report is asked for.
        output = Output(
            path: outputPath, written: written, bytes: written ? compiled?.bundleBytes : nil,
            sha256: written ? try? sha256(of: [FileHandleStream(path: outputPath)]) : nil)
        feeds = compiled?.perFeed ?? []
        errors = log.errorCount
        warnings = log.warningCount
        infos = log.count(.info)
        summary = log.countsByCode.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            CodeCount(code: $0.key.rawValue, severity: $0.key.severity.rawValue, count: $0.value, action: $0.key.action)
        }
        diagnostics = log.diagnostics
    }

    /// Writes the report as JSON to `path` (atomically).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
