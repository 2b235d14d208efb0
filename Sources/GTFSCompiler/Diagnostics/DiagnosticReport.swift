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
    /// The compile's totals (bundle-wide counts, coverage, seconds), nil when none were made.
    let totals: Totals?
    /// The calendar, map and changes, when the compile collected them.
    let facts: ReportFacts?

    /// Bundle-wide counts as the one-screen summary prints them.
    struct Totals: Encodable {
        let feeds: Int
        let stops: Int
        let routes: Int
        let trips: Int
        let patterns: Int
        let stopTimes: Int
        let cities: Int
        let firstDate: ServiceDate?
        let lastDate: ServiceDate?
        let seconds: Double

        private enum CodingKeys: String, CodingKey {
            case feeds, stops, routes, trips, patterns
            case stopTimes = "stop_times"
            case cities
            case firstDate = "first_date"
            case lastDate = "last_date"
            case seconds
        }
    }

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
        totals = compiled.map {
            Totals(
                feeds: $0.feeds, stops: $0.stops, routes: $0.routes, trips: $0.trips, patterns: $0.patterns, stopTimes: $0.stopTimes,
                cities: $0.cities, firstDate: $0.serviceDates.first, lastDate: $0.serviceDates.last, seconds: $0.seconds)
        }
        facts = compiled?.facts
    }

    /// Writes the report as JSON to `path` (atomically).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
