import ArgumentParser
import Foundation
import TransitRealtime
import TransitRuntime

/// `--realtime FILE ... [--now T]`: the live data the departures, arrivals, plan and batch
/// commands apply.
struct LiveOptions: ParsableArguments {
    @Option(help: "A GTFS-Realtime file (trip updates, vehicle positions, alerts) to apply; repeat for several.")
    var realtime: [String] = []

    @Option(help: "The moment the live data is judged at (staleness, alerts), as --at (default: now).")
    var now: String?

    func validate() throws {
        if now != nil && realtime.isEmpty { throw ValidationError("--now goes with --realtime FILE") }
    }

    /// The files as one snapshot for `bundle`'s `feed`, and the moment it is judged at
    /// (`--now` as `instant` reads it, else the current time); nil without files.
    func snapshot(_ bundle: TransitBundle, feed: String?, instant: (QueryTime) throws -> Date) throws -> (
        snapshot: RealtimeSnapshot, now: Date
    )? {
        guard !realtime.isEmpty else { return nil }
        let snapshot = try RealtimeSnapshot(messages: try realtime.map(RealtimeMessage.init(contentsOf:)), bundle: bundle, feed: feed)
        return (snapshot, try now.map { try instant(QueryTime.parse($0)) } ?? Date())
    }
}
