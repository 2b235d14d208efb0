import Foundation
import SyncFormat

extension RiderData {
    /// Attempts an action may fail (transport errors, time-outs, 5xx, 429) before it is `FAILED`.
    static let maxAttempts = 5
    /// Entities asked for in one page of a pull.
    static let pullPage = 1_000
    /// Ended actions the outbox remembers.
    static let historyKept = 1_000

    /// One sync (docs/sync-semantics.md, "One sync"): the outbox's `PENDING` actions in
    /// order, 500 a request, each answered `SUCCESS`, `CONFLICT` (the device now shows what
    /// won) or refused (`FAILED`, with the reason); then everything changed on the server
    /// since the last pull. A sync asked for while one runs waits for it and runs again.
    /// - Throws: `SyncError`: `.offline` (no attempt counted), `.notConnected`,
    ///   `.unreachable` and `.server` (an attempt counted on each action sent),
    ///   `.unauthorised`, `.refused` (the request as a whole), `.storage`.
    @discardableResult
    public func sync() async throws -> SyncReport {
        while let running { _ = try? await running.value }
        let task = Task { try await self.runSync() }
        running = task
        defer { running = nil }
        return try await task.value
    }

    /// Starts a sync by itself when it may (connected, online, `autoSync` on), retrying
    /// failed attempts with the store's pauses; one at a time.
    func scheduleSync() {
        guard server != nil, networkAvailable, (try? autoSync()) == true else { return }
        guard automatic == nil else {
            syncAgain = true
            return
        }
        automatic = Task { await self.syncAutomatically() }
    }

    private func syncAutomatically() async {
        var failures = 0
        repeat {
            syncAgain = false
            do {
                try await sync()
                failures = 0
            } catch SyncError.unreachable(_), SyncError.server(_, _) {
                failures += 1
                guard failures <= retries.limit, !Task.isCancelled else { break }
                try? await Task.sleep(nanoseconds: retries.pause(after: failures))
                syncAgain = true
            } catch {
                break
            }
        } while syncAgain && !Task.isCancelled && networkAvailable
        automatic = nil
    }

    private func runSync() async throws -> SyncReport {
        guard let server else { throw SyncError.notConnected }
        guard networkAvailable else { throw SyncError.offline }
        let connection = SyncConnection(server: server, http: http)
        emit(.syncStarted)
        do {
            var sent: [String] = []
            var first = true
            while true {
                let batch = try state.outbox([.pending], limit: SyncRules.maxActionsPerPush)
                if batch.isEmpty && !first { break }
                first = false
                try await push(batch, over: connection)
                sent += batch.map(\.action.id)
                if batch.count < SyncRules.maxActionsPerPush { break }
            }
            let pulled = try await pull(over: connection)
            try state.transaction { try state.trimHistory(keeping: Self.historyKept) }
            // Another device may have changed the synced preferences: the store follows them.
            if pulled > 0 { await applyPreferencesToStore() }
            let ids = Set(sent)
            let report = SyncReport(
                actions: try history().filter { ids.contains($0.action.id) }, pulled: pulled, pending: try state.pendingCount())
            emit(.syncFinished(report))
            return report
        } catch let error as SyncError {
            emit(.syncFailed(error))
            throw error
        }
    }

    /// Sends one batch and records each outcome (or the failed attempt).
    private func push(_ batch: [OutboxEntry], over connection: SyncConnection) async throws {
        let now = Int64((clock().timeIntervalSince1970 * 1000).rounded(.down))
        try state.transaction {
            for var entry in batch {
                entry.status = .syncing
                entry.lastAttemptAt = now
                try state.update(entry)
            }
        }
        let response: SyncPushResponse
        do {
            response = try await connection.push(SyncPushRequest(device: device, actions: batch.map(\.action)))
        } catch let error as SyncError {
            try recordFailedAttempt(batch, error)
            throw error
        }
        guard response.outcomes.count == batch.count, zip(response.outcomes, batch).allSatisfy({ $0.id == $1.action.id }) else {
            let error = SyncError.server(status: 200, message: "the push's answer does not list the actions sent")
            try recordFailedAttempt(batch, error)
            throw error
        }
        var changedTargets: [(SyncTarget, Bool)] = []
        try state.transaction {
            for (outcome, var entry) in zip(response.outcomes, batch) {
                entry.retryCount = 0
                switch outcome.status {
                case .success:
                    entry.status = .success
                    entry.error = nil
                    // The server's stamp (its clock, when this device's ran ahead) replaces ours.
                    if let stamp = outcome.stamp, stamp != entry.action.stamp {
                        for name in entry.action.writes.keys {
                            let key = SyncFieldKey(entry.action.entity, name)
                            if var field = try state.field(key), field.stamp == entry.action.stamp {
                                field.stamp = stamp
                                try state.setField(key, field)
                            }
                        }
                    }
                case .conflict:
                    entry.status = .conflict
                    entry.winner = outcome.current
                    entry.error = nil
                    // No longer waiting: its own write must not shield the field from what won.
                    try state.update(entry)
                    if let current = outcome.current {
                        changedTargets += try take([current], losing: entry.action).targets
                    }
                case .refused:
                    entry.status = .failed
                    entry.error = outcome.reason ?? "refused by the server"
                    try state.setLocal("full_pull", "1")
                }
                try state.update(entry)
            }
        }
        emit(.changed)
        for (target, saved) in changedTargets { await followSaved(target, saved: saved) }
    }

