import Foundation
import TransitRuntime

/// Start-up's check of the state against the bundle files present. Files are the truth: a
/// bundle is only ever put in place by an atomic rename of a verified file, so a file whose
/// state row is missing or out of date is a finished install whose row a crash (or a lost
/// state file) did not let through.
struct StoreRecovery {
    let files: BundleFiles
    let state: StoreState

    func reconcile(pending: [StoreState.Pending]) throws {
        let records = Dictionary(uniqueKeysWithValues: try state.installed().map { ($0.id, $0) })
        let present = Set(files.installedIDs())
        try state.transaction {
            for id in records.keys where !present.contains(id) { try state.forget(id) }
            for id in present.sorted() {
                let path = files.bundlePath(id)
                guard let stat = BundleFiles.stat(path) else { continue }
                let record = records[id]
                if let record, record.bytes == stat.size, record.modified == stat.modified { continue }
                guard let info = readable(path, knownHash: record?.contentHash) else {
                    // Not a bundle this runtime can read (damaged, or not written by the store).
                    try files.remove(id)
                    try state.forget(id)
                    continue
                }
                let now = Date().timeIntervalSince1970
                // Without a record the user's choice is unknown: treat it as explicit, never evicted unasked.
                let explicit = record?.explicit ?? pending.first { $0.id == id }?.explicit ?? true
                try state.save(
                    StoreState.Installed(
                        id: id, contentHash: info.contentHash, bytes: stat.size, explicit: explicit,
                        downloadedAt: record?.downloadedAt ?? Double(stat.modified) / 1e9, lastAccessedAt: record?.lastAccessedAt ?? now,
                        firstServiceDate: info.coverage.firstServiceDate?.description,
                        lastServiceDate: info.coverage.lastServiceDate?.description, modified: stat.modified))
            }
        }
    }

    /// The file's facts when it is a bundle this runtime reads; its content hash is
    /// recomputed unless it is the one the state already knew.
    private func readable(_ path: String, knownHash: String?) -> BundleInfo? {
        guard let bundle = try? TransitBundle(path: path), let info = try? bundle.info() else { return nil }
        if info.contentHash == knownHash { return info }
        return (try? bundle.verifyContentHash()) == true ? info : nil
    }
}
