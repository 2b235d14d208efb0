/// The server's rules applied to one rider's actions (docs/sync-semantics.md, "Who wins"):
/// given the current fields of the entities a push touches and the rider's counts, each
/// action's outcome and the fields it changed. Pure: every storage (SQLite, PostgreSQL)
/// loads, runs this, and writes back in one transaction.
///
/// ```swift
/// var ledger = SyncLedger(fields: loaded, liveNotes: 12, savedItems: 40)
/// let outcome = ledger.apply(action, now: serverMillis)
/// for key in ledger.changed { write(key, ledger.fields[key]!) }
/// ```
public struct SyncLedger: Sendable {
    /// The current fields of the entities loaded (and those the actions made).
    public private(set) var fields: [SyncFieldKey: SyncField]
    /// Notes not deleted.
    public private(set) var liveNotes: Int
    /// Items saved.
    public private(set) var savedItems: Int
    /// The fields changed so far, in the order first changed.
    public private(set) var changed: [SyncFieldKey] = []
    private var changedSet: Set<SyncFieldKey> = []

    public init(fields: [SyncFieldKey: SyncField], liveNotes: Int, savedItems: Int) {
        self.fields = fields
        self.liveNotes = liveNotes
        self.savedItems = savedItems
    }

    /// The entity's fields as a record.
    public func record(_ entity: SyncEntity) -> SyncRecord {
        var found: [String: SyncField] = [:]
        for name in Self.fieldNames(of: entity.kind) {
            if let field = fields[SyncFieldKey(entity, name)] { found[name] = field }
        }
        return SyncRecord(entity: entity, fields: found)
    }

    /// The fields an entity of `kind` has.
    public static func fieldNames(of kind: SyncEntity.Kind) -> [String] {
        switch kind {
        case .city, .stop, .route: ["saved"]
        case .note: ["target", "text", "deleted"]
        case .preferences: SyncRules.syncedPreferences.keys.sorted()
        }
    }

    /// Applies one action received at `now` (the server's clock, ms), answering its outcome.
    public mutating func apply(_ action: SyncAction, now: Int64) -> SyncOutcome {
        if let reason = SyncRules.problem(with: action) { return SyncOutcome(id: action.id, status: .refused, reason: reason) }
        var stamp = action.stamp
        if stamp.timestamp > now + SyncRules.maxClockLead { stamp.timestamp = now }
        let entity = action.entity
        func value(_ name: String) -> SyncValue? { fields[SyncFieldKey(entity, name)]?.value }
        switch action.type {
        case .save, .unsave:
            let saving = action.type == .save
            let key = SyncFieldKey(entity, "saved")
            if let current = fields[key], current.stamp > stamp {
                return SyncOutcome(id: action.id, status: .conflict, stamp: stamp, current: record(entity))
            }
            let wasSaved = value("saved")?.bool == true
            if saving, !wasSaved, savedItems >= SyncRules.maxSavedItems {
                return refused(action, "a rider keeps at most \(SyncRules.maxSavedItems) saved items")
            }
            savedItems += (saving ? 1 : 0) - (wasSaved ? 1 : 0)
            write(key, .bool(saving), stamp)
        case .addNote:
            if let deleted = value("deleted") {
                if deleted.bool == true {
                    return SyncOutcome(id: action.id, status: .conflict, stamp: stamp, current: record(entity))
                }
                guard value("target") == action.payload["target"], value("text") == action.payload["text"] else {
                    return refused(action, "a note with this id exists with other content")
                }
                return SyncOutcome(id: action.id, status: .success, stamp: fields[SyncFieldKey(entity, "text")]?.stamp)
            }
            guard liveNotes < SyncRules.maxNotes else { return refused(action, "a rider keeps at most \(SyncRules.maxNotes) notes") }
            liveNotes += 1
            for (name, newValue) in action.writes.sorted(by: { $0.key < $1.key }) { write(SyncFieldKey(entity, name), newValue, stamp) }
        case .updateNote, .updatePreferences:
            if action.type == .updateNote {
                guard let deleted = value("deleted") else { return refused(action, "no note with this id") }
                if deleted.bool == true {
                    return SyncOutcome(id: action.id, status: .conflict, stamp: stamp, current: record(entity))
                }
            }
            var lost = false
            for (name, newValue) in action.writes.sorted(by: { $0.key < $1.key }) {
                let key = SyncFieldKey(entity, name)
                if let current = fields[key], current.stamp > stamp {
                    lost = true
                } else {
                    write(key, newValue, stamp)
                }
            }
            if lost { return SyncOutcome(id: action.id, status: .conflict, stamp: stamp, current: record(entity)) }
        case .deleteNote:
            guard let deleted = value("deleted") else { return refused(action, "no note with this id") }
            if deleted.bool == true {
                return SyncOutcome(id: action.id, status: .success, stamp: fields[SyncFieldKey(entity, "deleted")]?.stamp)
            }
            liveNotes -= 1
            write(SyncFieldKey(entity, "deleted"), .bool(true), stamp)
        }
        return SyncOutcome(id: action.id, status: .success, stamp: stamp)
    }

    private func refused(_ action: SyncAction, _ reason: String) -> SyncOutcome {
        SyncOutcome(id: action.id, status: .refused, reason: reason)
    }

    private mutating func write(_ key: SyncFieldKey, _ value: SyncValue, _ stamp: SyncStamp) {
        fields[key] = SyncField(value: value, stamp: stamp)
        if changedSet.insert(key).inserted { changed.append(key) }
    }
}
