import Foundation

/// The bytes of one encoding, written as the values come: each object or array open on the
/// way down is a frame, closed when its owner's `encode(to:)` returns or when a member is
/// added to a container further up. Containers must be used in order (a nested one finished
/// before its parent goes on), as synthesized and hand-written `Codable` code does; a write
/// to a container already closed throws instead of writing misplaced bytes.
final class JSONStream {
    struct Frame {
        var isObject: Bool
        var count = 0
        /// Tells a container whether its frame is still the one it opened.
        var serial: Int
    }

    // Written only by the one encoding that owns the stream: no dynamic exclusivity checks
    // (they were a tenth of a batch answer's time).
    @exclusivity(unchecked) var out: [UInt8] = []
    @exclusivity(unchecked) private(set) var frames: [Frame] = []
    @exclusivity(unchecked) private var serials = 0
    /// Whether each type met is a String-keyed dictionary, asked of the runtime once per
    /// type and encoding (a conformance check per value was a twentieth of a batch).
    @exclusivity(unchecked) private var dictionaryTypes: [ObjectIdentifier: Bool] = [:]

    init() { out.reserveCapacity(4096) }

    /// Opens an object or an array at depth `depth` (reusing the object open there: a type
    /// encoding its parts in turn), answering its serial.
    func open(object: Bool, at depth: Int) -> Int {
        if frames.count == depth + 1, frames[depth].isObject, object { return frames[depth].serial }
        close(downTo: depth)
        serials += 1
        frames.append(Frame(isObject: object, serial: serials))
        out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return serials
    }

    /// Closes the frames deeper than `depth` frames.
    func close(downTo depth: Int) {
        while frames.count > depth {
            out.append(frames.removeLast().isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Starts a member (`key` given) or an element of frame `index` with serial `serial`:
    /// deeper frames are closed, then the separator and the key are written.
    func begin(_ index: Int, serial: Int, key: String?, codingPath: [CodingKey]) throws {
        guard index < frames.count, frames[index].serial == serial else {
            throw EncodingError.invalidValue(
                key ?? "", .init(codingPath: codingPath, debugDescription: "a container was written to after it was closed"))
        }
        close(downTo: index + 1)
        if frames[index].count > 0 { out.append(UInt8(ascii: ",")) }
        frames[index].count += 1
        if let key {
            Self.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
        }
    }

    // MARK: Values

    func writeNull() { out.append(contentsOf: "null".utf8) }

    func write(_ flag: Bool) { out.append(contentsOf: (flag ? "true" : "false").utf8) }

    func write(_ text: String) { Self.appendString(text, to: &out) }

    func write<I: BinaryInteger>(integer: I) {
        guard let value = Int64(exactly: integer), value != .min else { return out.append(contentsOf: String(integer).utf8) }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = 20
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: digits[first..<20])
        }
    }

    func write(_ number: Double, codingPath: [CodingKey]) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, .init(codingPath: codingPath, debugDescription: "\(number) is not a JSON number"))
        }
        if number == number.rounded(), abs(number) < 1e15 {
            write(integer: Int(number))
        } else {
            out.append(contentsOf: String(number).utf8)
        }
    }

    /// `value` at the current place: a `Date` as an ISO 8601 string, a String-keyed
    /// dictionary with sorted keys, anything else by its own `encode(to:)`, closing what it
    /// opened (`{}` when it wrote nothing, as `JSONEncoder` does).
    func write<T: Encodable>(_ value: T, codingPath: [CodingKey]) throws {
        if T.self == Date.self, let date = value as? Date { return write(date.formatted(.iso8601)) }
        if T.self == JSONNumberLiteral.self, let literal = value as? JSONNumberLiteral { return out.append(contentsOf: literal.text.utf8) }
        let type = ObjectIdentifier(T.self)
        var isDictionary = dictionaryTypes[type]
        if isDictionary == nil {
            isDictionary = T.self is any SortedJSONObject.Type
            dictionaryTypes[type] = isDictionary
        }
        if isDictionary == true, let dictionary = value as? any SortedJSONObject {
            return try dictionary.writeSorted(to: self, codingPath: codingPath)
        }
        let depth = frames.count
        let start = out.count
        try value.encode(to: StreamEncoder(stream: self, depth: depth, codingPath: codingPath))
        close(downTo: depth)
        if out.count == start { out.append(contentsOf: "{}".utf8) }
    }

    /// `string` as a JSON string: quotes, backslashes and control characters escaped.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if string.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &out) }) == nil {
            var copy = string
            copy.withUTF8 { appendEscaped($0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// UTF-8 bytes with JSON's escapes.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Most strings need no escaping: copied whole.
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            out.append(contentsOf: utf8)
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20: out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
    }
}

/// A String-keyed dictionary: it has no order of its own, so its object is written with
/// sorted keys (the same bytes every run).
protocol SortedJSONObject {
    func writeSorted(to stream: JSONStream, codingPath: [CodingKey]) throws
}

extension Dictionary: SortedJSONObject where Key == String, Value: Encodable {
    func writeSorted(to stream: JSONStream, codingPath: [CodingKey]) throws {
        let depth = stream.frames.count
        let serial = stream.open(object: true, at: depth)
        for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            try stream.begin(depth, serial: serial, key: key, codingPath: codingPath)
            try stream.write(self[key]!, codingPath: codingPath)
        }
        stream.close(downTo: depth)
    }
}
