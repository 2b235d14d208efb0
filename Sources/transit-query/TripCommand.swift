import ArgumentParser
import BundleFormat
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
        try reportingErrors {
            let details = try options.open().trip(id: trip, feed: feed, date: date)
            if options.json {
                output(JSONOutput.object(details, JSONOutput.write))
                return
            }
            var table = TextTable(["seq", "stop_id", "stop", "arrives", "departs", "pickup", "drop-off"])
            for s in details.stopTimes {
                table.add([
                    String(s.stopSequence), s.stopID, s.stopName, ClockText.seconds(s.arrivalLocal),
                    ClockText.seconds(s.departureLocal) + (s.interpolated ? " *" : ""),
                    String(s.pickupType), String(s.dropOffType),
                ])
            }
            var lines = [
                "trip \(details.tripID) (\(details.feedID)), route \(details.routeID), to \(details.headsign), "
                    + "\(details.serviceDate)\(details.runsOnDate ? "" : " (does not run on this date)")", table.render(),
            ]
            for f in details.frequencies {
                lines.append(
                    "repeats every \(f.headwaySecs / 60) min from \(f.startSecs / 3600):\(pad(f.startSecs / 60 % 60, 2)) "
                        + "until \(f.endSecs / 3600):\(pad(f.endSecs / 60 % 60, 2))\(f.exactTimes ? "" : " (approximate times)")")
            }
            if details.stopTimes.contains(where: \.interpolated) { lines.append("* interpolated time") }
            output(lines.joined(separator: "\n"))
        }
    }
}

extension ServiceDate: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}
