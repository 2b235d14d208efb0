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
    /// Compiles the request's feeds (and city catalogue) into one bundle.
    /// - Throws: `CompileFailure` when an error (or, with `strict`, a warning) stops the build;
    ///   nothing is written then.
    public static func compile(_ request: CompileRequest, log: DiagnosticLog = DiagnosticLog(),
                               progress: ((String) -> Void)? = nil) throws -> CompileSummary {
        let clock = Date()
        var builder = ModelBuilder(log: log)
        var cities: CityModel?
        do {
            let names = request.feeds.map(\.name)
            if let duplicate = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
                throw Diagnostic(.unreadableInput, feed: duplicate, message: "two feeds share the id \"\(duplicate)\"; name them NAME=PATH")
            }
            for input in request.feeds.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }) {
                progress?("reading \(input.name) (\(input.path))")
                let feed = try FeedReader.read(name: input.name, path: input.path, log: log)
                progress?("building patterns for \(input.name)")
                try builder.add(feed)
            }
            if let path = request.citiesPath {
                progress?("reading cities (\(path))")
                let fids = Dictionary(uniqueKeysWithValues: builder.model.feeds.map { ($0.feedID, $0.fid) })
                cities = try CityCatalog.read(path: path, feedIDs: fids, log: log)
            }
        } catch let diagnostic as Diagnostic {
            log.add(diagnostic)
        }
        if log.hasErrors || (request.strict && log.warningCount > 0) {
            throw CompileFailure(log: log)
        }
        var model = builder.finish()
        model.cityCount = cities?.cities.count ?? 0
        progress?("writing \(request.outputPath)")
        do {
            try BundleWriter(outputPath: request.outputPath).write(model, cities: cities)
        } catch let diagnostic as Diagnostic {
            log.add(diagnostic)
            throw CompileFailure(log: log)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: request.outputPath)[.size] as? Int) ?? 0
        return CompileSummary(model: model, cities: cities?.cities.count ?? 0, bundleBytes: size, seconds: Date().timeIntervalSince(clock),
                              warnings: log.warningCount)
    }
}

/// What to compile.
public struct CompileRequest: Sendable {
    /// One input feed: its id in the bundle and its path (zip or folder).
    public struct Feed: Sendable {
        public var name: String
        public var path: String
        public init(name: String, path: String) { self.name = name; self.path = path }

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

    public var feeds: [Feed]
    public var citiesPath: String?
    public var outputPath: String
    /// Treat warnings as errors.
    public var strict: Bool

    public init(feeds: [Feed], citiesPath: String? = nil, outputPath: String, strict: Bool = false) {
        self.feeds = feeds
        self.citiesPath = citiesPath
        self.outputPath = outputPath
        self.strict = strict
    }
}

/// The compile stopped; `log` says why. Nothing was written.
public struct CompileFailure: Error {
    public let log: DiagnosticLog
}

/// Counts for the one-screen summary.
public struct CompileSummary: Sendable {
    public let feeds: Int
    public let stops: Int
    public let routes: Int
    public let trips: Int
    public let patterns: Int
    public let stopTimes: Int
    public let serviceDates: (first: Int?, last: Int?)
    public let cities: Int
    public let warnings: Int
    public let bundleBytes: Int
    public let seconds: Double

    init(model: BundleModel, cities: Int, bundleBytes: Int, seconds: Double, warnings: Int) {
        feeds = model.feeds.count
        stops = model.stops.count
        routes = model.routes.count
        trips = model.trips.count
        patterns = model.patterns.count
        stopTimes = model.stopTimeCount
        serviceDates = (model.feeds.compactMap(\.firstDate).min(), model.feeds.compactMap(\.lastDate).max())
        self.cities = cities
        self.warnings = warnings
        self.bundleBytes = bundleBytes
        self.seconds = seconds
    }
}
