import Foundation
import TransitStore
import TransitSync

/// The rider's saved cities with their notes and the "Pending sync" indicator: changes made
/// with no sync server (offline) show at once and wait in the outbox.
final class RiderDataScreen {
    let rider: RiderData

    init(folder: String, store: BundleStore) throws {
        rider = try RiderData(directory: folder, store: store, name: "example app", type: "example")
    }

    /// Saves `city`, writes a note on it, and shows the list, the notes and what waits.
    func show(saving city: String, note: String) async throws {
        let target = SyncTarget(kind: .city, id: city)
        try await rider.save(target)
        _ = try await rider.addNote(about: target, text: note)
        for item in try await rider.saved() { print("saved: \(item.target)") }
        for written in try await rider.notes(about: target) { print("note on \(written.target): \(written.text)") }
        print("pending sync: \(try await rider.pendingCount())")
        await rider.close()
    }
}
