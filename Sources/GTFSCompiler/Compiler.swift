import BundleFormat
import Foundation

/// The compile pipeline in one place: each feed is read (source -> CSV -> typed
/// records with diagnostics), folded into the model (patterns, services), and the
/// model is written as one bundle.
///
/// ```swift
/// let request = CompileRequest(feeds: [.init(name: "cts", path: "cts.zip")], outputPath: "city.db")
/// let summary = try Compiler.compile(request)
/// print(summary.trips, summary.patterns)
/// ```
public enum Compiler {
    /// The compiler's version, as `--version` prints it and bundles record it.
    public static var version: String { ToolkitVersion.current }

    /// Compiles the request's feeds (and city catalogue) into one bundle.
    ///
    /// Every feed is read to the end of its files even when one of them has an error, so one
    /// run names every problem; then any error (or a warning the request's policy refuses)
    /// fails the compile.
    /// - Throws: `CompileFailure` when the compile stops; nothing is written then, and the
    ///   output path is untouched.
    public static func compile(
        _ request: CompileRequest, log: DiagnosticLog = DiagnosticLog(),
        progress: ((String) -> Void)? = nil
    ) throws -> CompileSummary {
        let clock = Date()
        var builder = ModelBuilder(log: log)
        var cities: CityModel?
        do {
            if let base = request.basePath {
                progress?("reading the ids of \(base)")
                builder = ModelBuilder(log: log, ids: try BundleIDs(base: base))
            }
            let names = request.feeds.map(\.name)
            if let duplicate = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
                throw FatalDiagnostic(
                    .unreadableInput, feed: duplicate, message: "two feeds share the id \"\(duplicate)\"; name them NAME=PATH")
            }
            for input in request.feeds.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }) {
                let errorsBefore = log.errorCount
                do {
                    progress?("reading \(input.name) (\(input.path))")
                    let feed = try FeedReader.read(name: input.name, path: input.path, log: log)
                    // A feed with an error is not built: its records may be incomplete.
                    guard log.errorCount == errorsBefore else { continue }
                    progress?("building patterns for \(input.name)")
                    try builder.add(feed)
                } catch let fatal as FatalDiagnostic {
                    // One feed's failure does not hide the next feed's problems.
                    log.add(fatal.inFeed(input.name).diagnostic)
                }
            }
            if let path = request.citiesPath {
                progress?("reading cities (\(path))")
                let fids = Dictionary(uniqueKeysWithValues: builder.model.feeds.map { ($0.feedID, $0.fid) })
                cities = try CityCatalog.read(path: path, feedIDs: fids, log: log)
            }
        } catch let fatal as FatalDiagnostic {
            log.add(fatal.diagnostic)
        }
        if !log.hasErrors && builder.model.feeds.count != request.feeds.count {
            // Never reached by design; a bundle missing a feed it was given is never written.
            log.add(Diagnostic(.unreadableInput, message: "\(request.feeds.count) feeds given but \(builder.model.feeds.count) built"))
        }
        var model = builder.finish()
        model.cityCount = cities?.cities.count ?? 0
        model.bundleID = request.bundleID ?? URL(fileURLWithPath: request.outputPath).deletingPathExtension().lastPathComponent
        model.label = request.label
        var summary = CompileSummary(model: model, cities: model.cityCount, warnings: log.warningCount)
        if request.collectsReportFacts {
            progress?("reading the calendar and the map for the report")
            summary.facts = ReportFacts(model: model, basePath: request.basePath)
        }
        if let refusal = request.policy.refusal(log) {
            throw CompileFailure(diagnostics: log.record, reason: refusal, summary: summary)
        }
        progress?("writing \(request.outputPath)")
        do {
            try BundleWriter(outputPath: request.outputPath).write(model, cities: cities)
        } catch let fatal as FatalDiagnostic {
            log.add(fatal.diagnostic)
            throw CompileFailure(diagnostics: log.record, reason: "the bundle could not be written", summary: summary)
        } catch {
            log.add(Diagnostic(.outputFailed, file: request.outputPath, message: "cannot write the bundle: \(error)"))
            throw CompileFailure(diagnostics: log.record, reason: "the bundle could not be written", summary: summary)
        }
        summary.bundleBytes = (try? FileManager.default.attributesOfItem(atPath: request.outputPath)[.size] as? Int) ?? 0
        summary.seconds = Date().timeIntervalSince(clock)
        return summary
    }
}

/// What to compile.
public struct CompileRequest: Sendable {
    /// One input feed: its id in the bundle and its path (zip or folder).
    public struct Feed: Sendable {
        /// The feed's name in the bundle (`cts` in `cts=cts.zip`).
        public var name: String
        /// The feed's zip file or folder.
        public var path: String
        /// The feed at `path`, named `name`.
        public init(name: String, path: String) {
            self.name = name
            self.path = path
        }

        /// Parses `NAME=PATH` or `PATH` (the id is then the file name without extension).
        public init(argument: String) {
            if let eq = argument.firstIndex(of: "="), !argument[..<eq].contains("/") {
                self.init(name: String(argument[..<eq]), path: String(argument[argument.index(after: eq)...]))
            } else {
                let file = URL(fileURLWithPath: argument).lastPathComponent
                let name = file.hasSuffix(".zip") ? String(file.dropLast(4)) : file
                self.init(name: name, path: argument)
            }
        }
    }

    /// The feeds to compile into one bundle.
    public var feeds: [Feed]
    /// The city catalogue (JSON), nil for none.
    public var citiesPath: String?
    /// Where the bundle is written (atomically: nothing is left there on failure).
    public var outputPath: String
    /// Which warnings fail the compile.
    public var policy: WarningPolicy
    /// The bundle's id (default: the output file's name without extension) and version label.
    public var bundleID: String?
    /// A name to show for the bundle, nil for none.
    public var label: String?
    /// `--base`: an earlier version of the bundle whose integer ids are kept for what exists
    /// in both (see `BundleIDs`). Without it, ids follow the byte order of text ids.
    public var basePath: String?
    /// Compute the report's calendar, map and (with `basePath`) changes (`CompileSummary.facts`).
    public var collectsReportFacts = false

    /// A request; `strict` refuses the bundle on any warning.
    public init(feeds: [Feed], citiesPath: String? = nil, outputPath: String, strict: Bool = false) {
        self.init(feeds: feeds, citiesPath: citiesPath, outputPath: outputPath, policy: WarningPolicy(strict: strict))
    }

    /// A request with a warning policy.
    public init(feeds: [Feed], citiesPath: String? = nil, outputPath: String, policy: WarningPolicy) {
        self.feeds = feeds
        self.citiesPath = citiesPath
        self.outputPath = outputPath
        self.policy = policy
    }
}

/// The compile stopped; `diagnostics` says why and `reason` sums it up. Nothing was written.
public struct CompileFailure: Error {
    /// Everything reported before the compile stopped.
    public let diagnostics: DiagnosticRecord
    /// Why it stopped, in words.
    public let reason: String
    /// What had been built when the compile stopped (feeds that were read without error).
    public let summary: CompileSummary
}
