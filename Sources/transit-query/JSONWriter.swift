/// Builds compact JSON as UTF-8 bytes by hand: keys stay in the documented order, and
/// it is much faster than an encoder for the batch mode's many small objects.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]
    private var pendingValue = false

    init() { bytes.reserveCapacity(4096) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separator()
        bytes.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma.removeLast()
    }

    mutating func key(_ name: String) {
        separator()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        pendingValue = true
    }

    mutating func value(_ string: String?) {
        guard let string else { return null() }
        separator()
        appendString(string)
    }

    mutating func value(_ number: Int?) {
        guard let number else { return null() }
        separator()
        bytes.append(contentsOf: String(number).utf8)
    }

    mutating func value(_ number: Double?) {
        guard let number, number.isFinite else { return null() }
        separator()
        bytes.append(contentsOf: (number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)).utf8)
    }

    mutating func value(_ flag: Bool) {
        separator()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    /// A value already encoded as JSON.
    mutating func raw(_ json: [UInt8]) {
        separator()
        bytes.append(contentsOf: json)
    }

    mutating func null() {
        separator()
        bytes.append(contentsOf: "null".utf8)
    }

    mutating func field(_ name: String, _ string: String?) {
        key(name)
        value(string)
    }
    mutating func field(_ name: String, _ number: Int?) {
        key(name)
        value(number)
    }
    mutating func field(_ name: String, _ number: Double?) {
        key(name)
        value(number)
    }
    mutating func field(_ name: String, _ flag: Bool) {
        key(name)
        value(flag)
    }

    private mutating func separator() {
        if pendingValue {
            pendingValue = false
            needsComma[needsComma.count - 1] = true
            return
        }
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var copy = string
        copy.withUTF8 { utf8 in
            // Most strings need no escaping: copy them whole.
            if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
