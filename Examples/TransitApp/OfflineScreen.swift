import Foundation
import TransitCities
import TransitRuntime
import TransitStore

/// Offline mode as a rider sees it: the "Offline" badge (following the store's connectivity
/// events while `watchConnectivity` runs), the city page's photos read from the device, and
/// the storage screen with its "Clear all offline data" button.
final class OfflineScreen {
    let store: BundleStore

    init(store: BundleStore) {
        self.store = store
    }

    func show(city bundleID: String) async throws {
        // The badge: the watch says where the network is as soon as it starts.
        let store = self.store
        let events = store.events()
        let watch = Task { await store.watchConnectivity(probeInterval: .seconds(3600)) }
        for await event in events {
            guard case .connectivityChanged(let path) = event else { continue }
            print("badge: \(path.isOnline ? "none (online)" : "Offline")")
            break
        }
        watch.cancel()
        await watch.value

        // The city page: its pictures from the device, whether or not there is a network.
        let bundle = try await store.open(bundleID)
        for city in try await bundle.cities(filter: CityFilter(), limit: 5) {
            let full = try await bundle.city(id: city.id)
            var kept = 0
            for image in full.images where try await store.localURL(for: image) != nil { kept += 1 }
            print("city page \(city.id): \(kept) of \(full.images.count) photo(s) on the device")
        }

        // The storage screen: what the bundles and photos take, the jobs of the day, clear all.
        let summary = try await store.summary()
        let photos = summary.bundles.reduce(Int64(0)) { $0 + $1.photoBytes }
        print("storage screen: \(summary.bundles.count) bundle(s), \(summary.usedBytes) bytes, photos \(photos) bytes")
        for record in try await store.jobHistory() { print("job \(record.bundleID): \(record.state)") }
        try await store.clearAll()
        print("clear all: \(try await store.usedBytes()) bytes used")
    }
}
