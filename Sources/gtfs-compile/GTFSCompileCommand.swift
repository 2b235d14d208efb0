import ArgumentParser
import Foundation
import GTFSCompiler

@main
struct GTFSCompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gtfs-compile",
        abstract: "Compile GTFS feeds into bundles, and describe bundles for a download server.",
        version: Compiler.version,
        subcommands: [CompileCommand.self, ManifestCommand.self, DiffCommand.self, PatchCommand.self, KeygenCommand.self],
        defaultSubcommand: CompileCommand.self)
}

/// `gtfs-compile [compile] FEED... -o BUNDLE`: the default subcommand.
struct CompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile GTFS feeds (zip or folder) and a city catalogue into one SQLite bundle.",
        discussion: """
            Each FEED is PATH or NAME=PATH; NAME is the feed's id in the bundle (default: the file \
            name without .zip). Exit status 0 when the bundle was written, 1 when nothing was written.
            """)

    @Argument(help: "Feeds to compile, as PATH or NAME=PATH.")
    var feeds: [String] = []

    @Option(name: .shortAndLong, help: "Where to write the bundle.")
    var output: String?

    @Option(help: "A city catalogue (JSON, see schemas/city.schema.json) to include.")
    var cities: String?

    @Option(help: "The bundle's id (default: the output file's name without extension).")
    var id: String?

    @Option(help: "A version label for the bundle, e.g. the timetable's name.")
    var label: String?

    @Option(
        help: ArgumentHelp(
            "An earlier version of this bundle: what exists in both keeps its integer id, so a patch between them stays small.",
            valueName: "OLD.db"))
    var base: String?

    @Flag(help: "Fail on any warning (except those given to --allow).")
    var strict = false

    @Option(help: ArgumentHelp("Warning codes that never fail the compile, comma-separated.", valueName: "CODE[,CODE]"))
    var allow: [String] = []

    @Option(help: "Fail when more than N warnings (not counting --allow codes) were reported.")
    var maxWarnings: Int?

    @Option(
        help:
            "Write every diagnostic, the outcome, the bundle's size and SHA-256, the service calendar, the map and (with --base) the changes to this JSON file (also on failure); a name ending in .html writes the HTML page instead."
    )
    var report: String?

    @Option(
        name: .customLong("report-html"),
        help: "Write the same report as one self-contained HTML page (summary, diagnostics, calendar, map, changes).")
    var reportHTML: String?

    @Flag(help: "Print only errors.")
    var quiet = false

    @Flag(help: "Print the diagnostic codes as a Markdown table and exit.")
    var listCodes = false

    func validate() throws {
        if listCodes { return }
        if feeds.isEmpty && cities == nil { throw ValidationError("give at least one feed or --cities") }
        if output == nil { throw ValidationError("missing -o/--output BUNDLE") }
        if let maxWarnings, maxWarnings < 0 { throw ValidationError("--max-warnings must not be negative") }
        _ = try allowedCodes()
    }

    private func allowedCodes() throws -> Set<DiagnosticCode> {
        var codes = Set<DiagnosticCode>()
        for name in allow.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let code = DiagnosticCode(rawValue: name.uppercased()) else {
                throw ValidationError("--allow: unknown code \(name); `gtfs-compile --list-codes` lists them")
            }
            guard code.severity == .warning else {
                throw ValidationError("--allow takes warning codes; \(name) is an \(code.severity.rawValue)")
            }
            codes.insert(code)
        }
        return codes
    }

    func run() throws {
        if listCodes {
            print(DiagnosticCode.markdownTable)
            return
        }
        guard let output else { return }
        let policy = WarningPolicy(strict: strict, allowed: try allowedCodes(), maxWarnings: maxWarnings)
        var request = CompileRequest(
            feeds: feeds.map(CompileRequest.Feed.init(argument:)), citiesPath: cities,
            outputPath: output, policy: policy)
        request.bundleID = id
        request.label = label
        request.basePath = base
        request.collectsReportFacts = report != nil || reportHTML != nil
        let log = DiagnosticLog()
        let showProgress = !quiet && isatty(STDERR_FILENO) != 0
        do {
            let summary = try Compiler.compile(request, log: log, progress: showProgress ? { printError("… \($0)") } : nil)
            try writeReport { DiagnosticReport(log: log, outputPath: output, compiled: summary) }
            if !quiet {
                if log.warningCount > 0 { printError(log.summaryText(minimum: .warning)) }
                printError(SummaryText.render(summary, output: output))
            }
        } catch let failure as CompileFailure {
            try writeReport { DiagnosticReport(log: log, outputPath: output, compiled: failure.summary, failure: failure.reason) }
            printError(failure.diagnostics.summaryText(minimum: quiet ? .error : .info))
            printError("gtfs-compile: nothing written: \(failure.reason)")
            throw ExitCode(1)
        }
    }

    /// Writes the report when `--report` or `--report-html` was given (building it reads the
    /// whole bundle): JSON and HTML from one value.
    private func writeReport(_ content: () -> DiagnosticReport) throws {
        var targets: [(path: String, html: Bool)] = []
        if let report { targets.append((report, report.lowercased().hasSuffix(".html") || report.lowercased().hasSuffix(".htm"))) }
        if let reportHTML { targets.append((reportHTML, true)) }
        guard !targets.isEmpty else { return }
        let value = content()
        for target in targets {
            do {
                if target.html { try ReportPage(value).write(to: target.path) } else { try value.write(to: target.path) }
            } catch {
                printError("gtfs-compile: cannot write the report \(target.path): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
