import Foundation

extension BundleStore {
    /// The jobs of the last 24 hours (7 days for failed ones), newest first, with their start
    /// and end times and outcome; running and waiting ones have no end yet. Several jobs of one
    /// bundle over time each have their own record.
    ///
    /// ```swift
    /// let failed = try await store.jobHistory().filter { $0.state == "failed" }
    /// ```
    public func jobHistory() throws -> [JobRecord] {
        try? write { try pruneJobHistory() }
        return try state.jobRows().map { row in
            JobRecord(
                id: row.jobID, bundleID: row.bundleID, explicit: row.explicit, startedAt: Date(timeIntervalSince1970: row.startedAt),
                finishedAt: row.finishedAt.map(Date.init(timeIntervalSince1970:)), state: row.state,
                error: row.errorCode.map { JobOutcome.Failure(code: $0, message: row.errorMessage ?? "") })
        }
    }

    /// Writes where job `job` is: running, waiting, paused, or finished with its outcome.
    func recordJob(_ job: DownloadJob, explicit: Bool, startedAt: Double, state jobState: JobState) {
        var row = StoreState.JobRow(
            jobID: job.id, bundleID: job.bundleID, explicit: explicit, startedAt: startedAt,
            finishedAt: jobState.isFinal ? now().timeIntervalSince1970 : nil, state: jobState.name)
        if case .failed(let error) = jobState {
            row.errorCode = error.code
            row.errorMessage = error.description
        }
        try? write {
            try state.saveJobRow(row)
            try pruneJobHistory()
        }
    }

    private func pruneJobHistory() throws {
        try state.pruneJobRows(
            now: now().timeIntervalSince1970, completedFor: JobRecord.completedRetention, failedFor: JobRecord.failedRetention)
    }
}
