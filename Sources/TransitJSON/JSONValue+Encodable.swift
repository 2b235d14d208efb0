/// A parsed value written back as it came (a batch line's `id` echoed in its answer): an
/// integer stays exact, an object keeps its members.
extension JSONValue: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let flag):
            var c = encoder.singleValueContainer()
            try c.encode(flag)
        case .number(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .integer(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .bigInteger(let digits):
            var c = encoder.singleValueContainer()
            try c.encode(JSONNumberLiteral(digits))
        case .string(let text):
            var c = encoder.singleValueContainer()
            try c.encode(text)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let members):
            var c = encoder.container(keyedBy: Key.self)
            for member in members { try c.encode(member.value, forKey: Key(stringValue: member.key)) }
        }
    }
}

/// A JSON number written as its text (`JSONValue.bigInteger`'s digits): the stream encoder
/// writes the text itself; any other encoder the nearest double.
package struct JSONNumberLiteral: Encodable {
    package let text: String

    package init(_ text: String) { self.text = text }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Double(text) ?? 0)
    }
}
