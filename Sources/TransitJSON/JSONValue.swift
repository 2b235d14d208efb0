/// A parsed JSON value. Objects keep their keys in order (catalogue and query objects are small).
package enum JSONValue {
    case null
    case bool(Bool)
    case number(Double)
    /// A number written without fraction or exponent that fits 64 bits, kept exact (a batch
    /// query's id of 9007199254740993 comes back as written).
    case integer(Int)
    /// A number written without fraction or exponent beyond 64 bits, kept as its digits
    /// (echoed as written, never rounded to a double).
    case bigInteger(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// The value of a number of either kind, nil for anything else.
    package var doubleValue: Double? {
        switch self {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        case .bigInteger(let digits): return Double(digits)
        default: return nil
        }
    }

    /// The text of a string, nil for anything else.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value of a boolean, nil for anything else.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The JSON type name, for messages ("expected a string, found a number").
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number, .integer, .bigInteger: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
