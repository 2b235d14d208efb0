import Foundation

/// The store at a glance, as a storage screen shows it: the installed bundles, the bytes
/// they use against the budget, and the jobs still to run. `Codable` as `transit-store
/// status --json` prints it (dates in the encoder's strategy; the command uses ISO 8601).
///
/// ```swift
/// let summary = try await store.summary()
/// usage.text = ByteCountFormatter.string(fromByteCount: summary.usedBytes, countStyle: .file)
/// ```
public struct StoreSummary: Sendable, Hashable, Codable {
    /// The installed bundles, staleness judged on the day asked about.
    public var bundles: [InstalledBundle]
    /// Bytes the installed bundles use.
    public var usedBytes: Int64
    /// The storage budget, nil when there is none.
    public var maxBytes: Int64?
    /// Jobs not finished yet, in the order they run.
    public var pendingJobs: [PendingJob]

    /// A summary built by hand (previews, tests).
    public init(bundles: [InstalledBundle], usedBytes: Int64, maxBytes: Int64?, pendingJobs: [PendingJob]) {
        self.bundles = bundles
        self.usedBytes = usedBytes
        self.maxBytes = maxBytes
        self.pendingJobs = pendingJobs
    }

    private enum CodingKeys: String, CodingKey {
        case bundles
        case usedBytes = "used_bytes"
        case maxBytes = "max_bytes"
        case pendingJobs = "pending_jobs"
    }
}
