import Foundation
import SyncFormat

/// A city, stop or route the rider saved, as `RiderData.saved()` lists it.
///
/// ```swift
/// for item in try await rider.saved() where item.target.kind == .city { print(item.target.id) }
/// ```
public struct SavedItem: Sendable, Hashable, Codable {
    public var target: SyncTarget
    /// When it was saved (the stamp of the write that saved it: the saving device's clock).
    public var savedAt: Date

    public init(target: SyncTarget, savedAt: Date) {
        self.target = target
        self.savedAt = savedAt
    }

    private enum CodingKeys: String, CodingKey {
        case target
        case savedAt = "saved_at"
    }
}

/// A rider's note on a city, stop or route.
///
/// ```swift
/// let note = try await rider.addNote(about: SyncTarget(kind: .city, id: "lyon"), text: "Buy a day ticket")
/// ```
public struct Note: Sendable, Hashable, Codable, Identifiable {
    /// A UUID made on the device that wrote it first.
    public var id: String
    public var target: SyncTarget
    public var text: String
    /// When its text was last written (the writing device's clock).
    public var editedAt: Date

    public init(id: String, target: SyncTarget, text: String, editedAt: Date) {
        self.id = id
        self.target = target
        self.text = text
        self.editedAt = editedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, target, text
        case editedAt = "edited_at"
    }
}

/// The preferences every device of a rider shares (the device-only ones are the store's
/// `StorePreferences` and `RiderData.autoSync`).
///
/// ```swift
/// var preferences = try await rider.preferences()
/// preferences.staleWarningDays = 3
/// try await rider.setPreferences(preferences)
/// ```
public struct SyncedPreferences: Sendable, Hashable, Codable {
    /// Saving a city queues its bundle's download in the store (default true).
    public var autoDownloadSaved: Bool
    /// A bundle downloaded more than this many days ago is flagged old (1 to 365, default 30;
    /// the store's `StorePreferences.staleWarningDays` follows it).
    public var staleWarningDays: Int
    /// Cached bundles not opened for this many days are pruned (1 to 90, default 7; the
    /// store's `StorePreferences.pruneAfterDays` follows it).
    public var pruneAfterDays: Int

    /// Preferences with the defaults (true, 30, 7) changed where given.
    public init(autoDownloadSaved: Bool = true, staleWarningDays: Int = 30, pruneAfterDays: Int = 7) {
        self.autoDownloadSaved = autoDownloadSaved
        self.staleWarningDays = staleWarningDays
        self.pruneAfterDays = pruneAfterDays
    }

    /// The fields as the wire names them.
    var values: [String: SyncValue] {
        [
            "auto_download_saved": .bool(autoDownloadSaved), "stale_warning_days": .int(staleWarningDays),
            "prune_after_days": .int(pruneAfterDays),
        ]
    }

    /// Preferences from wire fields, the defaults where one is missing.
    init(values: [String: SyncValue]) {
        let defaults = SyncedPreferences()
        autoDownloadSaved = values["auto_download_saved"]?.bool ?? defaults.autoDownloadSaved
        staleWarningDays = values["stale_warning_days"]?.int ?? defaults.staleWarningDays
        pruneAfterDays = values["prune_after_days"]?.int ?? defaults.pruneAfterDays
    }

    private enum CodingKeys: String, CodingKey {
        case autoDownloadSaved = "auto_download_saved"
        case staleWarningDays = "stale_warning_days"
        case pruneAfterDays = "prune_after_days"
    }
}
