import Foundation
import TransitRuntime

/// The planner: search as the rider types (each keystroke cancels the previous search),
/// a journey, its first ride drawn on the map, recent searches kept as JSON, and a long
/// search the rider abandons.
struct PlannerScreen {
    let bundle: TransitBundle

    func plan(from origin: String, typing destination: String, at time: QueryTime) async throws {
        // Search as you type: a task per prefix, the previous one cancelled.
        var search: Task<[Stop], Error>?
        var typed = ""
        var found: [Stop] = []
        for character in destination.prefix(6) {
            typed.append(character)
            search?.cancel()
            let text = typed
            search = Task { try await bundle.stops(matching: text, limit: 5) }
        }
        found = (try? await search?.value) ?? []
        print("search \"\(typed)\": \(found.map(\.name).joined(separator: ", "))")
        guard let target = found.first else { return print("planner: nothing found") }

        var options = JourneyOptions()
        options.maxTransfers = 2
        let from = JourneyPlace.stop(origin)
        let to = JourneyPlace.stop(target.stopID, feed: target.feedID)
        let journeys = try await bundle.journeys(from: from, to: to, departingAt: time, options: options)
        guard let best = journeys.first else { return print("planner: no journey") }
        let zone = best.legs.compactMap { $0.boarding?.timeZone }.first ?? .gmt
        print("journey: \(clock(best.departure, in: zone)) -> \(clock(best.arrival, in: zone)), \(best.legs.count) leg(s)")
        if let ride = best.legs.first(where: { $0.kind == .ride }) {
            let line = try await bundle.shape(of: ride)
            print("journey: ride \(ride.boarding?.routeShortName ?? "") drawn with \(line.points.count) points")
        }

        // Recent searches survive a relaunch as JSON.
        struct Recent: Codable, Equatable {
            var from: JourneyPlace
            var to: JourneyPlace
            var options: JourneyOptions
        }
        let saved = try JSONEncoder().encode([Recent(from: from, to: to, options: options)])
        let restored = try JSONDecoder().decode([Recent].self, from: saved)
        print("recent searches kept: \(restored.count), same: \(restored == [Recent(from: from, to: to, options: options)])")

        // A 12-hour range the rider abandons: cancelling ends the search at once.
        let range = Task { try await bundle.journeys(from: from, to: to, departingAt: time, within: 12 * 3600) }
        try? await Task.sleep(for: .milliseconds(2))
        let cancelled = ContinuousClock.now
        range.cancel()
        do {
            _ = try await range.value
            print("range search: finished before the cancel")
        } catch is CancellationError {
            print("range search: cancelled")
        }
        FileHandle.standardError.write(Data("range search answered \(ContinuousClock.now - cancelled) after the cancel\n".utf8))
    }
}
