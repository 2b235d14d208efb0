import AppHTTP
import Foundation
import SyncFormat
import TransitStore

/// The rider's own data on the device, offline first (docs/sync-semantics.md): saved
/// cities, stops and routes, notes, and the synced preferences. Every change shows at once
/// and waits in an outbox (in `rider.sqlite`, beside the store's state) until `sync()`
/// sends it; a sync also starts by itself after a change and when the app says the network
/// is back, unless `autoSync` is off. Local-only values (the device id, the cursor) never
/// leave the device; the token is held in memory only.
///
/// ```swift
/// let rider = try RiderData(directory: appSupport + "/transit", store: store)
/// await rider.connect(to: SyncServer(url: URL(string: "https://transit.example.org")!, token: token))
/// try await rider.save(SyncTarget(kind: .city, id: "strasbourg"))
/// let note = try await rider.addNote(about: SyncTarget(kind: .city, id: "strasbourg"), text: "Tram A to the station")
/// print(try await rider.pendingCount())        // the "Pending sync" indicator
/// let report = try await rider.sync()          // each action's outcome
/// ```
public actor RiderData {
    let state: RiderDataState
    let store: BundleStore?
    let clock: @Sendable () -> Date
    let http: any AppHTTP
    let retries: RetryPolicy
    /// This device's id (a UUID made at the first start, kept in `rider.sqlite`).
    public nonisolated let deviceID: String
    /// How this device names itself to the server.
    public nonisolated let device: SyncDevice
    var server: SyncServer?
    var networkAvailable = true
    var automatic: Task<Void, Never>?
    var syncAgain = false
    var running: Task<SyncReport, any Error>?
    private var continuations: [UUID: AsyncStream<SyncEvent>.Continuation] = [:]

    /// Opens (creating) the rider's data in `directory` (the store's folder).
    /// - Parameters:
    ///   - directory: the folder of `rider.sqlite` (the store's own, so that both move together).
    ///   - store: saved cities are queued for download there (with `auto_download_saved`),
    ///     unsaved ones made evictable again.
    ///   - name: how the device is listed in `devices()` ("Anna's phone").
    ///   - type: the device's type in that list ("phone").
    ///   - appVersion: the app's version in that list.
    ///   - clock: the device's clock (stamps of local changes).
    ///   - retries: the pauses between failed automatic attempts (the store's policy).
    public init(
        directory: String, store: BundleStore? = nil, name: String = "device", type: String = "app", appVersion: String = "1",
        clock: @escaping @Sendable () -> Date = { Date() }, retries: RetryPolicy = RetryPolicy()
    ) throws {
        try self.init(
            directory: directory, store: store, name: name, type: type, appVersion: appVersion, clock: clock, retries: retries,
            http: DefaultAppHTTP())
    }

    init(
        directory: String, store: BundleStore?, name: String, type: String, appVersion: String, clock: @escaping @Sendable () -> Date,
        retries: RetryPolicy, http: any AppHTTP
    ) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SyncError.storage("cannot make \(directory): \(error.localizedDescription)")
        }
        let state = try RiderDataState(path: directory + "/rider.sqlite")
        let id = try state.transaction { () throws -> String in
            if let id = try state.local("device_id") { return id }
            let id = UUID().uuidString.lowercased()
            try state.setLocal("device_id", id)
            return id
        }
        self.state = state
        self.store = store
        self.clock = clock
        self.http = http
        self.retries = retries
        deviceID = id
        device = SyncDevice(
            id: id, name: String(name.prefix(100)), type: String(type.prefix(50)), appVersion: String(appVersion.prefix(50)))
    }

    // MARK: - Settings

    /// Sets (or, with nil, forgets) the sync server; a sync starts when changes wait.
    public func connect(to server: SyncServer?) {
        self.server = server
        scheduleSync()
    }

    /// The app tells the network's state: back online starts a sync (with `autoSync`);
    /// offline, a sync fails at once with `SyncError.offline` and no attempt is counted.
    public func setNetworkAvailable(_ available: Bool) {
        let cameBack = available && !networkAvailable
        networkAvailable = available
        if cameBack { scheduleSync() }
    }

    /// Whether the app (or the store's monitor, `followConnectivity()`) last said the network
    /// is there.
    public var isNetworkAvailable: Bool { networkAvailable }

    /// Follows the store's connectivity monitor for as long as the calling task runs: each
    /// change is `setNetworkAvailable(_:)`, so a store that goes back online syncs the rider's
    /// data too (with `autoSync`). Run it beside `BundleStore.watchConnectivity()`; cancelling
    /// the task ends it. Without a store, it returns at once.
    ///
    /// ```swift
    /// let follow = Task { await rider.followConnectivity() }
    /// ```
    public func followConnectivity() async {
        guard let monitor = store?.connectivity else { return }
        let changes = monitor.changes()
        setNetworkAvailable(monitor.path.isOnline)
        for await path in changes { setNetworkAvailable(path.isOnline) }
    }

    /// Syncs by itself after a change and when the network comes back (a device-only
    /// preference, default on).
    public func autoSync() throws -> Bool { try state.local("auto_sync") != "false" }

    /// Turns automatic syncs on or off (kept on the device).
    public func setAutoSync(_ on: Bool) throws {
        try state.transaction { try state.setLocal("auto_sync", on ? nil : "false") }
    }

    /// The events of this rider's data: changes, syncs, queued downloads.
    public func events() -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream<SyncEvent>.makeStream(bufferingPolicy: .bufferingNewest(100))
        let key = UUID()
        continuations[key] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.dropContinuation(key) } }
        return stream
    }

    private func dropContinuation(_ key: UUID) { continuations[key] = nil }

    func emit(_ event: SyncEvent) {
        for continuation in continuations.values { continuation.yield(event) }
    }

    /// Stops automatic syncs and waits for one in flight (an app going away, a test ending).
    public func close() async {
        let automatic = self.automatic
        self.automatic = nil
        automatic?.cancel()
        await automatic?.value
        _ = try? await running?.value
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
    }

    // MARK: - Reading

    /// The items saved, oldest first.
    public func saved() throws -> [SavedItem] {
        try state.entities(of: [.city, .stop, .route]).compactMap { entity, fields in
            guard let target = entity.target, let saved = fields["saved"], saved.value.bool == true else { return nil }
            return SavedItem(target: target, savedAt: Self.date(saved.stamp.timestamp))
        }.sorted { ($0.savedAt, $0.target.kind.rawValue, $0.target.id) < ($1.savedAt, $1.target.kind.rawValue, $1.target.id) }
    }

    /// Whether `target` is saved.
    public func isSaved(_ target: SyncTarget) throws -> Bool {
        try state.field(SyncFieldKey(SyncEntity(target), "saved"))?.value.bool == true
    }

    /// The notes not deleted (about `target` only, when given), oldest edit first.
    public func notes(about target: SyncTarget? = nil) throws -> [Note] {
        try state.entities(of: [.note]).compactMap { entity, fields in
            guard fields["deleted"]?.value.bool == false, let about = fields["target"]?.value.target,
                let text = fields["text"], let words = text.value.text, target == nil || about == target
            else { return nil }
            return Note(id: entity.id, target: about, text: words, editedAt: Self.date(text.stamp.timestamp))
        }.sorted { ($0.editedAt, $0.id) < ($1.editedAt, $1.id) }
    }

    /// The synced preferences (the defaults where never set).
    public func preferences() throws -> SyncedPreferences {
        let fields = try state.entities(of: [.preferences])[.preferences] ?? [:]
        return SyncedPreferences(values: fields.mapValues(\.value))
    }

    /// Actions not yet answered by the server (`PENDING`, `SYNCING`): the "Pending sync" count.
    public func pendingCount() throws -> Int { try state.pendingCount() }

    /// The outbox: actions waiting (`PENDING`, `SYNCING`) and failed ones (`FAILED`), in order.
    public func pending() throws -> [OutboxEntry] { try state.outbox([.pending, .syncing, .failed]) }

    /// The actions the server refused or that failed 5 attempts: "Sync failed", with Retry.
    public func failed() throws -> [OutboxEntry] { try state.outbox([.failed]) }

    /// The actions that lost to a later change (or a deletion), with what won; until dismissed.
    public func conflicts() throws -> [OutboxEntry] { try state.outbox([.conflict], includeDismissed: false) }

    /// Every action the outbox remembers, in order (ended ones: the last 1,000).
    public func history() throws -> [OutboxEntry] { try state.outbox([.pending, .syncing, .success, .conflict, .failed]) }

    /// Forgets the conflicts shown (they stay in the history).
    public func dismissConflicts() throws { try state.transaction { try state.dismissConflicts() } }

    /// The rider's devices as the server knows them.
    public func devices() async throws -> [SyncDeviceRecord] {
        guard let server else { throw SyncError.notConnected }
        guard networkAvailable else { throw SyncError.offline }
        return try await SyncConnection(server: server, http: http).devices()
    }

    static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    // MARK: - Changing

    /// Saves a city, a stop or a route (a saved city is queued for download with
    /// `auto_download_saved`).
    @discardableResult
    public func save(_ target: SyncTarget) async throws -> SyncAction {
        if try !isSaved(target), try state.count(field: "saved", value: "true", kinds: [.city, .stop, .route]) >= SyncRules.maxSavedItems {
            throw SyncError.invalid("at most \(SyncRules.maxSavedItems) items can be saved")
        }
        let action = try record(.save, SyncEntity(target))
        await followSaved(target, saved: true)
        return action
    }

    /// Unsaves an item (its city's bundle becomes evictable again).
    @discardableResult
    public func unsave(_ target: SyncTarget) async throws -> SyncAction {
        let action = try record(.unsave, SyncEntity(target))
        await followSaved(target, saved: false)
        return action
    }

    /// Adds a note on `target`; answers it (its id is a new UUID).
    public func addNote(about target: SyncTarget, text: String) throws -> Note {
        if try state.count(field: "deleted", value: "false", kinds: [.note]) >= SyncRules.maxNotes {
            throw SyncError.invalid("at most \(SyncRules.maxNotes) notes can be kept")
        }
        let entity = SyncEntity(kind: .note, id: UUID().uuidString.lowercased())
        let action = try record(.addNote, entity, payload: ["target": .target(target), "text": .text(text)])
        return Note(id: entity.id, target: target, text: text, editedAt: Self.date(action.timestamp))
    }

    /// Changes a note's text (and, when given, what it is about).
    @discardableResult
    public func editNote(_ id: String, text: String? = nil, target: SyncTarget? = nil) throws -> SyncAction {
        let entity = try liveNote(id)
        var payload: [String: SyncValue] = [:]
        if let text { payload["text"] = .text(text) }
        if let target { payload["target"] = .target(target) }
        return try record(.updateNote, entity, payload: payload)
    }

    /// Deletes a note (for good: a later edit elsewhere does not bring it back).
    @discardableResult
    public func deleteNote(_ id: String) throws -> SyncAction {
        try record(.deleteNote, try liveNote(id))
    }

    /// Changes the synced preferences (only the fields that differ travel; nil when none
    /// did) and applies them to the device's store (pruning, the age warning).
    /// - Throws: `SyncError.invalid` for a value out of its range.
    @discardableResult
    public func setPreferences(_ preferences: SyncedPreferences) async throws -> SyncAction? {
        let current = try self.preferences().values
        let changed = preferences.values.filter { current[$0.key] != $0.value }
        guard !changed.isEmpty else { return nil }
        let action = try record(.updatePreferences, .preferences, payload: changed)
        await applyPreferencesToStore()
        return action
    }

    /// Gives the store the synced values it acts on (`pruneAfterDays`, `staleWarningDays`).
    func applyPreferencesToStore() async {
        guard let store, let synced = try? preferences(), var device = try? await store.preferences() else { return }
        guard device.pruneAfterDays != synced.pruneAfterDays || device.staleWarningDays != synced.staleWarningDays else { return }
        device.pruneAfterDays = synced.pruneAfterDays
        device.staleWarningDays = synced.staleWarningDays
        try? await store.setPreferences(device)
    }

    /// Sends failed actions again (`id`, or all when nil): back to `PENDING`, count 0.
    @discardableResult
    public func retry(_ id: String? = nil) throws -> Int {
        let count = try state.transaction { () throws -> Int in
            var count = 0
            for var entry in try state.outbox([.failed]) where id == nil || entry.action.id == id?.lowercased() {
                entry.status = .pending
                entry.retryCount = 0
                entry.error = nil
                try state.update(entry)
                count += 1
            }
            return count
        }
        if count > 0 { scheduleSync() }
        return count
    }

    /// Drops a failed action; the next pull brings back the server's value of what it changed.
    public func discard(_ id: String) throws {
        try state.transaction {
            guard try state.outbox([.failed]).contains(where: { $0.action.id == id.lowercased() }) else {
                throw SyncError.invalid("no failed action \(id.prefix(60))")
            }
            try state.removeEntry(id.lowercased())
            try state.setLocal("full_pull", "1")
        }
    }

    private func liveNote(_ id: String) throws -> SyncEntity {
        let entity = SyncEntity(kind: .note, id: id.lowercased())
        guard SyncRules.isUUID(id), try state.field(SyncFieldKey(entity, "deleted"))?.value.bool == false else {
            throw SyncError.invalid("no note \(id.prefix(60)) (deleted notes cannot be changed)")
        }
        return entity
    }

    /// Applies a local change and queues it, in one transaction; starts a sync by itself.
    private func record(_ type: SyncAction.ActionType, _ entity: SyncEntity, payload: [String: SyncValue] = [:]) throws -> SyncAction {
        let action = try state.transaction { () throws -> SyncAction in
            // Stamps only grow on one device, even when its clock steps back or two changes
            // fall in one millisecond: the later change is the later write.
            let clockMillis = Int64((clock().timeIntervalSince1970 * 1000).rounded(.down))
            let last = Int64(try state.local("last_timestamp") ?? "") ?? Int64.min
            let timestamp = max(clockMillis, last == Int64.min ? clockMillis : last + 1)
            let action = SyncAction(
                id: UUID().uuidString.lowercased(), type: type, entity: entity, payload: payload, timestamp: timestamp, deviceID: deviceID)
            if let problem = SyncRules.problem(with: action) { throw SyncError.invalid(problem) }
            for (name, value) in action.writes {
                try state.setField(SyncFieldKey(entity, name), SyncField(value: value, stamp: action.stamp))
            }
            try state.enqueue(action)
            try state.setLocal("last_timestamp", String(timestamp))
            return action
        }
        emit(.changed)
        scheduleSync()
        return action
    }

    /// A saved city is queued for download (with `auto_download_saved`); an unsaved one is
    /// unpinned in the store. The store's refusal (no catalogue yet, a city it does not
    /// list) leaves the saved item as it is.
    func followSaved(_ target: SyncTarget, saved: Bool) async {
        guard target.kind == .city, let store else { return }
        if saved {
            guard (try? preferences().autoDownloadSaved) == true else { return }
            if (try? await store.queueDownload(target.id)) == true { emit(.downloadQueued(target.id)) }
        } else {
            try? await store.setPinned(target.id, false)
        }
    }
}
