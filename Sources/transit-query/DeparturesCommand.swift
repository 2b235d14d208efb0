import ArgumentParser
import Foundation
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

    @Option(help: "Window length in minutes.")
    var window = 60

    @Option(help: "Most departures to show.")
    var limit = 20

    func validate() throws {
        if window < 0 { throw ValidationError("--window must not be negative") }
        if limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        try reportingErrors {
            let time = try at.map(QueryTime.parse) ?? .instant(Date())
            let bundle = try options.open()
            let departures = try bundle.departures(stop: stop, feed: feed, at: time, windowMinutes: window, limit: limit)
            if options.json {
                output(JSONOutput.array(departures, JSONOutput.write))
                return
            }
            var table = TextTable(["time", "route", "headsign", "stop", "platform", "trip", "service day"])
            for d in departures {
                let clock = ClockText.minutes(d.departureLocal)
                table.add([
                    clock + (d.frequencyBased ? "~" : ""), d.routeShortName ?? d.routeLongName ?? d.routeID, d.headsign,
                    d.stopID, d.platformCode ?? "", d.tripID, d.serviceDate.description,
                ])
            }
            output(departures.isEmpty ? "no departures in this window" : table.render())
        }
    }
}
