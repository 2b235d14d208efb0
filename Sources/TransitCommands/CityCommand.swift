import ArgumentParser
import TransitCities
import TransitRuntime

struct CityCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "city", abstract: "Everything the bundle knows about one city.")

    @OptionGroup var options: BundleOptions

    @Argument(help: "The city id.")
    var id: String

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        try Query.city(id: id).answer(from: bundle).reply
    }
}

struct CitiesCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "cities", abstract: "Search, locate or filter cities.")

    @OptionGroup var options: BundleOptions

    @Option(help: "Words of the city's name or alternate names; each may be a prefix.")
    var search: String?

    @Option(parsing: .unconditional, help: "A point as LAT,LON: the nearest cities (a leading minus is fine: --near -33.9,151.2).")
    var near: CoordinateArgument?

    @Option(help: "An ISO 3166-1 alpha-2 country code.")
    var country: String?

    @Option(help: "Only cities in this category.")
    var category: String?

    @Option(name: .customLong("min-internet"), help: "Minimum internet speed (Mbps).")
    var minInternet: Double?

    @Option(name: .customLong("max-cost"), help: "Maximum cost of living (USD per month).")
    var maxCost: Double?

    @Option(name: .customLong("min-safety"), help: "Minimum safety rating (0 to 5).")
    var minSafety: Double?

    @Option(help: "Most cities to show (default 20).")
    var limit: Int?

    private func query() throws -> Query {
        let filter = CityFilter(
            country: country, category: category, minInternetSpeed: minInternet, maxCostOfLiving: maxCost, minSafetyRating: minSafety)
        return try .cities(search: search, near: near.map { ($0.lat, $0.lon) }, filter: filter, limit: limit)
    }

    func validate() throws { try Query.validate(query) }

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply { try query().answer(from: bundle).reply }
}
