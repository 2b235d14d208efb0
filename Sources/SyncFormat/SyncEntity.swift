/// What an action changes: a saved item (`city`, `stop`, `route` and its id), a note (`note`
/// and its UUID) or the rider's preferences (`preferences`, id `rider`).
///
/// ```swift
/// let note = SyncEntity(kind: .note, id: "0f8a7c2e-5b1d-4e6f-9a3b-2c4d6e8f0a1b")
/// ```
public struct SyncEntity: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case city, stop, route, note, preferences
    }

    public var kind: Kind
    public var id: String

    public init(kind: Kind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// A saved item's entity.
    public init(_ target: SyncTarget) {
        self.init(kind: Kind(rawValue: target.kind.rawValue)!, id: target.id)
    }

    /// The preferences' one entity.
    public static let preferences = SyncEntity(kind: .preferences, id: "rider")

    /// The saved-item target this entity is, nil for a note or the preferences.
    public var target: SyncTarget? { SyncTarget.Kind(rawValue: kind.rawValue).map { SyncTarget(kind: $0, id: id) } }

    public var description: String { "\(kind.rawValue) \(id)" }
}

/// One field of one entity: what stamps and values are kept by.
public struct SyncFieldKey: Sendable, Hashable, Codable {
    public var entity: SyncEntity
    public var field: String

    public init(_ entity: SyncEntity, _ field: String) {
        self.entity = entity
        self.field = field
    }
}

/// A field's value and the stamp of the write that set it.
public struct SyncField: Sendable, Hashable, Codable {
    public var value: SyncValue
    public var stamp: SyncStamp

    public init(value: SyncValue, stamp: SyncStamp) {
        self.value = value
        self.stamp = stamp
    }
}

/// An entity with its current fields and their stamps: what a pull lists and what a
/// `CONFLICT` answers with.
///
/// ```json
/// {"kind":"note","id":"…","fields":{"text":{"value":"Lift out of order","stamp":{…}},…}}
/// ```
public struct SyncRecord: Sendable, Hashable, Codable {
    public var kind: SyncEntity.Kind
    public var id: String
    public var fields: [String: SyncField]

    public init(entity: SyncEntity, fields: [String: SyncField]) {
        kind = entity.kind
        id = entity.id
        self.fields = fields
    }

    public var entity: SyncEntity { SyncEntity(kind: kind, id: id) }
}
