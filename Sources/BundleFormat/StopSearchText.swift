import CSQLite
import TransitSQLite

/// What the stop search index holds for a stop name: the name itself, plus words that let a
/// search find it the ways people type it. The index is contentless (`content=''`), so these
/// words are searched but never shown.
///
/// - Scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar, Korean
///   runs): every suffix of each run is a word, so a prefix search finds any part of the
///   name ("湖駅" finds "河口湖駅", "北口" finds "甲府駅北口").
/// - German umlauts and ß: the transliteration is a word too ("zuerich" finds "Zürich").
///
/// The compiler and the patch applier both fill the index through `DerivedTables`, which
/// calls this as the SQL function `stop_search_text(name)`.
package enum StopSearchText {
    /// At most this many suffixes of one run are indexed (names are short; this bounds a
    /// pathological one).
    static let maxSuffixes = 48
    /// A suffix is indexed up to this many characters (a prefix search reads no further in
    /// practice; a 1 MB run made 48 MB of words to index).
    static let maxSuffixLength = 64

    package static func of(_ name: String) -> String {
        var extra: [String] = []
        let transliterated = transliterate(name)
        if transliterated != name { extra.append(transliterated) }
        var run: [Character] = []
        func flush() {
            if run.count > 1 {
                for start in 1..<min(run.count, maxSuffixes + 1) {
                    extra.append(String(run[start..<min(run.count, start + maxSuffixLength)]))
                }
            }
            run.removeAll(keepingCapacity: true)
        }
        for character in name {
            if character.unicodeScalars.first.map(isUnspaced) == true { run.append(character) } else { flush() }
        }
        flush()
        return extra.isEmpty ? name : name + " " + extra.joined(separator: " ")
    }

    /// German transliteration of umlauts and ß.
    static func transliterate(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { "äöüÄÖÜß".unicodeScalars.contains($0) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "ä": out += "ae"
            case "ö": out += "oe"
            case "ü": out += "ue"
            case "Ä": out += "Ae"
            case "Ö": out += "Oe"
            case "Ü": out += "Ue"
            case "ß": out += "ss"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Scripts whose words are not separated by spaces (and Hangul, whose station names run
    /// together "…역").
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (0x0E00...0x0EFF).contains(v)  // Thai, Lao
            || (0x1000...0x109F).contains(v)  // Myanmar
            || (0x1780...0x17FF).contains(v)  // Khmer
            || (0x3040...0x30FF).contains(v)  // Hiragana, Katakana
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xF900...0xFAFF).contains(v)  // Han
            || (0xAC00...0xD7A3).contains(v)  // Hangul syllables
            || (0x20000...0x3FFFD).contains(v)  // Han, supplementary
    }

    /// Makes `stop_search_text(name)` available on `db`.
    package static func register(on db: SQLiteDatabase) throws {
        let rc = sqlite3_create_function_v2(
            db.handle, "stop_search_text", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, values in
                guard count == 1, let values, let value = values[0], let text = sqlite3_value_text(value) else {
                    sqlite3_result_null(context)
                    return
                }
                let result = StopSearchText.of(String(cString: text))
                sqlite3_result_text(context, result, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: "cannot register stop_search_text") }
    }
}
