import BundleFormat

/// Turns what a person types into an FTS5 query: each word becomes a quoted prefix
/// term, so no input can inject FTS5 syntax.
enum FullTextQuery {
    /// `"word1"* "word2"*`, or nil when the text has no letters or digits.
    static func prefixMatch(_ text: String) -> String? {
        let words = SearchKey.words(text)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }
}
