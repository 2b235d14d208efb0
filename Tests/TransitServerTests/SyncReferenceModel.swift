import Foundation
import SyncFormat

/// The contract's rules (docs/sync-semantics.md, "Who wins" and "Idempotent by id") written
/// again from the text, apart from the server's `SyncLedger`: fed every push the server
/// answered, in the order answered, it holds what the server and every device must hold.
struct SyncReferenceModel {
    struct Stamp: Comparable, Hashable {
        var time: Int64
        var device: String
        var action: String
        static func < (a: Stamp, b: Stamp) -> Bool {
            if a.time != b.time { return a.time < b.time }
            if a.device != b.device { return Array(a.device.utf8).lexicographicallyPrecedes(Array(b.device.utf8)) }
            return Array(a.action.utf8).lexicographicallyPrecedes(Array(b.action.utf8))
        }
    }

    /// "kind/id" → field → (value, stamp).
    private(set) var entities: [String: [String: (value: SyncValue, stamp: Stamp)]] = [:]
    /// Action ids answered, and how many times an id came again.
    private(set) var answered: Set<String> = []
    private(set) var resent = 0

    mutating func apply(_ action: SyncAction, serverNow: Int64) {
        let id = action.id.lowercased()
        guard answered.insert(id).inserted else {
            resent += 1
            return
        }
        let time = action.timestamp > serverNow + 300_000 ? serverNow : action.timestamp
        let stamp = Stamp(time: time, device: action.deviceID, action: id)
        let entityID = action.entity.kind == .note ? action.entity.id.lowercased() : action.entity.id
        let key = action.entity.kind.rawValue + "/" + entityID
        var fields = entities[key] ?? [:]
        func set(_ name: String, _ value: SyncValue) {
            if let current = fields[name], stamp < current.stamp { return }
            fields[name] = (value, stamp)
        }
        switch action.type {
        case .save: set("saved", .bool(true))
        case .unsave: set("saved", .bool(false))
        case .addNote:
            guard fields.isEmpty else { break }  // the same note again: no change (or refused)
            fields["target"] = (action.payload["target"]!, stamp)
            fields["text"] = (action.payload["text"]!, stamp)
            fields["deleted"] = (.bool(false), stamp)
        case .updateNote:
            guard let deleted = fields["deleted"], deleted.value == .bool(false) else { break }
            for (name, value) in action.payload { set(name, value) }
        case .deleteNote:
            guard let deleted = fields["deleted"], deleted.value == .bool(false) else { break }
            fields["deleted"] = (.bool(true), stamp)
        case .updatePreferences:
            for (name, value) in action.payload { set(name, value) }
        }
        if !fields.isEmpty { entities[key] = fields }
    }

    /// The saved items, as "kind/id".
    var saved: Set<String> {
        Set(entities.filter { $0.value["saved"]?.value == .bool(true) }.keys)
    }

    /// Notes not deleted: id → (target, text).
    var notes: [String: String] {
        var found: [String: String] = [:]
        for (key, fields) in entities where key.hasPrefix("note/") && fields["deleted"]?.value == .bool(false) {
            if let target = fields["target"]?.value.target, let text = fields["text"]?.value.text {
                found[String(key.dropFirst(5))] = "\(target.kind.rawValue)/\(target.id)|\(text)"
            }
        }
        return found
    }

    /// The preferences set: name → value.
    var preferences: [String: SyncValue] { (entities["preferences/rider"] ?? [:]).mapValues(\.value) }

    /// Every field with its stamp, as the server must list them in a full pull.
    var fieldsWithStamps: [String: String] {
        var all: [String: String] = [:]
        for (key, fields) in entities {
            for (name, field) in fields {
                all[key + "." + name] = "\(field.value)@\(field.stamp.time)/\(field.stamp.device)/\(field.stamp.action)"
            }
        }
        return all
    }
}
