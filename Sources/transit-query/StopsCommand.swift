import Foundation
import ArgumentParser
import TransitRuntime

struct StopsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stops", abstract: "Find stops by name or near a point.")

    @OptionGroup var options: BundleOptions

    @Option(help: "Words of the stop's name; each may be a prefix.")
    var search: String?

    @Option(help: "A point as LAT,LON.")
    var near: String?

    @Option(help: "Radius in metres for --near.")
    var radius = 500.0

    @Option(help: "Most stops to show.")
    var limit = 20

    func validate() throws {
        if (search == nil) == (near == nil) { throw ValidationError("give exactly one of --search or --near") }
        if let near, Coordinate(near) == nil { throw ValidationError("--near takes LAT,LON, e.g. 48.58,7.75") }
    }

    func run() throws {
        try reportingErrors {
            let bundle = try options.open()
            let stops: [Stop]
            if let search {
                stops = try bundle.searchStops(search, limit: limit)
            } else {
                let point = Coordinate(near!)!
                stops = try bundle.stopsNear(lat: point.lat, lon: point.lon, radius: radius, limit: limit)
            }
            if options.json {
                output(JSONOutput.array(stops, JSONOutput.write))
                return
            }
            var table = TextTable(["feed", "stop_id", "name", "type", "parent", "platform", "distance"])
            for s in stops {
                table.add([s.feed, s.stopID, s.name, ["stop", "station", "entrance", "node", "boarding"][s.locationType],
                           s.parentStation ?? "", s.platformCode ?? "", s.distanceMetres.map { "\(Int($0.rounded())) m" } ?? ""])
            }
            output(stops.isEmpty ? "no stops found" : table.render())
        }
    }
}

/// `LAT,LON` from the command line.
struct Coordinate {
    let lat: Double
    let lon: Double

    init?(_ text: String) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        self.lat = lat
        self.lon = lon
    }
}
