import ArgumentParser
import TransitRuntime

struct AgenciesCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "agencies", abstract: "The agencies of the bundle's feeds.")

    @OptionGroup var options: BundleOptions

    @Option(help: "Only this feed's agencies.")
    var feed: String?

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        try Query.agencies(feed: feed).answer(from: bundle).reply
    }
}

struct RoutesCommand: BundleQuestion {
    static let configuration = CommandConfiguration(
        commandName: "routes", abstract: "Routes: all of them, an agency's, or those calling at a stop.")

    @OptionGroup var options: BundleOptions

    @Option(help: "The feed id.")
    var feed: String?

    @Option(help: "Only this agency's routes (agency_id).")
    var agency: String?

    @Option(help: "Only routes whose trips call at this stop (a station: at any of its platforms).")
    var stop: String?

    private func query() throws -> Query { try .routes(feed: feed, agency: agency, stop: stop) }

    func validate() throws { try Query.validate(query) }

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply { try query().answer(from: bundle).reply }
}

struct RouteCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "route", abstract: "A route and its stops in order, per direction.")

    @OptionGroup var options: BundleOptions

    @Argument(help: "The route_id.")
    var route: String

    @Option(help: "The feed id, when several feeds have the route.")
    var feed: String?

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        try Query.route(id: route, feed: feed).answer(from: bundle).reply
    }
}

struct TransfersCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "transfers", abstract: "The transfers from a stop (transfers.txt).")

    @OptionGroup var options: BundleOptions

    @Option(help: "The stop_id (a station: also its platforms').")
    var stop: String

    @Option(help: "The feed id, when several feeds have the stop.")
    var feed: String?

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        try Query.transfers(stop: stop, feed: feed).answer(from: bundle).reply
    }
}

struct NearestCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "nearest", abstract: "The stops nearest a point, with their distance.")

    @OptionGroup var options: BundleOptions

    @Option(parsing: .unconditional, help: "A point as LAT,LON (a leading minus is fine: --near -41.44,147.13).")
    var near: CoordinateArgument

    @Option(help: "How many stops (default 10).")
    var count: Int?

    @Option(help: "Look no farther than this, metres (default 50000).")
    var maxDistance: Double?

    private func query() throws -> Query { try .nearest(lat: near.lat, lon: near.lon, count: count, maxDistance: maxDistance) }

    func validate() throws { try Query.validate(query) }

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply { try query().answer(from: bundle).reply }
}
