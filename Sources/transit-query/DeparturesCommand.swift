import ArgumentParser
import TransitRuntime

struct DeparturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "departures", abstract: "What leaves a stop (or a station's platforms) next.")

    @OptionGroup var options: BundleOptions

    @Option(help: "The stop_id.")
    var stop: String

    @Option(help: "The feed id, when several feeds have the stop.")
    var feed: String?

    @Option(help: "Start time: YYYY-MM-DDTHH:MM[:SS] local to the feed, or with an offset or Z (default: now).")
    var at: String?

    @Option(help: "Window length in minutes (default 60).")
    var window: Int?

    @Option(help: "Most departures to show (default 20).")
    var limit: Int?

    func run() throws {
        try options.ask { try .departures(stop: stop, feed: feed, at: at, windowMinutes: window, limit: limit) }
    }
}
