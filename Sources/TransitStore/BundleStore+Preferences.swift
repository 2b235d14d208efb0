import Foundation

extension BundleStore {
    /// The preferences saved in the state file (defaults where none).
    public func preferences() throws -> StorePreferences {
        let defaults = StorePreferences()
        func flag(_ key: String, _ fallback: Bool) throws -> Bool { try state.preference(key).map { $0 == "true" } ?? fallback }
        func number(_ key: String, _ fallback: Int) throws -> Int { try state.preference(key).flatMap { Int($0) } ?? fallback }
        return StorePreferences(
            maxBytes: try state.preference("max_bytes").flatMap { Int64($0) }, autoUpdate: try flag("auto_update", true),
            staleDays: try number("stale_days", defaults.staleDays), wifiOnly: try flag("wifi_only", defaults.wifiOnly),
            pruneAfterDays: try number("prune_after_days", defaults.pruneAfterDays),
            staleWarningDays: try number("stale_warning_days", defaults.staleWarningDays))
    }

    /// Saves the preferences; a smaller budget evicts cached bundles (least recently accessed
    /// first, with their photos) until the installed ones fit, never explicit ones. Turning
    /// `wifiOnly` off lets jobs waiting for another network run.
    /// - Throws: `StoreError.badPreference` for a value out of its range (nothing is saved).
    public func setPreferences(_ preferences: StorePreferences) throws {
        if let problem = preferences.problem { throw StoreError.badPreference(problem) }
        try write {
            try state.setPreference("max_bytes", preferences.maxBytes.map(String.init))
            try state.setPreference("auto_update", preferences.autoUpdate ? "true" : "false")
            try state.setPreference("stale_days", String(preferences.staleDays))
            try state.setPreference("wifi_only", preferences.wifiOnly ? "true" : "false")
            try state.setPreference("prune_after_days", String(preferences.pruneAfterDays))
            try state.setPreference("stale_warning_days", String(preferences.staleWarningDays))
        }
        if !preferences.wifiOnly { _ = try resumeWaitingJobs() }
        guard let max = preferences.maxBytes else { return }
        try evictCached(toFit: max)
    }
}
