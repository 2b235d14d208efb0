/// How a job ended, as a results list shows it and `transit-store download --json` prints
/// it (`{"id": ..., "state": "done"}`, with `error` when it failed).
///
/// ```swift
/// let outcome = await job.outcome
/// if let error = outcome.error { alert(error.message) }
/// ```
public struct JobOutcome: Sendable, Hashable, Codable, Identifiable {
    /// A failure's stable code (`StoreError.code`) and its text.
    public struct Failure: Sendable, Hashable, Codable {
        /// `StoreError.code`: stable, for a program to branch on.
        public var code: String
        /// The error's description, in English.
        public var message: String

        /// A failure built by hand (previews, tests).
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The bundle's id.
    public var id: String
    /// The job's last state by name (`JobState.name`): done, failed, cancelled, paused, ...
    public var state: String
    /// Why it failed, nil unless it did.
    public var error: Failure?

    /// An outcome built by hand (previews, tests).
    public init(id: String, state: String, error: Failure? = nil) {
        self.id = id
        self.state = state
        self.error = error
    }

    /// A job's current state as an outcome.
    public init(id: String, state: JobState) {
        self.id = id
        self.state = state.name
        if case .failed(let failure) = state { error = Failure(code: failure.code, message: failure.description) }
    }
}

extension DownloadJob {
    /// The job's state now as an outcome (its end once `finished()` has returned).
    public var outcome: JobOutcome { JobOutcome(id: bundleID, state: state) }
}
