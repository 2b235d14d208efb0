import Foundation

/// Turns what a person types into an FTS5 query: each word becomes a quoted prefix
/// term, so no input can inject FTS5 syntax.
enum FullTextQuery {
    /// `"word1"* "word2"*`, or nil when the text has no letters or digits.
    static func prefixMatch(_ text: String) -> String? {
        let words = words(text)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }

    /// Lower-case, diacritics removed, words joined by single spaces.
    static func normalize(_ text: String) -> String { words(text).joined(separator: " ") }

    static func words(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !($0.isLetter || $0.isNumber) }
            .map(String.init)
    }
}
