import Foundation

/// The normalized form of a name for exact-match ranking: lower case, diacritics
/// removed, words of letters and digits joined by single spaces ("São  Paulo!" ->
/// "sao paulo"). The compiler stores it; the runtime computes it for queries.
package enum SearchKey {
    package static func normalize(_ text: String) -> String { words(text).joined(separator: " ") }

    package static func words(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII fast path: no diacritics to remove.
            return text.utf8.split { !(($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)) }
                .map { String(decoding: $0.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self) }
        }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return folded.unicodeScalars
            .split { !($0.properties.isAlphabetic || $0.properties.numericType != nil) }
            .map { String(String.UnicodeScalarView($0)) }
    }
}
