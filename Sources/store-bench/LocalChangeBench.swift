import Foundation
import SyncFormat
import TransitSync

extension StoreBench {
    /// `store-bench local-changes DIR [N]`: N saves and note edits on the device (each applied
    /// and queued in one durable transaction), median and p99 ms; then the same N changes'
    /// outbox rows alone, read back, to show what the outbox adds.
    static func localChanges(_ directory: String, _ count: Int) async throws {
        let rider = try RiderData(directory: directory, name: "bench")
        try await rider.setAutoSync(false)
        let note = try await rider.addNote(about: SyncTarget(kind: .city, id: "lyon"), text: "first")
        var saves: [Double] = []
        var edits: [Double] = []
        for index in 0..<count {
            var start = DispatchTime.now().uptimeNanoseconds
            try await rider.save(SyncTarget(kind: .stop, id: "lyon/tcl/S\(index % 500)"))
            saves.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            start = DispatchTime.now().uptimeNanoseconds
            try await rider.editNote(note.id, text: "edit \(index)")
            edits.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        func line(_ name: String, _ values: [Double]) -> String {
            let sorted = values.sorted()
            return String(
                format: "%@: median %.3f ms, p99 %.3f ms, max %.3f ms (%d changes)", name, sorted[sorted.count / 2],
                sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted.last ?? 0, sorted.count)
        }
        print(line("save (applied + queued, one transaction)", saves))
        print(line("note edit (applied + queued, one transaction)", edits))
        print("pending in the outbox: \(try await rider.pendingCount())")
        await rider.close()
    }
}
