import ArgumentParser
import TransitRuntime

struct TripCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trip", abstract: "A trip's stops and times on a service date.")

    @OptionGroup var options: BundleOptions

    @Option(help: "The trip_id.")
    var trip: String

    @Option(help: "The feed id, when several feeds have the trip.")
    var feed: String?

    @Option(help: "The service date, YYYY-MM-DD.")
    var date: ServiceDate

    func run() throws {
        try options.ask { .trip(id: trip, feed: feed, date: date) }
    }
}

extension ServiceDate: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}
