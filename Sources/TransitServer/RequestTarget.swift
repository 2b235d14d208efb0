/// A request's path and query as the server reads them: path segments and query parameters,
/// percent-decoded (`+` is a space in the query), each checked to be UTF-8 without NUL.
struct RequestTarget {
    /// The path's segments (`/v1/metro/departures` is `["v1", "metro", "departures"]`).
    var segments: [String]
    /// The query's parameters in order, repeated ones repeated.
    var parameters: [(name: String, value: String)]

    /// Reads the target of a request line (`/path?query`).
    /// - Throws: `ServerFailure` (400) for a malformed escape, bytes that are not UTF-8, a NUL,
    ///   or a segment that is `.` or `..`.
    init(_ target: String) throws {
        let bytes = Array(target.utf8)
        let question = bytes.firstIndex(of: UInt8(ascii: "?"))
        let path = bytes[..<(question ?? bytes.endIndex)]
        let query = question.map { bytes[($0 + 1)...] } ?? []
        segments = try path.split(separator: UInt8(ascii: "/")).map { try Self.decode($0, plusIsSpace: false) }
        guard !segments.contains(where: { $0 == "." || $0 == ".." }) else {
            throw ServerFailure(status: 400, code: "bad_path", message: "a path segment may not be . or ..")
        }
        parameters = try query.split(separator: UInt8(ascii: "&")).compactMap { pair in
            guard !pair.isEmpty else { return nil }
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = try Self.decode(pair[..<(equals ?? pair.endIndex)], plusIsSpace: true)
            let value = try equals.map { try Self.decode(pair[($0 + 1)...], plusIsSpace: true) } ?? ""
            return (name, value)
        }
    }

    /// The value of the first parameter named `name`.
    func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// Percent-decoded text.
    static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else {
                    throw ServerFailure(status: 400, code: "bad_escape", message: "a % in the request is not followed by two hex digits")
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        // Decoding replaces bytes that are not UTF-8, so the text then differs from them.
        let text = String(decoding: out, as: UTF8.self)
        guard text.utf8.elementsEqual(out), !out.contains(0) else {
            throw ServerFailure(status: 400, code: "bad_encoding", message: "the request's path or query is not UTF-8 text without NUL")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// A request the server answers with an error of its own (not a command's): status, code, message.
struct ServerFailure: Error {
    var status: Int
    var code: String
    var message: String
}
