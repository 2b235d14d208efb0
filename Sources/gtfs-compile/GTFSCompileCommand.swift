import ArgumentParser
import Foundation
import GTFSCompiler

@main
struct GTFSCompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gtfs-compile",
        abstract: "Compile GTFS feeds (zip or folder) and a city catalogue into one SQLite bundle.",
        discussion: """
        Each FEED is PATH or NAME=PATH; NAME is the feed's id in the bundle (default: the file \
        name without .zip). Exit status 0 when the bundle was written, 1 when nothing was written.
        """)

    @Argument(help: "Feeds to compile, as PATH or NAME=PATH.")
    var feeds: [String] = []

    @Option(name: .shortAndLong, help: "Where to write the bundle.")
    var output: String

    @Option(help: "A city catalogue (JSON, see schemas/city.schema.json) to include.")
    var cities: String?

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Option(help: "Write every diagnostic, with a summary by code, to this JSON file.")
    var report: String?

    @Flag(help: "Print only errors.")
    var quiet = false

    func validate() throws {
        if feeds.isEmpty && cities == nil { throw ValidationError("give at least one feed or --cities") }
    }

    func run() throws {
        let request = CompileRequest(feeds: feeds.map(CompileRequest.Feed.init(argument:)), citiesPath: cities,
                                     outputPath: output, strict: strict)
        let log = DiagnosticLog()
        let showProgress = !quiet && isatty(STDERR_FILENO) != 0
        do {
            let summary = try Compiler.compile(request, log: log, progress: showProgress ? { printError("… \($0)") } : nil)
            try writeReport(log)
            if !quiet {
                if log.warningCount > 0 { printError(log.summaryText()) }
                printError(SummaryText.render(summary, output: output))
            }
        } catch let failure as CompileFailure {
            try writeReport(failure.log)
            printError(failure.log.summaryText())
            printError("gtfs-compile: nothing written: \(failure.log.errorCount) error(s), \(failure.log.warningCount) warning(s)\(strict ? " (--strict)" : "")")
            throw ExitCode(1)
        }
    }

    private func writeReport(_ log: DiagnosticLog) throws {
        guard let report else { return }
        try DiagnosticReport(log: log).write(to: report)
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
