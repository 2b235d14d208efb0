/// The checks both sides make of an action (docs/sync-semantics.md): the device before it
/// queues one, the server before it applies one. Each answers the reason a person reads,
/// nil when the action is well-formed.
///
/// ```swift
/// if let reason = SyncRules.problem(with: action) { throw SyncError.invalid(reason) }
/// ```
public enum SyncRules {
    /// Actions in one push request.
    public static let maxActionsPerPush = 500
    /// Bytes of one push request's body.
    public static let maxPushBytes = 1 << 20
    /// Characters (Unicode scalars) of a note's text.
    public static let maxNoteCharacters = 10_000
    /// UTF-8 bytes of an id (saved item, device).
    public static let maxIDBytes = 200
    /// Notes not deleted, a rider.
    public static let maxNotes = 10_000
    /// Items saved (saved = true), a rider.
    public static let maxSavedItems = 10_000
    /// A timestamp further ahead of the server's clock than this (ms) is replaced by it.
    public static let maxClockLead: Int64 = 300_000
    /// The latest timestamp taken (year 9999).
    public static let maxTimestamp: Int64 = 253_402_300_799_999
    /// Days a cached bundle may go unopened before it is pruned (`prune_after_days`).
    public static let pruneAfterDays = 1...90
    /// Days after its download a bundle is flagged old (`stale_warning_days`).
    public static let staleWarningDays = 1...365
    /// The preferences every device of the rider shares, and their ranges.
    public static let syncedPreferences: [String: ClosedRange<Int>?] = [
        "auto_download_saved": nil, "stale_warning_days": staleWarningDays, "prune_after_days": pruneAfterDays,
    ]

    /// Whether `text` is a UUID (8-4-4-4-12 hexadecimal digits, either case).
    public static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) else { return false }
            }
        }
        return true
    }

    /// Why `id` is not an item id, nil when it is one.
    public static func problem(withID id: String, naming what: String) -> String? {
        let count = id.utf8.count
        guard count >= 1, count <= maxIDBytes else { return "\(what) must be 1 to \(maxIDBytes) UTF-8 bytes (it has \(count))" }
        guard !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return "\(what) must not hold control characters"
        }
        return nil
    }

    /// Why `text` is not a note's text, nil when it is one.
    public static func problem(withNoteText text: String) -> String? {
        let count = text.unicodeScalars.count
        guard count >= 1, count <= maxNoteCharacters else {
            return "a note's text must be 1 to \(maxNoteCharacters) characters (it has \(count))"
        }
        return nil
    }

    /// Why `action` breaks the rules, nil when it keeps them.
    public static func problem(with action: SyncAction) -> String? {
        guard isUUID(action.id) else { return "an action's id must be a UUID" }
        if let problem = problem(withID: action.deviceID, naming: "a device id") { return problem }
        guard action.timestamp >= 0, action.timestamp <= maxTimestamp else {
            return "a timestamp must be milliseconds since 1970 (0 to \(maxTimestamp))"
        }
        let entity = action.entity
        let payload = action.payload
        switch action.type {
        case .save, .unsave:
            guard entity.target != nil else { return "\(action.type.rawValue) takes a city, a stop or a route" }
            guard payload.isEmpty else { return "\(action.type.rawValue) takes no payload" }
            return problem(withID: entity.id, naming: "a saved item's id")
        case .addNote, .updateNote, .deleteNote:
            guard entity.kind == .note, isUUID(entity.id) else { return "\(action.type.rawValue) takes a note, by its UUID" }
            let names = Set(payload.keys)
            switch action.type {
            case .addNote:
                guard names == ["target", "text"] else { return "ADD_NOTE takes a target and a text" }
            case .updateNote:
                guard !names.isEmpty, names.isSubset(of: ["target", "text"]) else {
                    return "UPDATE_NOTE takes a target, a text or both"
                }
            default:
                guard names.isEmpty else { return "DELETE_NOTE takes no payload" }
            }
            if let value = payload["target"] {
                guard let target = value.target else { return "a note's target is a kind (city, stop, route) and an id" }
                if let problem = problem(withID: target.id, naming: "a note's target id") { return problem }
            }
            if let value = payload["text"] {
                guard let text = value.text else { return "a note's text is a string" }
                if let problem = problem(withNoteText: text) { return problem }
            }
            return nil
        case .updatePreferences:
            guard entity == .preferences else { return "UPDATE_PREFERENCES takes the entity preferences/rider" }
            guard !payload.isEmpty else { return "UPDATE_PREFERENCES changes at least one preference" }
            for (name, value) in payload.sorted(by: { $0.key < $1.key }) {
                guard let range = syncedPreferences[name] else {
                    let names = syncedPreferences.keys.sorted().joined(separator: ", ")
                    return "\(name.prefix(50)) is not a synced preference (they are \(names))"
                }
                if let range {
                    guard let number = value.int, range.contains(number) else {
                        return "\(name) is a whole number from \(range.lowerBound) to \(range.upperBound)"
                    }
                } else if value.bool == nil {
                    return "\(name) is true or false"
                }
            }
            return nil
        }
    }
}
