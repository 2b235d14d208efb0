import Foundation

/// One job as a downloads screen lists it: which bundle, when it started and ended, and how.
/// Finished jobs are kept 24 hours when they completed (done, cancelled) and 7 days when they
/// failed, so a rider can see what happened and retry. `Codable` as `transit-store jobs
/// --json` prints it.
///
/// ```swift
/// for record in try await store.jobHistory() where record.state == "failed" {
///     print(record.bundleID, record.finishedAt!, record.error!.message)
/// }
/// ```
public struct JobRecord: Sendable, Hashable, Codable, Identifiable {
    /// The job's id (`DownloadJob.id`).
    public var id: String
    /// The bundle it downloaded.
    public var bundleID: String
    /// The user asked for the bundle (pinned).
    public var explicit: Bool
    /// When it started running.
    public var startedAt: Date
    /// When it ended, nil while it runs (or waits).
    public var finishedAt: Date?
    /// `JobState.name`: downloading (still running), waiting, done, failed, cancelled,
    /// paused, or interrupted (the process ended while it ran).
    public var state: String
    /// Why it failed, nil unless it did.
    public var error: JobOutcome.Failure?

    /// A record built by hand (previews, tests).
    public init(
        id: String, bundleID: String, explicit: Bool, startedAt: Date, finishedAt: Date? = nil, state: String,
        error: JobOutcome.Failure? = nil
    ) {
        self.id = id
        self.bundleID = bundleID
        self.explicit = explicit
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.state = state
        self.error = error
    }

    /// How long a completed job (done, cancelled, interrupted) is kept: 24 hours.
    public static let completedRetention: TimeInterval = 86_400
    /// How long a failed job is kept: 7 days.
    public static let failedRetention: TimeInterval = 7 * 86_400

    private enum CodingKeys: String, CodingKey {
        case id
        case bundleID = "bundle_id"
        case explicit
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case state, error
    }
}
