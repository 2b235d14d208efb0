import ArgumentParser
import Foundation
import TransitRealtime
import TransitRuntime

/// `transit-query realtime FILE.pb ...`: what the messages match in the bundle.
struct RealtimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime",
        abstract: "Match GTFS-Realtime messages against the bundle: counts, and each entity not matched with its reason.")

    @OptionGroup var options: BundleOptions

    @Argument(help: "GTFS-Realtime files (trip updates, vehicle positions, alerts) of one feed.")
    var files: [String] = []

    @Option(help: "The feed the messages are for, when the bundle has several.")
    var feed: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one GTFS-Realtime file") }
    }

    func run() throws {
        try reportingErrors(json: options.json) {
            let bundle = try options.open()
            let snapshot = try RealtimeSnapshot(messages: try files.map(RealtimeMessage.init(contentsOf:)), bundle: bundle, feed: feed)
            let report = snapshot.report
            if options.json { return output(try JSONOutput.text(report)) }
            var lines = [
                "entities: \(report.entities)",
                "trip updates: \(report.tripUpdatesMatched) of \(report.tripUpdates) matched",
                "stop time updates: \(report.stopTimeUpdatesMatched) of \(report.stopTimeUpdates) matched",
                "vehicles: \(report.vehiclesMatched) of \(report.vehicles) matched", "alerts: \(report.alerts)",
                "clamps (predictions raised so a trip never runs backwards): \(report.clamps)",
            ]
            for (index, miss) in (report.unmatched + report.notes).enumerated() {
                if index == report.unmatched.count { lines.append("notes:") }
                var line = "  \(miss.reason.rawValue): entity \(miss.entityID)"
                if let trip = miss.tripID { line += " trip \(trip)" }
                if let sequence = miss.stopSequence { line += " stop_sequence \(sequence)" }
                if let stop = miss.stopID { line += " stop \(stop)" }
                if let detail = miss.detail { line += " (\(detail))" }
                lines.append(line)
            }
            output(lines.joined(separator: "\n"))
        }
    }
}

/// The text of a departures or arrivals board with live data applied.
enum LiveBoardOutput {
    /// One line per call: the time shown (local to the feed), the delay, the line, headsign, state.
    static func text(_ calls: [LiveDeparture], arrivals: Bool) -> String {
        guard !calls.isEmpty else { return "no \(arrivals ? "arrivals" : "departures") in the window" }
        return calls.map { call in
            let scheduled = arrivals ? call.scheduled.arrivalLocal : call.scheduled.departureLocal
            let delay = Int(call.delay ?? 0)
            let seconds = ((scheduled.secondsOfDay + delay) % 86_400 + 86_400) % 86_400
            let time = String(format: "%02d:%02d", seconds / 3600, seconds / 60 % 60)
            let late = call.delay.map { $0 == 0 ? "on time" : String(format: "%+d min", Int(($0 / 60).rounded())) } ?? ""
            let route = call.scheduled.routeShortName ?? call.scheduled.routeID
            var line = "\(time)  \(late.padding(toLength: 8, withPad: " ", startingAt: 0))  \(route)  \(call.scheduled.headsign)"
            if call.state != .updated && call.state != .scheduled { line += "  [\(call.state.rawValue)]" }
            if let alert = call.alerts.first {
                let header = alert.header() ?? alert.effect.rawValue
                line += "  ! " + (header.count > 60 ? header.prefix(59) + "…" : header)
            }
            return line
        }.joined(separator: "\n")
    }
}
