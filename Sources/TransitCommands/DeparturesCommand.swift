import ArgumentParser
import Foundation
import TransitRuntime

struct DeparturesCommand: BundleQuestion {
    static let configuration = CommandConfiguration(
        commandName: "departures", abstract: "What leaves a stop (or a station's platforms, or several stops) next.")

    @OptionGroup var options: BundleOptions

    @OptionGroup var board: BoardOptions

    func validate() throws { try board.validate() }

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        try board.reply(from: bundle, context: context, arrivals: false)
    }
}

struct ArrivalsCommand: BundleQuestion {
    static let configuration = CommandConfiguration(
        commandName: "arrivals", abstract: "What reaches a stop (or a station's platforms, or several stops) next, terminus included.")

    @OptionGroup var options: BundleOptions

    @OptionGroup var board: BoardOptions

    func validate() throws { try board.validate() }

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        try board.reply(from: bundle, context: context, arrivals: true)
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

    func query(arrivals: Bool, now: Date) throws -> Query {
        try .departures(stops: stop, feed: feed, at: at, windowMinutes: window, limit: limit, arrivals: arrivals, now: now)
    }

    /// The board; with live data (the context's, else `--realtime` files) the live board.
    func reply(from bundle: TransitBundle, context: CommandContext, arrivals: Bool) throws -> CommandReply {
        let query = try query(arrivals: arrivals, now: context.now)
        // --now, like --at, is read in the first stop's feed time zone.
        let live = try context.live ?? live.snapshot(bundle, feed: feed) { try bundle.windowStart($0, stop: stop[0], feed: feed) }
        guard let live, let (board, _) = try query.liveBoard(from: bundle, realtime: live.snapshot, now: live.now) else {
            return try query.answer(from: bundle).reply
        }
        var reply = CommandReply(value: board.departures) { LiveBoardOutput.text(board.departures, arrivals: arrivals) }
        reply.realtimeNotApplied = board.notApplied
        reply.isLive = true
        return reply
    }
}