    /// An attempt that got no answer: counted (unless the token was refused), `FAILED` after
    /// the fifth; a request refused as a whole fails its actions with the server's reason.
    private func recordFailedAttempt(_ batch: [OutboxEntry], _ error: SyncError) throws {
        try state.transaction {
            for var entry in batch {
                switch error {
                case .refused(_, let reason):
                    entry.status = .failed
                    entry.error = reason
                    try state.setLocal("full_pull", "1")
                case .unauthorised, .offline, .notConnected:
                    entry.status = .pending
                    entry.error = error.description
                default:
                    entry.retryCount += 1
                    entry.error = error.description
                    entry.status = entry.retryCount >= Self.maxAttempts ? .failed : .pending
                    if entry.status == .failed { entry.error = "\(Self.maxAttempts) attempts failed: \(error)" }
                }
                try state.update(entry)
            }
        }
    }

    /// Pulls every page after the cursor (all of them on the first sync, or after a refusal:
    /// then what the server does not hold is dropped too); answers the entities taken.
    private func pull(over connection: SyncConnection) async throws -> Int {
        let full = try state.local("cursor") == nil || state.local("full_pull") == "1"
        var cursor = full ? nil : try state.local("cursor")
        var seen: Set<SyncFieldKey> = []
        var count = 0
        var changedTargets: [(SyncTarget, Bool)] = []
        while true {
            let page = try await connection.pull(cursor: cursor, deviceID: deviceID, limit: Self.pullPage)
            count += page.records.count
            try state.transaction {
                let taken = try take(page.records)
                seen.formUnion(taken.keys)
                changedTargets += taken.targets
                if !page.more && full {
                    let guarded = try pendingStamps()
                    for key in try state.allFieldKeys() where !seen.contains(key) && guarded[key] == nil {
                        try state.removeField(key)
                    }
                }
                if !full || !page.more { try state.setLocal("cursor", page.cursor) }
                if full && !page.more { try state.setLocal("full_pull", nil) }
            }
            cursor = page.cursor
            if !page.more { break }
        }
        if count > 0 { emit(.changed) }
        for (target, saved) in changedTargets { await followSaved(target, saved: saved) }
        return count
    }

    /// Takes the server's fields unless a waiting action on the field has a higher stamp;
    /// answers the keys seen and the saved cities that changed. A conflict's record
    /// (`losing`: the action that lost) may be older than what a pull brought since (the
    /// outcome of an action sent again is the first one): its fields replace only the lost
    /// write or an older one.
    private func take(_ records: [SyncRecord], losing: SyncAction? = nil) throws -> (keys: [SyncFieldKey], targets: [(SyncTarget, Bool)]) {
        let guarded = try pendingStamps()
        var keys: [SyncFieldKey] = []
        var targets: [(SyncTarget, Bool)] = []
        for record in records {
            let entity = record.entity
            for (name, field) in record.fields {
                guard SyncLedger.fieldNames(of: entity.kind).contains(name) else { continue }
                let key = SyncFieldKey(entity, name)
                keys.append(key)
                if let stamp = guarded[key], stamp > field.stamp { continue }
                let current = try state.field(key)
                guard current != field else { continue }
                if let losing, let current, current.stamp != losing.stamp, current.stamp > field.stamp { continue }
                try state.setField(key, field)
                if name == "saved", let target = entity.target, current?.value != field.value, let saved = field.value.bool {
                    targets.append((target, saved))
                }
            }
        }
        return (keys, targets)
    }

    /// The highest stamp of a waiting (`PENDING`, `SYNCING`) action on each field.
    private func pendingStamps() throws -> [SyncFieldKey: SyncStamp] {
        var stamps: [SyncFieldKey: SyncStamp] = [:]
        for entry in try state.outbox([.pending, .syncing]) {
            for name in entry.action.writes.keys {
                let key = SyncFieldKey(entry.action.entity, name)
                stamps[key] = max(stamps[key] ?? entry.action.stamp, entry.action.stamp)
            }
        }
        return stamps
    }
}
