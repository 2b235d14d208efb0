import Foundation
import TransitRuntime
import TransitStore

/// A small program written as an iOS app uses the libraries: the store fetches the manifest,
/// downloads a city with progress and opens it; the runtime answers a board, the lines at the
/// stop, a trip's line on the map and the stops nearby, with `async` calls throughout.
///
///     offline-board-example MANIFEST_URL STORE_FOLDER CITY_ID STOP_ID YYYY-MM-DDTHH:MM
///
/// `make test` builds it and runs it against a local download site (ExampleAppTests).
@main
struct OfflineBoard {
    static func main() async {
        let args = CommandLine.arguments
        guard args.count == 6, let manifest = URL(string: args[1]) else {
            print("usage: offline-board-example MANIFEST_URL STORE_FOLDER CITY_ID STOP_ID YYYY-MM-DDTHH:MM")
            exit(64)
        }
        do {
            try await run(manifest: manifest, folder: args[2], city: args[3], stop: args[4], at: args[5])
        } catch let error as LocalizedError {
            // What an app would show in an alert.
            print("\(error.errorDescription ?? "Error") \(error.recoverySuggestion ?? "")")
            exit(1)
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }

    static func run(manifest: URL, folder: String, city: String, stop: String, at: String) async throws {
        // The store: the list of cities, then one city downloaded with progress.
        let store = try BundleStore(directory: folder)
        let catalogue = try await store.refreshCatalogue(from: manifest)
        print("cities offered: \(catalogue.bundles.map(\.id).joined(separator: ", "))")
        let job = try await store.download(city, explicit: true)
        for await state in job.updates { print("download: \(state)") }
        guard case .done = await job.finished() else { throw StoreError.install("the download of \(city) did not finish") }
        let bundle = try await store.open(city)

        // The board a rider sees at the stop.
        let board = try await bundle.departures(from: stop, at: try QueryTime.parse(at), within: 60 * 60, limit: 5)
        print("departures from \(stop):")
        for call in board {
            // The feed's clock, 24-hour (an app would use the rider's locale).
            var style = Date.FormatStyle(date: .omitted, time: .omitted).hour(.twoDigits(amPM: .omitted)).minute(.twoDigits)
            style.timeZone = call.timeZone
            style.locale = Locale(identifier: "en_GB")
            let time = call.departure.formatted(style)
            let platform = call.platformCode.map { " (platform \($0))" } ?? ""
            print("  \(time)  \(call.routeShortName ?? call.routeID)  \(call.headsign)\(platform)")
        }

        // The lines at the stop, and the first departure's line on the map.
        let lines = try await bundle.routes(servingStop: stop)
        print("lines at \(stop): \(lines.map { $0.shortName ?? $0.routeID }.joined(separator: ", "))")
        if let first = board.first {
            let line = try await bundle.shape(trip: first.tripID, feed: first.feedID)
            print("line of trip \(first.tripID): \(line.points.count) points")
        }

        // The stops nearest the first stop of the first line.
        if let route = lines.first, let place = try await bundle.route(route.routeID, feed: route.feedID).directions.first?.stops.first,
            let lat = place.latitude, let lon = place.longitude
        {
            let nearby = try await bundle.nearestStops(to: Coordinate(latitude: lat, longitude: lon), count: 3)
            print("near \(place.name): \(nearby.map { "\($0.name) \(Int(($0.distanceMetres ?? 0).rounded())) m" }.joined(separator: "; "))")
        }
    }
}
