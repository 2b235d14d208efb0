/// A field's value in the rider's data: `saved` (a Bool), a note's `text` (a String), its
/// `target` (a saved-item reference) or `deleted` (a Bool), a preference (a Bool or an Int).
/// Encoded as the JSON value itself: `true`, `7`, `"text"`, `{"kind":"city","id":"lyon"}`.
///
/// ```swift
/// let value = SyncValue.text("Change at Gare Centrale")
/// ```
public enum SyncValue: Sendable, Hashable, Codable {
    case bool(Bool)
    case int(Int)
    case text(String)
    case target(SyncTarget)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(String.self) {
            self = .text(value)
        } else {
            self = .target(try container.decode(SyncTarget.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .target(let value): try container.encode(value)
        }
    }

    /// The Bool, nil for another kind of value.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The Int, nil for another kind of value.
    public var int: Int? { if case .int(let value) = self { value } else { nil } }
    /// The String, nil for another kind of value.
    public var text: String? { if case .text(let value) = self { value } else { nil } }
    /// The target, nil for another kind of value.
    public var target: SyncTarget? { if case .target(let value) = self { value } else { nil } }
}

/// What a saved item or a note is about: a city, a stop or a route, by an opaque id
/// (a catalogue id `strasbourg`, a stop reference `strasbourg/cts/GARE_01`).
///
/// ```swift
/// let city = SyncTarget(kind: .city, id: "strasbourg")
/// ```
public struct SyncTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of thing saved.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case city, stop, route
    }

    public var kind: Kind
    /// 1 to 200 UTF-8 bytes.
    public var id: String

    public init(kind: Kind, id: String) {
        self.kind = kind
        self.id = id
    }

    public var description: String { "\(kind.rawValue) \(id)" }
}
