/// Values the library encodes as one string (dates, wall-clock times, colours).
extension Decoder {
    /// The string decoded with `parse`; a string it refuses is `DecodingError.dataCorrupted`
    /// saying what was expected (`form`).
    package func decodeText<T>(_ form: String, _ parse: (String) -> T?) throws -> T {
        let text = try singleValueContainer().decode(String.self)
        guard let value = parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "not \(form): \(text)"))
        }
        return value
    }
}

extension Encoder {
    package func encodeText(_ text: String) throws {
        var container = singleValueContainer()
        try container.encode(text)
    }
}
