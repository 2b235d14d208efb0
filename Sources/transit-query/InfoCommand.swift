import ArgumentParser
import TransitRuntime

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "What a bundle holds.")

    @OptionGroup var options: BundleOptions

    func run() throws {
        try reportingErrors {
            let info = try options.open().info()
            if options.json {
                output(JSONOutput.object(info, JSONOutput.write))
                return
            }
            var table = TextTable(["feed", "timezone", "version", "first day", "last day"])
            for f in info.feeds {
                table.add([
                    f.feedID, f.timezone, f.version ?? "", f.firstServiceDate?.description ?? "", f.lastServiceDate?.description ?? "",
                ])
            }
            output(
                """
                schema version \(info.schemaVersion)
                \(info.stops) stops, \(info.routes) routes, \(info.trips) trips, \(info.patterns) patterns, \(info.stopTimes) stop_times, \(info.cities) cities
                \(table.render())
                """)
        }
    }
}
