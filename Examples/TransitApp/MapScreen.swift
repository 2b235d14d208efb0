import Foundation
import TransitRuntime

/// Map data around a stop: its marker, the lines serving it, the stops nearby.
struct MapScreen {
    let bundle: TransitBundle

    func show(stop id: String) async throws {
        let stop = try await bundle.stop(id)
        guard let marker = stop.coordinate else { return print("map: \(stop.name) has no position") }
        print(String(format: "map: %@ at %.4f, %.4f", stop.name, marker.latitude, marker.longitude))
        for route in try await bundle.routes(servingStop: id) {
            let lines = try await bundle.shapes(route: route.routeID, feed: route.feedID)
            print("map: line \(route.shortName ?? route.routeID): \(lines.count) line(s), \(lines.map(\.points.count).reduce(0, +)) points")
        }
        // Other stops: not this one, nor its own platforms.
        let nearby = try await bundle.stops(near: marker, within: 500, limit: 8).filter {
            $0.id != stop.id && $0.parentStation != stop.stopID
        }
        print("map: near \(stop.name): \(nearby.map(\.name).joined(separator: ", "))")
    }
}
