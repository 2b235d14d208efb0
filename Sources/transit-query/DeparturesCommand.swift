import ArgumentParser
import TransitRuntime

struct DeparturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "departures", abstract: "What leaves a stop (or a station's platforms, or several stops) next.")

    @OptionGroup var options: BundleOptions

    @OptionGroup var board: BoardOptions

    func validate() throws { try board.validate() }

    func run() throws {
        if !board.live.realtime.isEmpty { return try LiveBoardOutput.run(board, arrivals: false, options: options) }
        try options.ask { try board.query(arrivals: false) }
    }
}

struct ArrivalsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arrivals", abstract: "What reaches a stop (or a station's platforms, or several stops) next, terminus included.")

    @OptionGroup var options: BundleOptions

    @OptionGroup var board: BoardOptions

    func validate() throws { try board.validate() }

    func run() throws {
        if !board.live.realtime.isEmpty { return try LiveBoardOutput.run(board, arrivals: true, options: options) }
        try options.ask { try board.query(arrivals: true) }
    }
}

/// The options of a departures or arrivals board.
struct BoardOptions: ParsableArguments {
    @Option(help: "The stop_id; repeat it for several stops, merged in time order.")
    var stop: [String] = []

    @Option(help: "The feed id, when several feeds have the stop.")
    var feed: String?

    @Option(help: "Start time: YYYY-MM-DDTHH:MM[:SS] local to the feed, or with an offset or Z (default: now).")
    var at: String?

    @Option(help: "Window length in minutes (default 60).")
    var window: Int?

    @Option(help: "Most calls to show (default 20).")
    var limit: Int?

    @OptionGroup var live: LiveOptions

    /// A usage error (exit 64) without a stop; times and numbers are checked when asked.
    func validate() throws {
        if stop.isEmpty { throw ValidationError("give a stop: --stop ID (repeat it for several stops)") }
        try live.validate()
    }

    func query(arrivals: Bool) throws -> Query {
        try .departures(stops: stop, feed: feed, at: at, windowMinutes: window, limit: limit, arrivals: arrivals)
    }
}
