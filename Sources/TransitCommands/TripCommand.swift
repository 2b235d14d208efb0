import ArgumentParser
import TransitRuntime

struct TripCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "trip", abstract: "A trip's stops and times on a service date.")

    @OptionGroup var options: BundleOptions

    @Option(help: "The trip_id.")
    var trip: String

    @Option(help: "The feed id, when several feeds have the trip.")
    var feed: String?

    @Option(help: "The service date, YYYY-MM-DD.")
    var date: ServiceDate

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        try Query.trip(id: trip, feed: feed, date: date).answer(from: bundle).reply
    }
}

extension ServiceDate: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}
