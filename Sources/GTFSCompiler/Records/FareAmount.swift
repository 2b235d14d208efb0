/// The checks of a fare's price and currency as fare_attributes.txt writes them.
enum FareAmount {
    /// `text` as a price: digits with at most one decimal point ("2", "2.5", "07.85",
    /// ".5"), without sign, exponent or spaces; leading zeros of the whole part dropped.
    /// nil for anything else.
    static func normalized(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 32 else { return nil }
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(dot ?? bytes.count)]
        let fraction = dot.map { bytes[($0 + 1)...] } ?? []
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        guard whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit), !(whole.isEmpty && fraction.isEmpty) else { return nil }
        let trimmed = whole.drop { $0 == 0x30 }
        let wholeText = trimmed.isEmpty ? "0" : String(decoding: trimmed, as: UTF8.self)
        return fraction.isEmpty ? wholeText : wholeText + "." + String(decoding: fraction, as: UTF8.self)
    }

    /// `text` as a fare product's amount: like `normalized`, with an optional leading minus
    /// (a negative amount is a discount); "-0" reads as "0".
    static func signedNormalized(_ text: String) -> String? {
        guard text.hasPrefix("-") else { return normalized(text) }
        guard let magnitude = normalized(String(text.dropFirst())) else { return nil }
        return magnitude.allSatisfy { $0 == "0" || $0 == "." } ? "0" : "-" + magnitude
    }

    /// The row's price in column `amount` and its currency in column `currency`, each
    /// checked (a negative amount only when `signed`); nil after a warning naming the bad
    /// field and what is dropped (`dropped`: "fare", "row").
    static func read(_ t: CSVTable, amount: Int, currency: Int, entity: String, signed: Bool, dropped: String) -> (
        amount: String, currency: String
    )? {
        let name = signed ? "amount" : "price"
        guard let value = t.text(amount).flatMap(signed ? signedNormalized : normalized) else {
            let kind = signed ? "a decimal number" : "a non-negative decimal number"
            t.warn(.badValue, column: amount, entity: entity, message: "\(name) is not \(kind); \(dropped) dropped")
            return nil
        }
        guard let code = t.text(currency), isCurrencyCode(code) else {
            t.warn(
                .badValue, column: currency, entity: entity,
                message: "the currency is not an ISO 4217 code (three capital letters); \(dropped) dropped")
            return nil
        }
        return (value, code)
    }

    /// Whether a normalized price is below a billion with at most nine decimals: what a
    /// bundle stores as an integer (`FareClassesBlob`).
    static func isStorable(_ normalized: String) -> Bool {
        let parts = normalized.split(separator: ".", omittingEmptySubsequences: false)
        return parts[0].count <= 9 && (parts.count < 2 || parts[1].count <= 9)
    }

    /// Whether `code` has the form of an ISO 4217 currency code: three capital letters.
    static func isCurrencyCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
    }
}
