import Foundation
import TransitSQLite

extension StoreState {
    /// One job as the history keeps it: started, and finished with an outcome (or not yet).
    struct JobRow: Equatable {
        var jobID: String
        var bundleID: String
        var explicit: Bool
        var startedAt: Double
        var finishedAt: Double?
        var state: String
        var errorCode: String?
        var errorMessage: String?
    }

    func jobRows() throws -> [JobRow] {
        let rows = try db.cached(
            """
            SELECT job_id, bundle_id, explicit, started_at, finished_at, state, error_code, error_message FROM job_history
            ORDER BY started_at DESC, rowid DESC
            """)
        var list: [JobRow] = []
        while try rows.step() {
            list.append(
                JobRow(
                    jobID: rows.string(0), bundleID: rows.string(1), explicit: rows.int(2) != 0, startedAt: rows.double(3),
                    finishedAt: rows.isNull(4) ? nil : rows.double(4), state: rows.string(5), errorCode: rows.optionalString(6),
                    errorMessage: rows.optionalString(7)))
        }
        rows.reset()
        return list
    }

    func saveJobRow(_ row: JobRow) throws {
        try db.cached(
            """
            INSERT OR REPLACE INTO job_history (job_id, bundle_id, explicit, started_at, finished_at, state, error_code, error_message)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).run(row.jobID, row.bundleID, row.explicit, row.startedAt, row.finishedAt, row.state, row.errorCode, row.errorMessage)
    }

    /// Drops finished jobs past their retention: failed ones `failedFor` seconds after they
    /// ended, the others `completedFor`.
    func pruneJobRows(now: Double, completedFor: Double, failedFor: Double) throws {
        try db.cached(
            """
            DELETE FROM job_history WHERE finished_at IS NOT NULL
              AND finished_at < ?1 - (CASE state WHEN 'failed' THEN ?3 ELSE ?2 END)
            """
        ).run(now, completedFor, failedFor)
    }

    /// Jobs a process left running when it ended (killed, crashed) end as interrupted.
    func interruptUnfinishedJobRows(at now: Double) throws {
        try db.cached("UPDATE job_history SET finished_at = ?, state = 'interrupted' WHERE finished_at IS NULL").run(now)
    }
}
