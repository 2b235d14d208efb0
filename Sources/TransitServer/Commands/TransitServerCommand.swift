import ArgumentParser
import Foundation
import Logging
import TransitRuntime

/// `transit-server`: `serve` (the default) answers the runtime's questions over HTTP.
public struct TransitServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "transit-server", abstract: "Serve transit bundles over HTTP: the answers of transit-query, with live data.",
        version: TransitBundle.runtimeVersion, subcommands: [ServeCommand.self, TokenCommand.self], defaultSubcommand: ServeCommand.self)

    /// The command as ArgumentParser builds it.
    public init() {}
}

/// `transit-server serve`: docs/transit-server.md.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve bundles until SIGTERM or SIGINT; SIGHUP checks the bundle files at once.")

    @Option(help: "A bundle served as NAME: NAME=PATH (repeat it for several).")
    var bundle: [String] = []

    @Option(help: "A TransitStore folder: every installed bundle, by its catalogue id.")
    var store: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0: a free one; the address is printed as 'listening on http://HOST:PORT').")
    var port = 8080

    @Option(help: "A fixed clock: YYYY-MM-DDTHH:MM[:SS] with Z or an offset, or local to the first bundle's first feed.")
    var now: String?

    @Option(help: "A GTFS-Realtime URL for a bundle: NAME=URL (repeat it; trip updates, vehicle positions, alerts).")
    var realtime: [String] = []

    @Option(help: "Seconds between fetches of each live source (default 30).")
    var realtimeInterval: Double = 30

    @Option(help: "Seconds between checks of the bundle files for a new version (default 2).")
    var bundleCheckInterval: Double = 2

    @Option(help: "Threads answering queries (default: the machine's active cores).")
    var threads: Int?

    @Option(help: "Send Access-Control-Allow-Origin with this value (CORS is off otherwise).")
    var corsOrigin: String?

    @Option(help: "Seconds a connection may stay idle before it is closed (default 30).")
    var idleTimeout: Double = 30

    @Option(help: "Seconds a request body (a batch) may take to arrive (default 10).")
    var bodyTimeout: Double = 10

    @Option(help: "Keep riders' synced data (/v1/sync): sqlite:PATH, or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
    var syncDb: String?

    @Option(help: "A file holding the HS256 key that JWTs from the app's login are checked with (beside transit-server tokens).")
    var jwtSecretFile: String?

    @Option(help: "Log level: trace, debug, info (one line a request), notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        if bundle.isEmpty && store == nil && syncDb == nil {
            throw ValidationError("give --bundle NAME=PATH, --store DIR or --sync-db")
        }
        if let syncDb { _ = try SyncStorageAddress(syncDb) }
        if jwtSecretFile != nil && syncDb == nil { throw ValidationError("--jwt-secret-file needs --sync-db") }
        if !(0...65_535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        if !(0.1...86_400).contains(realtimeInterval) { throw ValidationError("--realtime-interval must be 0.1 to 86400 seconds") }
        if !(0.1...3_600).contains(bundleCheckInterval) { throw ValidationError("--bundle-check-interval must be 0.1 to 3600 seconds") }
        if !(0.1...3_600).contains(idleTimeout) { throw ValidationError("--idle-timeout must be 0.1 to 3600 seconds") }
        if !(0.1...3_600).contains(bodyTimeout) { throw ValidationError("--body-timeout must be 0.1 to 3600 seconds") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be 1 to 256") }
        if Logger.Level(rawValue: logLevel) == nil { throw ValidationError("--log-level \(logLevel) is not a level") }
        _ = try namedBundles()
        _ = try liveSources()
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = ServerConfiguration()
        configuration.bundles = try namedBundles()
        configuration.storeDirectory = store
        configuration.host = host
        configuration.port = port
        configuration.liveSources = try liveSources()
        configuration.realtimeInterval = realtimeInterval
        configuration.bundleCheckInterval = bundleCheckInterval
        if let threads { configuration.queryThreads = threads }
        configuration.corsOrigin = corsOrigin
        configuration.idleTimeout = idleTimeout
        configuration.bodyTimeout = bodyTimeout
        configuration.syncDatabase = syncDb
        do {
            if let jwtSecretFile {
                let key = try Data(contentsOf: URL(fileURLWithPath: jwtSecretFile))
                guard key.count >= 32 else { throw ServerConfigurationError("--jwt-secret-file: an HS256 key is at least 32 bytes") }
                configuration.jwtSecret = key
            }
            configuration.fixedNow = try now.map { try fixedClock($0, bundles: configuration.bundles) }
            let server = try await TransitServer(configuration: configuration)
            try await server.run { host, port in
                let shown = host.contains(":") ? "[\(host)]" : host
                FileHandle.standardOutput.write(Data("listening on http://\(shown):\(port)\n".utf8))
            }
        } catch let error as TransitError {
            FileHandle.standardError.write(Data("transit-server: \(error)\n".utf8))
            throw ExitCode(error.kind == .badInput ? 64 : 66)
        } catch let error as ServerConfigurationError {
            FileHandle.standardError.write(Data("transit-server: \(error)\n".utf8))
            throw ExitCode(64)
        } catch {
            FileHandle.standardError.write(Data("transit-server: \(error)\n".utf8))
            throw ExitCode(74)
        }
    }

    private func namedBundles() throws -> [ServerConfiguration.NamedBundle] {
        try bundle.map { text in
            let (name, path) = try Self.pair(text, option: "--bundle")
            return ServerConfiguration.NamedBundle(name: name, path: path)
        }
    }

    private func liveSources() throws -> [ServerConfiguration.LiveSource] {
        try realtime.map { text in
            let (name, address) = try Self.pair(text, option: "--realtime")
            guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--realtime \(text): the URL must be http:// or https://")
            }
            return ServerConfiguration.LiveSource(bundle: name, url: url)
        }
    }

    private static func pair(_ text: String, option: String) throws -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
            throw ValidationError("\(option) \(text): give NAME=VALUE")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `--now` as an instant; a local time is read in the first bundle's first feed.
    private func fixedClock(_ text: String, bundles: [ServerConfiguration.NamedBundle]) throws -> Date {
        let time = try QueryTime.parse(text)
        if case .instant(let date) = time { return date }
        guard let first = bundles.first else {
            throw ValidationError("--now \(text): give an offset or Z (no bundle file to read a time zone from)")
        }
        return try TransitBundle(path: first.path).instant(of: time)
    }
}
