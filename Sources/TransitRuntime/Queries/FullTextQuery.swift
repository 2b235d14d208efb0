import BundleFormat

/// Turns what a person types into an FTS5 query: each word becomes a quoted prefix
/// term, so no input can inject FTS5 syntax. A query is bounded before any work is done
/// for it: at most `maxBytes` bytes and `maxWords` words (100,000 words made a city
/// search take over 20 s).
package enum FullTextQuery {
    package static let maxBytes = 1_000
    package static let maxWords = 16
    /// The most results a search returns, whatever limit it is asked for.
    package static let maxResults = 10_000

    /// The words of `text` (`SearchKey.words`), or `TransitError.badArgument` when the text
    /// is longer than `maxBytes` or has more than `maxWords` words.
    package static func words(_ text: String) throws -> [String] {
        guard text.utf8.count <= maxBytes else {
            throw TransitError.badArgument("a search of \(text.utf8.count) bytes (at most \(maxBytes))")
        }
        let words = SearchKey.words(text)
        guard words.count <= maxWords else { throw TransitError.badArgument("a search of \(words.count) words (at most \(maxWords))") }
        return words
    }

    /// `"word1"* "word2"*`, or nil when the text has no letters or digits.
    static func prefixMatch(_ text: String) throws -> String? {
        let words = try words(text)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }
}
