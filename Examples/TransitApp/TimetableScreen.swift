import Foundation
import TransitRuntime

/// A stop's timetable and its lines' for the day asked about.
struct TimetableScreen {
    let bundle: TransitBundle

    func show(stop: String, at time: QueryTime) async throws {
        guard case .local(let day, _) = time else { return }
        let calls = try await bundle.timetable(at: stop, on: day)
        let zone = calls.first?.timeZone ?? .gmt
        print("timetable at \(stop) on \(day): \(calls.map { clock($0.departure, in: zone) }.joined(separator: " "))")
        for route in try await bundle.routes(servingStop: stop) {
            let trips = try await bundle.timetable(ofRoute: route.routeID, feed: route.feedID, on: day)
            print("timetable of line \(route.shortName ?? route.routeID) on \(day): \(trips.count) trip(s)")
        }
    }
}
