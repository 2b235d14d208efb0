import ArgumentParser
import Foundation
import TransitRuntime

struct StopsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stops", abstract: "Find stops by name or near a point.")

    @OptionGroup var options: BundleOptions

    @Option(help: "Words of the stop's name; each may be a prefix.")
    var search: String?

    @Option(help: "A point as LAT,LON.")
    var near: Coordinate?

    @Option(help: "Radius in metres for --near.")
    var radius = 500.0

    @Option(help: "Most stops to show.")
    var limit = 20

    func validate() throws {
        if (search == nil) == (near == nil) { throw ValidationError("give exactly one of --search or --near") }
    }

    func run() throws {
        try reportingErrors {
            let bundle = try options.open()
            let stops: [Stop]
            if let near {
                stops = try bundle.stopsNear(lat: near.lat, lon: near.lon, radius: radius, limit: limit)
            } else {
                stops = try bundle.searchStops(search ?? "", limit: limit)
            }
            if options.json {
                output(JSONOutput.array(stops, JSONOutput.write))
                return
            }
            var table = TextTable(["feed", "stop_id", "name", "type", "parent", "platform", "distance"])
            for s in stops {
                table.add([
                    s.feedID, s.stopID, s.name, Self.typeName(s.locationType),
                    s.parentStation ?? "", s.platformCode ?? "", s.distanceMetres.map { "\(Int($0.rounded())) m" } ?? "",
                ])
            }
            output(stops.isEmpty ? "no stops found" : table.render())
        }
    }
}

extension StopsCommand {
    /// A location_type's name; the number itself for a value GTFS does not define.
    static func typeName(_ type: Int) -> String {
        let names = ["stop", "station", "entrance", "node", "boarding"]
        return names.indices.contains(type) ? names[type] : String(type)
    }
}

/// `LAT,LON` from the command line.
struct Coordinate: ExpressibleByArgument {
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
