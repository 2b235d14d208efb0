import ArgumentParser
import Foundation
import TransitRuntime

struct StopsCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "stops", abstract: "Find stops by name or near a point.")

    @OptionGroup var options: BundleOptions

    @Option(help: "Words of the stop's name; each may be a prefix.")
    var search: String?

    @Option(parsing: .unconditional, help: "A point as LAT,LON (a leading minus is fine: --near -41.44,147.13).")
    var near: CoordinateArgument?

    @Option(help: "Radius in metres for --near (default 500).")
    var radius: Double?

    @Option(help: "Most stops to show (default 20).")
    var limit: Int?

    private func query() throws -> Query {
        try .stops(search: search, near: near.map { ($0.lat, $0.lon) }, radius: radius, limit: limit)
    }

    func validate() throws { try Query.validate(query) }

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply { try query().answer(from: bundle).reply }
}

/// `LAT,LON` from the command line.
struct CoordinateArgument: ExpressibleByArgument {
    let lat: Double
    let lon: Double

    static var defaultValueDescription: String { "LAT,LON" }

    init?(argument text: String) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        self.lat = lat
        self.lon = lon
    }
}
