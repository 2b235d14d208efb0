import ArgumentParser
import Foundation
import TransitRuntime

struct CityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "city", abstract: "Everything the bundle knows about one city.")

    @OptionGroup var options: BundleOptions

    @Argument(help: "The city id.")
    var id: String

    func run() throws {
        try reportingErrors {
            let city = try options.open().city(id: id)
            if options.json {
                output(JSONOutput.object(city) { JSONOutput.write($0, full: true, to: &$1) })
                return
            }
            var lines = [
                "\(city.name), \(city.countryName ?? city.country) (id \(city.id))",
                "location      \(city.lat), \(city.lon)\(city.timezone.map { ", \($0)" } ?? "")",
            ]
            func add(_ label: String, _ value: String?) {
                if let value, !value.isEmpty { lines.append(label.padding(toLength: 14, withPad: " ", startingAt: 0) + value) }
            }
            add("population", city.population.map(String.init))
            add("cost", city.costOfLiving.map { "\(Int($0)) USD/month" })
            add("internet", city.internetSpeed.map { "\(Int($0)) Mbps" })
            add("safety", city.safetyRating.map { "\($0) / 5" })
            add("climate", city.climate)
            add("categories", city.categories.joined(separator: ", "))
            add("also called", city.alternateNames.prefix(8).joined(separator: ", ") + (city.alternateNames.count > 8 ? ", …" : ""))
            add("related", city.relatedCities.map { "\($0.name) (\($0.id))" }.joined(separator: ", "))
            add("transit", city.feeds.joined(separator: ", "))
            add("about", city.description)
            for a in city.attractions { add("attraction", a.name + (a.description.map { ": \($0)" } ?? "")) }
            for m in city.images { add("image", "\(m.type) \(m.url)") }
            output(lines.joined(separator: "\n"))
        }
    }
}

struct CitiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cities", abstract: "Search, locate or filter cities.")

    @OptionGroup var options: BundleOptions

    @Option(help: "Words of the city's name or alternate names; each may be a prefix.")
    var search: String?

    @Option(help: "A point as LAT,LNG: the nearest cities.")
    var near: Coordinate?

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

    @Option(help: "Most cities to show.")
    var limit = 20

    func validate() throws {
        if search == nil && near == nil && country == nil { throw ValidationError("give --search, --near or --country") }
        if search != nil && near != nil { throw ValidationError("give only one of --search and --near") }
        if limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        try reportingErrors {
            let bundle = try options.open()
            let filter = CityFilter(
                country: country, category: category, minInternetSpeed: minInternet,
                maxCostOfLiving: maxCost, minSafetyRating: minSafety)
            let cities: [City]
            if let search {
                cities = try bundle.searchCities(search, filter: filter, limit: limit)
            } else if let point = near {
                cities = try bundle.nearestCities(lat: point.lat, lon: point.lon, filter: filter, limit: limit)
            } else {
                cities = try bundle.cities(filter: filter, limit: limit)
            }
            if options.json {
                output(JSONOutput.array(cities) { JSONOutput.write($0, full: false, to: &$1) })
                return
            }
            var table = TextTable(["id", "name", "country", "population", "distance"])
            for c in cities {
                table.add([
                    c.id, c.name, c.country, c.population.map(String.init) ?? "",
                    c.distanceMetres.map { String(format: "%.1f km", $0 / 1000) } ?? "",
                ])
            }
            output(cities.isEmpty ? "no cities found" : table.render())
        }
    }
}
