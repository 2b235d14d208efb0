import Foundation
import TransitClient
import TransitRealtime
import TransitRuntime

/// The departures board at a stop: online first when the app has a server (`TRANSIT_SERVER`),
/// else with live delays when a snapshot is at hand.
struct BoardScreen {
    let bundle: TransitBundle

    func show(stop: String, at time: QueryTime, live: (snapshot: RealtimeSnapshot, now: Date)?) async throws {
        if let server = ProcessInfo.processInfo.environment["TRANSIT_SERVER"].flatMap(URL.init(string:)) {
            // The server's board (its own live data) within a second and a half, else the bundle's.
            let source = OnlineFirstDepartures(client: TransitClient(server: server, bundle: "metro", timeout: 1.5), bundle: bundle)
            let board = try await source.departures(from: try await bundle.stop(stop), at: time, limit: 5)
            switch board.source {
            case .server: print("board at \(stop) (from the server):")
            case .bundle(let reason): print("board at \(stop) (offline: \(reason.prefix(60))):")
            }
            for call in board.departures { print(row(call.scheduled, delay: call.delay)) }
            return
        }
        guard let live else {
            print("board at \(stop):")
            for call in try await bundle.departures(from: stop, at: time, limit: 5) { print(row(call, delay: nil)) }
            return
        }
        let board = try await bundle.departures(from: stop, at: time, limit: 5, realtime: live.snapshot, now: live.now)
        if let reason = board.notAppliedReason {
            print("board at \(stop): timetable only (\(reason))")
        } else {
            print("board at \(stop) (live):")
        }
        for call in board.departures {
            if call.state == .cancelled {
                print(row(call.scheduled, delay: nil) + "  cancelled")
                continue
            }
            var shown = call.scheduled
            if let predicted = call.predictedDeparture {
                shown.departureLocal = LocalDateTime(predicted, in: shown.timeZone)
            }
            print(row(shown, delay: call.delay))
        }
    }

    private func row(_ call: Departure, delay: TimeInterval?) -> String {
        let late = delay.map { $0 == 0 ? "  on time" : "  \($0 > 0 ? "+" : "")\(Int(($0 / 60).rounded())) min" } ?? ""
        let platform = call.platformCode.map { " (platform \($0))" } ?? ""
        return "  \(clock(call.departure, in: call.timeZone))  \(call.routeShortName ?? call.routeID)  \(call.headsign)\(platform)\(late)"
    }
}
