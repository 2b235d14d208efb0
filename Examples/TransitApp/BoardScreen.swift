import Foundation
import TransitRealtime
import TransitRuntime

/// The departures board at a stop, with live delays when a snapshot is at hand.
struct BoardScreen {
    let bundle: TransitBundle

    func show(stop: String, at time: QueryTime, live: (snapshot: RealtimeSnapshot, now: Date)?) async throws {
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
