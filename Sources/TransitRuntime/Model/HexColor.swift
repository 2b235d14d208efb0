import BundleFormat

/// A colour as GTFS writes it (route_color, route_text_color): six hexadecimal digits, RRGGBB.
///
/// ```swift
/// let red = HexColor("E10D19")!     // red 225, green 13, blue 25
/// red.hex                           // "E10D19"
/// ```
public struct HexColor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The red component, 0 to 255.
    public var red: UInt8
    /// The green component, 0 to 255.
    public var green: UInt8
    /// The blue component, 0 to 255.
    public var blue: UInt8

    /// The colour of these components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `RRGGBB` (either case, an optional leading `#`); nil for anything else.
    public init?(_ text: String) {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.utf8.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `RRGGBB`, upper case.
    public var hex: String {
        let value = Int(red) << 16 | Int(green) << 8 | Int(blue)
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    public var description: String { hex }

    /// Components from 0 to 1, as colour types of UI frameworks take them.
    public var components: (red: Double, green: Double, blue: Double) {
        (Double(red) / 255, Double(green) / 255, Double(blue) / 255)
    }

    public init(from decoder: Decoder) throws { self = try decoder.decodeText("RRGGBB", HexColor.init) }

    public func encode(to encoder: Encoder) throws { try encoder.encodeText(hex) }
}
