import Foundation

/// A strict RFC 8259 parser over bytes, fast enough for catalogues of a few hundred
/// thousand cities and for batch queries. Errors name the line and column.
package struct JSONParser {
    package struct Failure: Error {
        package let line: Int
        package let column: Int
        package let message: String
    }

    private let bytes: [UInt8]
    private var at = 0
    private var depth = 0

    package static func parse(_ data: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: data)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.at = 3 }
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.at == parser.bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ message: String) -> Failure {
        var line = 1
        var lineStart = 0
        for i in 0..<min(at, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return Failure(line: line, column: at - lineStart + 1, message: message)
    }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    private mutating func value() throws -> JSONValue {
        guard at < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ word: String, _ result: JSONValue) throws -> JSONValue {
        let expected = Array(word.utf8)
        guard at + expected.count <= bytes.count, Array(bytes[at..<(at + expected.count)]) == expected else {
            throw failure("unexpected character")
        }
        at += expected.count
        return result
    }

    private mutating func nest() throws {
        depth += 1
        if depth > 64 { throw failure("nesting deeper than 64 levels") }
    }

    private mutating func object() throws -> JSONValue {
        try nest()
        defer { depth -= 1 }
        at += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if at < bytes.count && bytes[at] == UInt8(ascii: "}") {
            at += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
            at += 1
            skipSpace()
            members.append((key, try value()))
            skipSpace()
            guard at < bytes.count else { throw failure("unexpected end of input in an object") }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
                continue
            }
            if bytes[at] == UInt8(ascii: "}") {
                at += 1
                return .object(members)
            }
            throw failure("expected ',' or '}' in an object")
        }
    }

    private mutating func array() throws -> JSONValue {
        try nest()
        defer { depth -= 1 }
        at += 1
        var items: [JSONValue] = []
        skipSpace()
        if at < bytes.count && bytes[at] == UInt8(ascii: "]") {
            at += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard at < bytes.count else { throw failure("unexpected end of input in an array") }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
                continue
            }
            if bytes[at] == UInt8(ascii: "]") {
                at += 1
                return .array(items)
            }
            throw failure("expected ',' or ']' in an array")
        }
    }

    private mutating func string() throws -> String {
        at += 1
        let start = at
        // Fast path: no escapes.
        while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 { at += 1 }
        guard at < bytes.count else { throw failure("unterminated string") }
        if bytes[at] == UInt8(ascii: "\"") {
            let text = try validated(start..<at)
            at += 1
            return text
        }
        var out = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                guard let text = UTF8Check.string(out) else { throw failure("invalid UTF-8 in a string") }
                return text
            }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                out.append(byte)
                at += 1
                continue
            }
            at += 1
            guard at < bytes.count else { break }
            let escape = bytes[at]
            at += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                        throw failure("lone surrogate in \\u escape")
                    }
                    at += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("bad surrogate pair") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw failure("bad \\u escape") }
                out.append(contentsOf: Array(String(unicode).utf8))
            default: throw failure("bad escape in a string")
            }
        }
        throw failure("unterminated string")
    }

    private func validated(_ range: Range<Int>) throws -> String {
        let valid = bytes.withUnsafeBufferPointer { range.isEmpty || UTF8Check.isValid($0.baseAddress! + range.lowerBound, range.count) }
        guard valid else { throw failure("invalid UTF-8 in a string") }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    private mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count else { throw failure("bad \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[at]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw failure("bad \\u escape")
            }
            value = value << 4 | digit
            at += 1
        }
        return value
    }

    private mutating func number() throws -> JSONValue {
        let start = at
        if at < bytes.count && bytes[at] == UInt8(ascii: "-") { at += 1 }
        let digitsStart = at
        while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
        guard at > digitsStart else { throw failure("unexpected character") }
        if bytes[digitsStart] == 0x30 && at - digitsStart > 1 { throw failure("leading zero in a number") }
        let integral =
            at == bytes.count || (bytes[at] != UInt8(ascii: ".") && bytes[at] != UInt8(ascii: "e") && bytes[at] != UInt8(ascii: "E"))
        if integral {
            let digits = String(decoding: bytes[start..<at], as: UTF8.self)
            return Int(digits).map(JSONValue.integer) ?? .bigInteger(digits)
        }
        if at < bytes.count && bytes[at] == UInt8(ascii: ".") {
            at += 1
            let fraction = at
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
            guard at > fraction else { throw failure("digits expected after '.'") }
        }
        if at < bytes.count && (bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E")) {
            at += 1
            if at < bytes.count && (bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-")) { at += 1 }
            let exponent = at
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
            guard at > exponent else { throw failure("digits expected in the exponent") }
        }
        guard let value = Double(String(decoding: bytes[start..<at], as: UTF8.self)), value.isFinite else {
            throw failure("number out of range")
        }
        return .number(value)
    }
}
