import Foundation
import TransitRealtime
import TransitRuntime

extension Query {
    /// The board this query asks for with a realtime snapshot applied (the subcommand's and
    /// the batch's `--realtime`); nil for a question that is not a departures or arrivals board.
    func liveBoard(from bundle: TransitBundle, realtime: RealtimeSnapshot, now: Date) throws -> (board: LiveBoard, arrivals: Bool)? {
        guard case .departures(let stops, let feed, let at, let window, let limit, let arrivals) = self else { return nil }
        let within = TimeInterval(window * 60)
        let board =
            arrivals
            ? try bundle.arrivals(to: stops, feed: feed, at: at, within: within, limit: limit, realtime: realtime, now: now)
            : try bundle.departures(from: stops, feed: feed, at: at, within: within, limit: limit, realtime: realtime, now: now)
        return (board, arrivals)
    }
}
