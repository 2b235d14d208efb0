import Foundation
import GTFSCompiler

/// The one-screen summary printed after a successful compile.
enum SummaryText {
    static func render(_ s: CompileSummary, output: String) -> String {
        func date(_ value: ServiceDate?) -> String { value?.description ?? "-" }
        let rows: [(String, String)] = [
            ("feeds", "\(s.feeds)"), ("stops", "\(s.stops)"), ("routes", "\(s.routes)"), ("trips", "\(s.trips)"),
            ("patterns", "\(s.patterns)"), ("stop_times", "\(s.stopTimes)"),
            ("service dates", "\(date(s.serviceDates.first)) .. \(date(s.serviceDates.last))"),
            ("cities", "\(s.cities)"), ("warnings", "\(s.warnings)"),
            ("bundle", "\(output) (\(String(format: "%.2f", Double(s.bundleBytes) / 1_048_576)) MiB)"),
            ("time", String(format: "%.2f s", s.seconds)),
        ]
        return rows.map { $0.0.padding(toLength: 14, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
    }
}
