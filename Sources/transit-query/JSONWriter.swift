/// Builds compact JSON text by hand: keys stay in the documented order, and it is
/// much faster than an encoder for the batch mode's many small objects.
struct JSONWriter {
    private(set) var text = ""
    private var needsComma: [Bool] = [false]

    mutating func beginObject() { separator(); text += "{"; needsComma.append(false) }
    mutating func endObject() { text += "}"; needsComma.removeLast() }
    mutating func beginArray() { separator(); text += "["; needsComma.append(false) }
    mutating func endArray() { text += "]"; needsComma.removeLast() }

    mutating func key(_ name: String) {
        separator()
        appendString(name)
        text += ":"
        pendingValue = true
    }

    private var pendingValue = false

    mutating func value(_ string: String?) {
        guard let string else { return null() }
        separator(); appendString(string)
    }

    mutating func value(_ number: Int?) {
        guard let number else { return null() }
        separator(); text += String(number)
    }

    mutating func value(_ number: Double?) {
        guard let number, number.isFinite else { return null() }
        separator()
        text += number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    mutating func value(_ flag: Bool) { separator(); text += flag ? "true" : "false" }

    mutating func null() { separator(); text += "null" }

    /// Writes pre-rendered JSON as one value.
    mutating func raw(_ json: String) { separator(); text += json }

    mutating func field(_ name: String, _ string: String?) { key(name); value(string) }
    mutating func field(_ name: String, _ number: Int?) { key(name); value(number) }
    mutating func field(_ name: String, _ number: Double?) { key(name); value(number) }
    mutating func field(_ name: String, _ flag: Bool) { key(name); value(flag) }

    private mutating func separator() {
        if pendingValue { pendingValue = false; needsComma[needsComma.count - 1] = true; return }
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func appendString(_ string: String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
