import ArgumentParser
import TransitRuntime

struct ShapeCommand: BundleQuestion {
    static let configuration = CommandConfiguration(
        commandName: "shape",
        abstract: "The line a trip follows, or the lines of a route, as points (from shapes.txt, else through the stops).")

    @OptionGroup var options: BundleOptions

    @Option(help: "The trip_id.")
    var trip: String?

    @Option(help: "The route_id: every distinct line its trips follow.")
    var route: String?

    @Option(help: "The feed id, when several feeds have the trip or route.")
    var feed: String?

    func validate() throws { try Query.validate { try query() } }

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply { try query().answer(from: bundle).reply }

    private func query() throws -> Query { try Query.shape(trip: trip, route: route, feed: feed) }
}
