import Foundation

/// Everything that can go wrong in the store, with the reason a person can act on: a one-line
/// `description`, a stable `code`, and (`LocalizedError`) text an app can show.
///
/// ```swift
/// do { try await store.download("lisbon").finished() }
/// catch let error as StoreError { print(error) }   // lisbon: needs 12.0 MB but the budget ...
/// ```
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The manifest could not be read or is not a manifest.
    case badManifest(String)
    /// No manifest has been fetched yet.
    case noCatalogue
    /// The id is not in the manifest (or, for remove and open, not installed).
    case unknownBundle(String)
    /// The server or the connection failed; `transient` ones were retried until the limit;
    /// `failure` says how (an HTTP status, a time-out, TLS...).
    case transfer(String, transient: Bool, failure: TransportFailure = .other)
    /// The downloaded file's SHA-256 differs from the manifest's.
    case hashMismatch(id: String, expected: String, found: String)
    /// The bundle does not fit the storage budget even after evicting every cached bundle.
    case overBudget(id: String, needed: Int64, budget: Int64, explicitBytes: Int64, evictableBytes: Int64)
    /// The downloaded file is not a usable bundle, or a patch was refused and no full file helped.
    case install(String)
    /// The state file or the store's folder cannot be used.
    case storage(String)
    /// The device has no space left for the file or the state (free some: `remove` works).
    case noSpace(String)
    /// With trusted keys set, the manifest is not signed by one of them, or was changed after
    /// it was signed: nothing of it is used, the last good manifest stays.
    case untrustedManifest(String)
    /// The device is offline (no route, no name resolution, connection refused): said at
    /// once, not after retries. An app shows "You're offline".
    case offline(String)
    /// The manifest is older than the last good one (a replay or a mirror that fell behind),
    /// or it has expired: nothing new is installed from it.
    case staleManifest(String)
    /// A preference out of its range (`StorePreferences.problem` says which): nothing saved.
    case badPreference(String)

    /// A short stable code for programs (the command line's `--json` output).
    public var code: String {
        switch self {
        case .badManifest: return "bad_manifest"
        case .noCatalogue: return "no_catalogue"
        case .unknownBundle: return "unknown_bundle"
        case .transfer: return "transfer"
        case .hashMismatch: return "hash_mismatch"
        case .overBudget: return "over_budget"
        case .install: return "install"
        case .storage: return "storage"
        case .noSpace: return "no_space"
        case .untrustedManifest: return "untrusted_manifest"
        case .offline: return "offline"
        case .staleManifest: return "stale_manifest"
        case .badPreference: return "bad_preference"
        }
    }

    public var description: String {
        switch self {
        case .badManifest(let reason): return "bad manifest: \(reason)"
        case .noCatalogue: return "no manifest yet: fetch one first"
        case .unknownBundle(let id): return "unknown bundle \"\(id)\""
        case .transfer(let reason, let transient, _):
            return transient ? "download failed after retries: \(reason)" : "download failed: \(reason)"
        case .hashMismatch(let id, let expected, let found):
            return "\(id): the downloaded file's SHA-256 is \(found), the manifest says \(expected)"
        case .overBudget(let id, let needed, let budget, let explicitBytes, let evictable):
            return
                "\(id): needs \(needed) more bytes, but the budget is \(budget) bytes: bundles downloaded explicitly use \(explicitBytes) and cached ones that could be evicted \(evictable)"
        case .install(let reason): return "install failed: \(reason)"
        case .storage(let reason): return "store: \(reason)"
        case .noSpace(let reason): return "no space left on the device: \(reason); remove a bundle or free space, then try again"
        case .untrustedManifest(let reason): return "untrusted manifest: \(reason); the last good manifest is kept"
        case .offline(let reason): return reason
        case .staleManifest(let reason): return "stale manifest: \(reason); nothing new is installed from it"
        case .badPreference(let reason): return "bad preference: \(reason)"
        }
    }

    /// A sentence an app can show as an alert's title.
    public var errorDescription: String? {
        switch self {
        case .badManifest, .noCatalogue: return "The list of cities could not be read."
        case .unknownBundle: return "That city is not available."
        case .transfer: return "The download failed."
        case .hashMismatch, .install: return "The downloaded timetable could not be installed."
        case .overBudget: return "There is not enough room for this city in the storage you allowed."
        case .storage: return "The timetables on this device cannot be used."
        case .noSpace: return "The device is full."
        case .untrustedManifest: return "The list of cities did not come from its publisher."
        case .offline: return "You're offline."
        case .staleManifest: return "The list of cities is out of date."
        case .badPreference: return "That setting is out of range."
        }
    }

    /// What went wrong, in a sentence (the same facts as `description`).
    public var failureReason: String? { description.prefix(1).uppercased() + description.dropFirst() + "." }

    /// What the user or the app can do about it.
    public var recoverySuggestion: String? {
        switch self {
        case .badManifest, .noCatalogue: return "Check the connection and refresh the list of cities."
        case .unknownBundle: return "Refresh the list of cities."
        case .transfer(_, let transient, _):
            return transient ? "Check the connection and try again; the download resumes where it stopped." : "Try again later."
        case .hashMismatch, .install: return "Download the city again."
        case .overBudget: return "Remove a city you no longer need, or allow more storage."
        case .storage: return "Restart the app; if it keeps failing, remove and download the cities again."
        case .noSpace: return "Free some space or remove a city, then try again."
        case .untrustedManifest: return "Try again on another network; the cities on this device keep working."
        case .offline: return "Connect to the internet and try again; the cities on this device keep working."
        case .staleManifest: return "Try again later; the cities on this device keep working."
        case .badPreference: return "Choose a value in the range the setting allows."
        }
    }
}
