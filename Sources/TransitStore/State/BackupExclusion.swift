import Foundation

/// Keeps what can be downloaded again (bundles, photos) out of the device's backups (iCloud,
/// a computer's): Apple's storage guidelines ask it of re-creatable data. The rider's own
/// data (`rider.sqlite`) and the store's state are backed up. Nothing to do elsewhere.
/// Untested here: Apple platforms cannot be built on this machine (README, "Platforms").
enum BackupExclusion {
    static func exclude(_ path: String) {
        #if canImport(Darwin)
            var url = URL(fileURLWithPath: path)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? url.setResourceValues(values)
        #endif
    }
}
