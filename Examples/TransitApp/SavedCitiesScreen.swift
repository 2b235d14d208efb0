import Foundation
import TransitRuntime
import TransitStore

/// The saved-cities screen: what is offered and installed, a download with its progress,
/// the store's events (installs and updates: reopen the bundle), and the storage used.
final class SavedCitiesScreen {
    let store: BundleStore
    /// The events seen, printed when the screen closes (an app would refresh its list).
    private let watcher: Task<[StoreEvent], Never>

    init(folder: String, manifest: URL) async throws {
        store = try await BundleStore.open(directory: folder)
        let events = store.events()
        watcher = Task {
            var seen: [StoreEvent] = []
            for await event in events {
                seen.append(event)
                if case .usageChanged = event { break }  // enough for this run
            }
            return seen
        }
        try await store.refreshCatalogue(from: manifest)
        for offer in try await store.offers() {
            let size = ByteCountFormatter.string(fromByteCount: offer.entry.downloadBytes ?? offer.entry.bytes, countStyle: .file)
            let readable = offer.entry.isReadableByThisRuntime ? "" : " (needs an app update)"
            print("city \(offer.entry.label ?? offer.id): \(offer.availability.rawValue), \(size)\(readable)")
        }
    }

    /// Downloads `city` (pinned) with progress and opens it.
    func install(_ city: String) async throws -> TransitBundle {
        let job = try await store.download(city, explicit: true)
        var shown = ""
        for await state in job.updates where state.name != shown {
            shown = state.name
            print("download \(city): \(shown)")
        }
        let outcome = job.outcome
        if let error = outcome.error { throw StoreError.install("\(city): \(error.message)") }
        return try await store.open(city)
    }

    /// The events seen and the storage in use.
    func close() async {
        for event in await watcher.value {
            switch event {
            case .installed(let id, _): print("event: \(id) installed")
            case .updated(let id, _, _): print("event: \(id) updated (reopen it)")
            case .removed(let id): print("event: \(id) removed")
            case .usageChanged(let bytes): print("event: storage now \(bytes) bytes")
            case .connectivityChanged(let path): print("event: \(path)")
            }
        }
        if let summary = try? await store.summary() {
            let pinned = summary.bundles.filter(\.explicit).map(\.id)
            print("storage: \(summary.bundles.count) bundle(s), \(summary.usedBytes) bytes, pinned: \(pinned.joined(separator: ", "))")
        }
    }
}
